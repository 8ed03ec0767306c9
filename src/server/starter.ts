import { type ContentLibrary, loadContent } from '../content/index.js';
import { err, ok, type Result } from '../engine/index.js';
import { systemById } from '../rulesets/index.js';
import type { AnySystem } from '../rulesets/system.js';
import type { TableRecord } from '../store/index.js';

const libraries = new Map<string, Result<ContentLibrary>>();

/**
 * The system's starter content, read once. A server reads only its own content: an encounter
 * file sent to it cannot name folders on the server's disk.
 */
export function starterLibrary(system: AnySystem): Result<ContentLibrary> {
  let cached = libraries.get(system.ruleset.id);
  if (cached === undefined) {
    const loaded = loadContent(system.starterContent, system.kinds);
    cached = loaded.ok
      ? ok(loaded.library)
      : err(
          'content/broken',
          `the ${system.ruleset.name} starter content does not load: ${loaded.errors[0]?.message}`,
        );
    libraries.set(system.ruleset.id, cached);
  }
  return cached;
}

export function systemOfTable(table: TableRecord): Result<AnySystem> {
  const system = systemById(table.systemId);
  return system === undefined
    ? err('table/unknown-system', `table ${table.id} is for '${table.systemId}', unknown here`)
    : ok(system);
}
