/**
 * An encounter file sent to the server, read as it starts one (tables.ts, startEncounter) and as
 * the builder's draft is tuned: the table's own library, no content folders, the roster's
 * characters in their lasting state. The same on the event loop (to check a request) and in the tune worker (to
 * play it), so both see one encounter.
 */
import type { ContentLibrary } from '../../content/index.js';
import { type EncounterFile, parseEncounterText } from '../../encounters/file.js';
import { err, ok, type Result } from '../../engine/index.js';
import type { CampaignRoster } from '../../rulesets/campaign.js';
import type { AnySystem } from '../../rulesets/system.js';

/**
 * What the GM may vary from the builder: a monster's most HP (its entries' `maxHp` override in
 * the draft, not its sheet), or how many of it fight.
 */
export type TuneField = 'hp' | 'count';

export function draftEncounter(
  system: AnySystem,
  library: ContentLibrary,
  roster: CampaignRoster,
  text: string,
): Result<EncounterFile> {
  const build = (sys: AnySystem, lib: ContentLibrary, spec: unknown): Result<unknown> =>
    sys.campaign.setupFrom(lib, spec, roster);
  const parsed = parseEncounterText(
    'encounter',
    text,
    [system],
    (dirs) =>
      dirs.length > 1
        ? {
            ok: false,
            errors: [
              {
                file: 'encounter',
                path: 'content',
                message:
                  "the server reads only its own content: an encounter sent to it has no 'content' folders",
              },
            ],
          }
        : // The table's own library, never the package's: the encounter is built from what
          // the GM keeps, and carries the sheets it uses in its setup from then on.
          { ok: true, library },
    build,
  );
  if (!parsed.ok) {
    const first = parsed.errors[0]!;
    const where = [first.path, first.line === undefined ? '' : `line ${first.line}`]
      .filter(Boolean)
      .join(', ');
    const more = parsed.errors.length > 1 ? ` (and ${parsed.errors.length - 1} more)` : '';
    return err('encounter/bad-file', `${where ? `${where}: ` : ''}${first.message}${more}`);
  }
  // The balance search rebuilds the setup for every value it tries through `system.setupFrom`:
  // the roster's characters must stay as the table has them there too.
  const withRoster: AnySystem = Object.create(system, {
    setupFrom: { value: (lib: ContentLibrary, spec: unknown) => build(system, lib, spec) },
  });
  return ok({ ...parsed.encounter, system: withRoster });
}
