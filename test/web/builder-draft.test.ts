/**
 * The encounter builder's rules without a browser: the options it offers default as the
 * systems' schemas do, and whatever it builds is a file the server's own reading accepts, with
 * every picked combatant in it once under its own id (Shining Force: each on its own free cell).
 */

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseEncounterText } from '../../src/encounters/file.js';
import { optionsSchema as ffrpgOptions } from '../../src/rulesets/ffrpg/model.js';
import { optionsSchema as ffviiiOptions } from '../../src/rulesets/ffviii/model.js';
import { systemById } from '../../src/rulesets/index.js';
import { optionsSchema as shiningForceOptions } from '../../src/rulesets/shining-force/model.js';
import { optionsSchema as zodiacOptions } from '../../src/rulesets/zodiac/model.js';
import { starterLibrary } from '../../src/server/tables.js';
import {
  type Draft,
  type DraftCombatant,
  encounterFile,
  standable,
  startCell,
  terrainAt,
} from '../../web/src/builder/draft.js';
import { OPTION_FIELDS } from '../../web/src/builder/options.js';
import { ROOT } from '../server/harness.js';

const SCHEMAS = {
  ffrpg: ffrpgOptions,
  ffviii: ffviiiOptions,
  zodiac: zodiacOptions,
  'shining-force': shiningForceOptions,
} as const;

const GATE_ROWS = (
  parse(readFileSync(`${ROOT}examples/shining-force-gate.yaml`, 'utf8')) as {
    battlefield: { rows: string[] };
  }
).battlefield.rows;

function read(system: string, draft: Draft) {
  const sys = systemById(system)!;
  const library = starterLibrary(sys);
  if (!library.ok) throw new Error(library.error.message);
  const names = new Map(
    library.value
      .kinds()
      .flatMap((k) =>
        library.value.all(k).map((e) => [e.id, (e as { name?: string }).name ?? e.id] as const),
      ),
  );
  const text = stringify(encounterFile(draft, names));
  return {
    text,
    result: parseEncounterText('built', text, [sys], () => ({ ok: true, library: library.value })),
  };
}

function ids(system: string, kind: string): string[] {
  const library = starterLibrary(systemById(system)!);
  if (!library.ok) throw new Error(library.error.message);
  return library.value.all(`${system}/${kind}`).map((e) => e.id);
}

const blank = (system: string): Draft => ({
  system,
  name: '',
  sides: [],
  players: null,
  options: {},
  mode: 'battle',
  levelTable: null,
  events: [],
  rows: system === 'shining-force' ? GATE_ROWS : [],
});

/** Adds combatants as the page does: Shining Force's on the next free start cell. */
function pick(draft: Draft, side: number, sheet: DraftCombatant['sheet'], ref: string): Draft {
  const at = draft.system === 'shining-force' ? startCell(draft, side) : undefined;
  const key = draft.sides.flatMap((s) => s.combatants).length + 1;
  return {
    ...draft,
    sides: draft.sides.map((s) =>
      s.key === side
        ? { ...s, combatants: [...s.combatants, { key, sheet, ref, ...(at ? { at } : {}) }] }
        : s,
    ),
  };
}

describe('the builder’s options', () => {
  it.each(Object.keys(SCHEMAS))(
    '%s: one control per option, defaulting as the rules do',
    (system) => {
      const defaults = SCHEMAS[system as keyof typeof SCHEMAS].parse({});
      const fields = OPTION_FIELDS[system]!;
      expect(Object.keys(fields).sort()).toEqual(Object.keys(defaults).sort());
      for (const [name, field] of Object.entries(fields)) {
        expect([name, field.default]).toEqual([name, (defaults as Record<string, unknown>)[name]]);
      }
    },
  );
});

