/**
 * The encounter a preview plays: the draft against one foe, written by the encounter builder's
 * own rules (builder/draft.ts), so the server reads it as it reads any built fight. Pure.
 */
import { type Draft, encounterFile, startCell } from '../builder/draft.js';

/** Shining Force: two cells side by side, so a first turn's attack has the foe in reach. */
const DUEL_ROWS = ['..', '..'];

export function duelEncounter(
  system: string,
  draft: { readonly sheet: 'character' | 'monster'; readonly id: string; readonly name: string },
  foe: { readonly sheet: 'character' | 'monster'; readonly id: string; readonly name: string },
): Record<string, unknown> {
  let built: Draft = {
    system,
    name: 'Preview',
    sides: [
      { key: 1, name: draft.name || 'Draft', combatants: [] },
      { key: 2, name: 'Foe', combatants: [] },
    ],
    players: 1,
    options: {},
    mode: 'battle',
    levelTable: null,
    events: [],
    rows: system === 'shining-force' ? DUEL_ROWS : [],
  };
  const place = (sideKey: number, key: number, pick: typeof draft) => {
    const at = system === 'shining-force' ? startCell(built, sideKey) : undefined;
    built = {
      ...built,
      sides: built.sides.map((s) =>
        s.key === sideKey
          ? {
              ...s,
              combatants: [
                ...s.combatants,
                { key, sheet: pick.sheet, ref: pick.id, ...(at === undefined ? {} : { at }) },
              ],
            }
          : s,
      ),
    };
  };
  place(1, 1, draft);
  place(2, 2, foe);
  return encounterFile(
    built,
    new Map([
      [draft.id, draft.name],
      [foe.id, foe.name],
    ]),
  );
}
