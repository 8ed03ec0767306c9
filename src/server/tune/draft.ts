/**
 * The builder's draft, read as the server reads an encounter it starts (tables.ts,
 * startEncounter): the table's own library, no content folders, the roster's characters in their
 * lasting state. The same on the event loop (to check a request) and in the tune worker (to
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
        : { ok: true, library },
    build,
  );
  if (!parsed.ok) {
    const first = parsed.errors[0]!;
    const where = [first.path, first.line === undefined ? '' : `line ${first.line}`]
      .filter(Boolean)
      .join(', ');
    return err('encounter/bad-file', `${where ? `${where}: ` : ''}${first.message}`);
  }
  // The balance search rebuilds the setup for every value it tries through `system.setupFrom`:
  // the roster's characters must stay as the table has them there too.
  const withRoster: AnySystem = Object.create(system, {
    setupFrom: { value: (lib: ContentLibrary, spec: unknown) => build(system, lib, spec) },
  });
  return ok({ ...parsed.encounter, system: withRoster });
}
