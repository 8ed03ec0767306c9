import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { createTable, recruit, startEncounter } from '../server/tables.js';
import type { Store } from '../store/index.js';

/** The examples a demo table starts from, one per system, as the package ships them. */
export const DEMO_EXAMPLES = [
  { system: 'ffrpg', file: 'ffrpg-wind-cave.yaml' },
  { system: 'ffviii', file: 'ffviii-iron-giant.yaml' },
  { system: 'zodiac', file: 'zodiac-keef-and-the-ogre.yaml' },
  { system: 'shining-force', file: 'shining-force-gate.yaml' },
] as const;

export interface DemoTable {
  readonly system: string;
  readonly name: string;
  /** The GM token: shown once, as any new table's. */
  readonly gmToken: string;
  readonly encounterId: string;
}

/** The characters an example's sides name: they join the table's roster. */
function charactersIn(file: string): string[] {
  const data = parse(file) as { sides?: { combatants?: { character?: unknown }[] }[] };
  const ids = (data.sides ?? []).flatMap((side) =>
    (side.combatants ?? [])
      .map((c) => c.character)
      .filter((c): c is string => typeof c === 'string'),
  );
  return [...new Set(ids)];
}

/**
 * A table per system, with its example's characters on the roster and the example's fight
 * started: what `moogle serve` opens on an empty store, so a first run has something to play.
 */
export async function createDemoTables(store: Store): Promise<DemoTable[]> {
  const made: DemoTable[] = [];
  for (const { system, file } of DEMO_EXAMPLES) {
    const text = readFileSync(
      fileURLToPath(new URL(`../../examples/${file}`, import.meta.url)),
      'utf8',
    );
    const name = (parse(text) as { name?: string }).name ?? file;
    const created = await createTable(store, system, `Demo: ${name}`);
    if (!created.ok) throw new Error(created.error.message);
    const { table, gm } = created.value;
    for (const character of charactersIn(text)) {
      const added = await recruit(store, table, character);
      if (!added.ok) throw new Error(added.error.message);
    }
    const encounter = await startEncounter(store, table, { file: text, name });
    if (!encounter.ok) throw new Error(encounter.error.message);
    made.push({ system, name, gmToken: gm.token, encounterId: encounter.value.id });
  }
  return made;
}
