import type { ContentLibrary } from '../../content/index.js';
import { type CommandBase, gm, type Result } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';

/**
 * A `gm ...` line (without `gm`) as the command it means in this encounter's system: a
 * system-only GM command first (`gm move max c4`), then the shared vocabulary; `gm add` reads
 * the newcomer's sheet from the encounter's content. Combatants, sides, statuses and content
 * are named by id or by name (`gm add Iron Giant to The Iron Giant`).
 */
export function gmCommandFrom(
  system: AnySystem,
  library: ContentLibrary | undefined,
  state: unknown,
  line: string,
): Result<CommandBase> {
  const own = system.parseGm?.(state, line);
  if (own !== undefined) return own;
  const parsed = gm.parseGmLine(line, gmContextOf(system, library, state));
  if (!parsed.ok || parsed.value.type !== 'gm-add') return parsed;
  const request = parsed.value;
  if (library === undefined)
    return { ok: false, error: { code: 'gm/no-content', message: 'no content is loaded here' } };
  const newcomer = system.newcomer(library, request.content);
  if (!newcomer.ok) return newcomer;
  return {
    ok: true,
    value: {
      type: 'gm-add',
      side: request.side,
      newcomer: newcomer.value,
      ...(request.name === undefined ? {} : { name: request.name }),
    } as CommandBase,
  };
}

/** What a GM line may name in this fight: its combatants, sides, statuses and addable sheets. */
export function gmContextOf(
  system: AnySystem,
  library: ContentLibrary | undefined,
  state: unknown,
): gm.GmContext {
  const view = system.view(state);
  const statuses = system.gmStatuses?.(state);
  return {
    combatants: view.combatants,
    sides: view.sides,
    vocabulary: system.gm,
    ...(library === undefined ? {} : { content: addableOf(system, library) }),
    ...(statuses === undefined ? {} : { statuses }),
  };
}

/** The characters and monsters `gm add` may bring in, by id and sheet name. */
export function addableOf(system: AnySystem, library: ContentLibrary): gm.RosterEntry[] {
  const id = system.ruleset.id;
  return [`${id}/character`, `${id}/monster`].flatMap((kind) =>
    library.all(kind).map((entity) => {
      const name = (entity as { name?: unknown }).name;
      return { id: entity.id, name: typeof name === 'string' ? name : entity.id };
    }),
  );
}