describe('a built encounter file', () => {
  it('The Wind Cave picked by hand reads as the example does: Hiro, Haze and Mint against the Heket', () => {
    let draft: Draft = {
      ...blank('ffrpg'),
      name: 'The Wind Cave',
      sides: [
        { key: 1, name: 'The party', combatants: [] },
        { key: 2, name: 'The Heket', combatants: [] },
      ],
      players: 1,
      levelTable: 'standard',
      options: { initiativeTies: 'speed-then-party' },
    };
    for (const c of ['hiro', 'haze', 'mint']) draft = pick(draft, 1, 'character', c);
    draft = pick(draft, 2, 'monster', 'heket');
    const { result } = read('ffrpg', draft);
    const example = parseEncounterText(
      'example',
      readFileSync(`${ROOT}examples/ffrpg-wind-cave.yaml`, 'utf8'),
      [systemById('ffrpg')!],
      () => {
        const library = starterLibrary(systemById('ffrpg')!);
        if (!library.ok) throw new Error(library.error.message);
        return { ok: true, library: library.value };
      },
    );
    expect(result.ok && example.ok).toBe(true);
    if (!result.ok || !example.ok) return;
    const spec = (e: typeof result) =>
      e.ok
        ? JSON.stringify((e.encounter.spec as { sides: unknown }).sides).replace(
            /"id":"[^"]*",/g,
            '',
          )
        : '';
    expect(spec(result)).toBe(spec(example));
    expect(result.encounter.name).toBe('The Wind Cave');
  });

  it('the players’ side comes first and carries the system’s mark; a sheet twice gets its own id', () => {
    let draft: Draft = {
      ...blank('zodiac'),
      sides: [
        { key: 1, name: 'The ogres', combatants: [] },
        { key: 2, name: 'Keef', combatants: [] },
      ],
      players: 2,
    };
    draft = pick(
      pick(pick(draft, 1, 'monster', 'ogre'), 1, 'monster', 'ogre'),
      2,
      'character',
      'keef',
    );
    const { text, result } = read('zodiac', draft);
    expect(result.ok).toBe(true);
    const file = parse(text) as {
      sides: { id: string; party?: boolean; combatants: Record<string, string>[] }[];
    };
    expect(file.sides.map((s) => [s.id, s.party ?? false])).toEqual([
      ['keef', true],
      ['the-ogres', false],
    ]);
    expect(file.sides[1]!.combatants).toEqual([
      { monster: 'ogre' },
      { monster: 'ogre', id: 'ogre-2', name: 'Ogre 2' },
    ]);
  });

  it.each(['ffrpg', 'ffviii', 'zodiac', 'shining-force'])(
    '%s: a tuned maximum HP goes into the monster’s entry as maxHp, and the fight starts it there',
    (system) => {
      const monster = ids(system, 'monster')[0]!;
      let draft: Draft = {
        ...blank(system),
        sides: [
          { key: 1, name: 'Party', combatants: [] },
          { key: 2, name: 'Foes', combatants: [] },
        ],
        players: 1,
      };
      draft = pick(
        pick(draft, 1, 'character', ids(system, 'character')[0]!),
        2,
        'monster',
        monster,
      );
      draft = {
        ...draft,
        sides: draft.sides.map((s) => ({
          ...s,
          combatants: s.combatants.map((c) => (c.sheet === 'monster' ? { ...c, maxHp: 123 } : c)),
        })),
      };
      const { text, result } = read(system, draft);
      const file = parse(text) as { sides: { combatants: Record<string, unknown>[] }[] };
      expect(file.sides[1]!.combatants[0]).toMatchObject({ monster, maxHp: 123 });
      expect(file.sides[0]!.combatants[0]).not.toHaveProperty('maxHp');
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      const { system: sys, setup } = result.encounter;
      const seen = sys
        .view(sys.ruleset.initialState(setup))
        .combatants.find((c) => c.id === monster);
      expect(seen).toMatchObject({ hp: 123, maxHp: 123 });
    },
  );

  it('a refused file names the place: a side with nobody on it', () => {
    const draft: Draft = {
      ...blank('ffviii'),
      sides: [
        { key: 1, name: 'Ehlric', combatants: [] },
        { key: 2, name: 'The Giant', combatants: [] },
      ],
      players: 1,
    };
    const { result } = read('ffviii', pick(draft, 2, 'monster', 'iron-giant'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]!.path).toBe('sides[0].combatants');
  });

  it.each(['ffrpg', 'ffviii', 'zodiac', 'shining-force'])(
    '%s: any sides and picks make a file the server reads, everyone in it once',
    (system) => {
      const monsters = ids(system, 'monster');
      const characters = ids(system, 'character');
      fc.assert(
        fc.property(
          fc.integer({ min: 2, max: system === 'shining-force' ? 4 : 3 }),
          fc.array(fc.tuple(fc.nat(3), fc.nat(monsters.length - 1)), {
            minLength: 0,
            maxLength: 6,
          }),
          fc.subarray(characters, { minLength: 0 }),
          fc.nat(3),
          (sideCount, monsterPicks, characterPicks, playersAt) => {
            let draft: Draft = {
              ...blank(system),
              sides: Array.from({ length: sideCount }, (_, i) => ({
                key: i + 1,
                name: i === 0 ? 'The Party' : `Foes ${i}`,
                combatants: [],
              })),
              players: (playersAt % sideCount) + 1,
            };
            // Every side gets someone, so the file is whole.
            for (let s = 1; s <= sideCount; s++) draft = pick(draft, s, 'monster', monsters[0]!);
            for (const [s, m] of monsterPicks)
              draft = pick(draft, (s % sideCount) + 1, 'monster', monsters[m]!);
            characterPicks.forEach((c, i) => {
              draft = pick(draft, (i % sideCount) + 1, 'character', c);
            });
            const { result } = read(system, draft);
            if (!result.ok) throw new Error(JSON.stringify(result.errors));
            const spec = result.encounter.spec as {
              sides: {
                combatants: { id?: string; monster?: string; character?: string; at?: string }[];
              }[];
            };
            const everyone = spec.sides.flatMap((s) => s.combatants);
            expect(everyone).toHaveLength(draft.sides.flatMap((s) => s.combatants).length);
            const combatantIds = everyone.map((c) => c.id ?? c.character ?? c.monster);
            expect(new Set(combatantIds).size).toBe(combatantIds.length);
            if (system === 'shining-force') {
              const cells = everyone.map((c) => c.at!);
              expect(new Set(cells).size).toBe(cells.length);
              for (const cell of cells) expect(standable(terrainAt(GATE_ROWS, cell))).toBe(true);
            }
          },
        ),
        { seed: 14, numRuns: 40 },
      );
    },
  );
});
