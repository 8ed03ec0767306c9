import type { ContentLibrary } from '../../content/index.js';
import { type CommandBase, gm, type Result } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';

/**
 * A `gm ...` line (without `gm`) as the command it means in this encounter's system: a
 * system-only GM command first (`gm move max c4`), then the shared vocabulary; `gm add` reads
 * the newcomer's sheet from the encounter's content.
 */
export function gmCommandFrom(
  system: AnySystem,
  library: ContentLibrary | undefined,
  state: unknown,
  line: string,
): Result<CommandBase> {
  const own = system.parseGm?.(state, line);
  if (own !== undefined) return own;
  const view = system.view(state);
  const parsed = gm.parseGmLine(line, {
    combatants: view.combatants,
    sides: view.sides,
    vocabulary: system.gm,
  });
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
