import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api.js';
import { LiveEncounter, type LiveSnapshot } from './live.js';

/** The live encounter of one screen: connected while the screen is shown. */
export function useLive(api: Api, encounterId: string): [LiveEncounter, LiveSnapshot] {
  const [live] = useState(() => new LiveEncounter(() => api.socketUrl(encounterId)));
  const [snapshot, setSnapshot] = useState(live.snapshot);
  useEffect(() => {
    const off = live.subscribe(setSnapshot);
    live.start();
    return () => {
      off();
      live.stop();
    };
  }, [live]);
  return [live, snapshot];
}
