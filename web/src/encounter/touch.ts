import type { LiveEncounter, LiveSnapshot } from '../live.js';
import type { GmKit } from '../types.js';

/**
 * The GM's overrides by touch: each button sends one GM command, as the engine's GM vocabulary
 * reads it, so each is one undoable log entry, described in the log exactly as the typed
 * `gm` line's command is. Combatants are named by id, never by a name a parser must resolve.
 */
export interface GmTouch {
  readonly live: LiveEncounter;
  readonly snapshot: LiveSnapshot;
  readonly kit: GmKit | null;
}

/** A GM command as the rulesets' schemas read it: `{ type: 'gm-set', target, ... }`. */
export type GmCommandData = { readonly type: string } & Readonly<Record<string, unknown>>;

/**
 * Sends one GM command. `what` reads as the typed line would (`gm hp hiro -1`): the screen names
 * a pending or refused submit by it, and a card finds its own refusals by the id it carries.
 */
export function sendGm(touch: GmTouch, command: GmCommandData, what: string): void {
  touch.live.submit({ kind: 'command', command }, what);
}

/** A GM line the session layer resolves (only `gm add`, whose sheet comes from content). */
export function sendGmLine(touch: GmTouch, line: string): void {
  touch.live.submit({ kind: 'gm', line }, `gm ${line}`);
}

/** Whether a submit named `what` was one of this combatant's touch overrides. */
export function isAbout(what: string, id: string): boolean {
  const words = what.split(' ');
  return words[0] === 'gm' && words[2] === id;
}

/** While a submit is unanswered the next would be refused as stale: controls wait for it. */
export function busy(touch: GmTouch): boolean {
  return touch.snapshot.pending !== null || touch.snapshot.state?.status !== 'active';
}

/** `+3`, `-2` or `7`: a value as the typed line writes it. */
export function signed(value: number, relative: boolean): string {
  return relative && value >= 0 ? `+${value}` : String(value);
}
