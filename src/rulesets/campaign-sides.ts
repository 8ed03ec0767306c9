import { err, ok, type Result } from '../engine/index.js';

/**
 * What every system's `setupFrom(library, spec, roster)` shares: walk the sides its own
 * `setupFrom` built (in the spec's order) and start each roster character from its lasting
 * state. A roster character must fight under its content id, since the fight's results find
 * their way back to it by that id.
 */
type Sheet<Side extends SideOfSheets> = Side['combatants'][number];
interface SideOfSheets {
  readonly combatants: readonly { readonly id: string; readonly name: string }[];
}

export function withLastingStates<Side extends SideOfSheets, State>(
  built: readonly Side[],
  spec: readonly { readonly combatants: readonly { readonly character?: string | undefined }[] }[],
  characters: Readonly<Record<string, State>>,
  /** The sheet as the roster starts it, or why it cannot fight (`where`: its place in the spec). */
  start: (sheet: Sheet<Side>, state: State, where: string) => Result<Sheet<Side>>,
): Result<Side[]> {
  const sides: Side[] = [];
  for (const [s, side] of built.entries()) {
    const combatants: Sheet<Side>[] = [];
    for (const [c, sheet] of side.combatants.entries()) {
      const characterId = spec[s]?.combatants[c]?.character;
      const state = characterId === undefined ? undefined : characters[characterId];
      if (characterId === undefined || state === undefined) {
        combatants.push(sheet);
        continue;
      }
      const where = `sides[${s}].combatants[${c}]`;
      if (sheet.id !== characterId) {
        return err(
          'campaign/renamed',
          `${where}: ${sheet.name} is on the roster as '${characterId}' and fights under that id, not '${sheet.id}'`,
        );
      }
      const started = start(sheet, state, where);
      if (!started.ok) return started;
      combatants.push(started.value);
    }
    sides.push({ ...side, combatants });
  }
  return ok(sides);
}
