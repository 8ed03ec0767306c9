import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api.js';
import { LiveEncounter, type LiveSnapshot } from './live.js';

/** The live encounter of one screen: connected while the screen is shown. */
export function useLive(api: Api, encounterId: string): [LiveEncounter, LiveSnapshot] {
  // A one-use ticket of the page's session for each (re)connect: the upgrade carries nothing
  // that opens the table again (issue 27), where the session's cookie would.
  const [live] = useState(
    () => new LiveEncounter(async () => api.socketUrl(encounterId, await api.ticket())),
  );
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
