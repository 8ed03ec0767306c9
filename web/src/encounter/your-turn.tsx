import { useEffect, useState } from 'preact/hooks';

/**
 * Telling a player their turn has come when they are not looking: the tab's title (seen in the
 * tab strip and the phone's app switcher), a short vibration where the phone allows one, and a
 * chime if the player asked for it. A phone in a pocket shows none of the page itself.
 */

const SOUND_KEY = 'moogle.turn-sound';
const TITLE_MARK = '● Your turn — ';

let audio: AudioContext | undefined;

/** Two short notes; an AudioContext may only start from a tap, so the toggle makes it. */
function chime(): void {
  if (audio === undefined || audio.state === 'closed') return;
  const at = audio.currentTime;
  for (const [i, hz] of [660, 880].entries()) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = hz;
    gain.gain.setValueAtTime(0.15, at + i * 0.15);
    gain.gain.exponentialRampToValueAtTime(0.001, at + i * 0.15 + 0.14);
    tone.connect(gain).connect(audio.destination);
    tone.start(at + i * 0.15);
    tone.stop(at + i * 0.15 + 0.15);
  }
}

function soundWanted(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    // Storage refused (a private window's settings): no chime unless asked on this page.
    return false;
  }
}

/** While `mine` holds, the title says so; as it starts, the phone vibrates (and chimes). */
export function useYourTurn(mine: boolean, sound: boolean): void {
  useEffect(() => {
    if (!mine) return;
    const before = document.title;
    document.title = `${TITLE_MARK}${before}`;
    // Not every browser has it (iOS Safari has none), and it may refuse without a tap first.
    navigator.vibrate?.([120, 80, 120]);
    if (sound) chime();
    return () => {
      // Restored unless something else has renamed the page meanwhile.
      if (document.title === `${TITLE_MARK}${before}`) document.title = before;
    };
    // Only the turn's start alerts: switching the chime on mid-turn does not replay it.
  }, [mine]);
}

/** The player's choice of a chime on their turn, kept on this device. */
export function useTurnSound(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(soundWanted);
  const set = (next: boolean) => {
    setOn(next);
    try {
      localStorage.setItem(SOUND_KEY, next ? 'on' : 'off');
    } catch {
      // Kept for this page only.
    }
    if (next) {
      audio ??= new AudioContext();
      void audio.resume();
    }
  };
  return [on, set];
}

export function TurnSoundToggle({ on, set }: { on: boolean; set: (on: boolean) => void }) {
  return (
    <label class="check small">
      <input type="checkbox" checked={on} onChange={(e) => set(e.currentTarget.checked)} /> Chime
      when it is my turn
    </label>
  );
}
