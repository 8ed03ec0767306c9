import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { loadContent } from '../../src/content/index.js';
import { parseEncounterText, readEncounterFile } from '../../src/encounters/file.js';
import { Encounter, loadEncounter } from '../../src/engine/index.js';
import { RULESETS, SYSTEMS } from '../../src/rulesets/index.js';

const EXAMPLES = [
  'ffrpg-wind-cave.yaml',
  'ffviii-iron-giant.yaml',
  'zodiac-keef-and-the-ogre.yaml',
  'shining-force-gate.yaml',
];
const path = (file: string) => fileURLToPath(new URL(`../../examples/${file}`, import.meta.url));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a leaf or a node of a JSON value, so a mutation can land anywhere. */
function paths(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) paths(v, [...at, i], out);
  } else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

const replacement = fc.oneof(
  fc.integer({ min: -5, max: 1000 }),
  fc.constantFrom(null, true, '', 'constructor', '__proto__', 1e308, -1, 0.5, [], {}),
  fc.string({ maxLength: 12 }),
);

/** The value with the node at `at` replaced, or removed when `remove`. */
function mutated(value: Json, at: (string | number)[], next: unknown, remove: boolean): Json {
  const copy = structuredClone(value) as Json;
  if (at.length === 0) return next as Json;
  let node = copy as Record<string | number, Json>;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = at.at(-1)!;
  if (remove && Array.isArray(node)) node.splice(Number(last), 1);
  else if (remove) delete node[last];
  else node[last] = next as Json;
  return copy;
}

describe.each(EXAMPLES)('mutated copies of %s', (file) => {
  it('as an encounter file: never throw; every failure names the file, a path and why', () => {
    const original = JSON.parse(JSON.stringify(exampleData(file))) as Json;
    const all = paths(original);
    fc.assert(
      fc.property(fc.nat(), replacement, fc.boolean(), (pick, next, remove) => {
        const text = stringify(mutated(original, all[pick % all.length]!, next, remove));
        const result = parseEncounterText(path(file), text, SYSTEMS, (dirs) =>
          loadContent(
            dirs,
            SYSTEMS.flatMap((s) => s.kinds),
          ),
        );
        if (result.ok) return;
        for (const error of result.errors) {
          expect(error.file.length).toBeGreaterThan(0);
          expect(error.message.length).toBeGreaterThan(0);
          expect(error.message.length).toBeLessThan(2000);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('as a save: a tampered save never throws; one that loads saves and loads again the same', () => {
    const read = readEncounterFile(path(file), SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    const created = Encounter.create(read.encounter.system.ruleset, read.encounter.setup, 8);
    if (!created.ok) throw new Error(created.error.message);
    const encounter = created.value;
    for (let i = 0; i < 6 && !encounter.outcome().over; i++) {
      const result = encounter.submit(encounter.legalActions()[0]!.command);
      if (!result.ok) throw new Error(result.error.message);
    }
    encounter.undo(1);
    const save = JSON.parse(JSON.stringify(encounter.save())) as Json;
    // Mutations land in the log and dice most of the time: that is what a forger edits.
    const all = paths(save).filter((p) => p[0] !== 'setup' || p.length < 4);
    fc.assert(
      fc.property(fc.nat(), replacement, fc.boolean(), (pick, next, remove) => {
        const loaded = loadEncounter(
          mutated(save, all[pick % all.length]!, next, remove),
          RULESETS,
        );
        if (!loaded.ok) {
          expect(loaded.error.message.length).toBeGreaterThan(0);
          return;
        }
        const again = loadEncounter(JSON.parse(JSON.stringify(loaded.value.save())), RULESETS);
        expect(again.ok).toBe(true);
        if (again.ok)
          expect(JSON.stringify(again.value.state)).toBe(JSON.stringify(loaded.value.state));
      }),
      { numRuns: 150 },
    );
  });
});

/** The example encounter file as plain data. */
function exampleData(file: string): unknown {
  return parseYaml(readFileSync(path(file), 'utf8'));
}
