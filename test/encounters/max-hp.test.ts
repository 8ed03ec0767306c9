/**
 * `maxHp:` on an encounter file's monster entry, in every system: the monster's maximum HP in
 * this fight, in place of its sheet's, and the HP it starts at. It reaches the view's HP bar,
 * the sim and the odds; a bad value is refused naming the file, the path and what was expected;
 * a character's entry may not carry one; the balance search varies it for one entry alone.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { formatContentError, loadContent } from '../../src/content/index.js';
import { type EncounterFile, parseEncounterText } from '../../src/encounters/file.js';
import { Encounter } from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { variationOf } from '../../src/sim/balance/variation.js';
import { DEFAULT_POLICY } from '../../src/sim/policies.js';
import { simulate } from '../../src/sim/sim.js';
import { defaultHpRange, MOST_HP } from '../../web/src/systems.js';

const EXAMPLES = {
  ffrpg: { file: 'examples/ffrpg-wind-cave.yaml', party: 'party' },
  ffviii: { file: 'examples/ffviii-iron-giant.yaml', party: 'ehlric' },
  zodiac: { file: 'examples/zodiac-keef-and-the-ogre.yaml', party: 'party' },
  'shining-force': { file: 'examples/shining-force-gate.yaml', party: 'force' },
} as const;

interface Entry {
  monster?: string;
  character?: string;
  id?: string;
  maxHp?: unknown;
  hp?: unknown;
}
type Doc = { sides: { combatants: Entry[] }[] } & Record<string, unknown>;

function docOf(system: keyof typeof EXAMPLES): Doc {
  return parse(readFileSync(EXAMPLES[system].file, 'utf8')) as Doc;
}

function read(name: string, doc: Doc) {
  return parseEncounterText(`${name}.yaml`, stringify(doc), SYSTEMS, (dirs) =>
    loadContent(
      dirs,
      SYSTEMS.flatMap((s) => s.kinds),
      { within: SYSTEMS.map((s) => s.starterContent) },
    ),
  );
}

function encounterOf(name: string, doc: Doc): EncounterFile {
  const read_ = read(name, doc);
  if (!read_.ok) throw new Error(read_.errors.map(formatContentError).join('\n'));
  return read_.encounter;
}

/** The first monster entry of the file: its place, and the id it fights under. */
function firstMonster(doc: Doc): { s: number; c: number; id: string } {
  for (const [s, side] of doc.sides.entries()) {
    for (const [c, entry] of side.combatants.entries()) {
      if (entry.monster !== undefined) return { s, c, id: entry.id ?? entry.monster };
    }
  }
  throw new Error('no monster');
}

function withMaxHp(doc: Doc, value: unknown, where = firstMonster(doc)): Doc {
  const copy = structuredClone(doc);
  copy.sides[where.s]!.combatants[where.c]!.maxHp = value;
  return copy;
}

function viewOf(encounter: EncounterFile, id: string) {
  const { system, setup } = encounter;
  const view = system.view(system.ruleset.initialState(setup));
  return view.combatants.find((c) => c.id === id)!;
}

async function partyWins(encounter: EncounterFile, party: string): Promise<number> {
  const run = simulate({
    system: encounter.system,
    setup: encounter.setup,
    battles: 40,
    seed: 'max-hp',
    workers: 1,
    policy: DEFAULT_POLICY,
  });
  return (await run.result).wins[party] ?? 0;
}

for (const system of Object.keys(EXAMPLES) as (keyof typeof EXAMPLES)[]) {
  describe(`${system}: a monster's maxHp in the encounter file`, () => {
    const doc = docOf(system);
    const monster = firstMonster(doc);
    const sheetMax = viewOf(encounterOf('plain', doc), monster.id).maxHp;

    it('starts the monster at that HP, with that maximum, and leaves the others at their sheets', () => {
      const wanted = sheetMax === 7 ? 11 : 7;
      const encounter = encounterOf('tuned', withMaxHp(doc, wanted));
      const seen = viewOf(encounter, monster.id);
      expect(seen.maxHp).toBe(wanted);
      expect(seen.hp).toBe(wanted);
      const plain = encounterOf('plain', doc);
      for (const other of system === 'shining-force' ? ['goblin-2', 'dark-dwarf'] : []) {
        expect(viewOf(encounter, other).maxHp).toBe(viewOf(plain, other).maxHp);
      }
    });

    it('with hp: it starts at hp, below the overridden maximum', () => {
      const tuned = withMaxHp(doc, 30);
      tuned.sides[monster.s]!.combatants[monster.c]!.hp = 12;
      const seen = viewOf(encounterOf('wounded', tuned), monster.id);
      expect(seen).toMatchObject({ hp: 12, maxHp: 30 });
    });

    it('the sim plays the monster at it: the party wins more against 1 HP than against many', async () => {
      const weak = await partyWins(encounterOf('weak', withMaxHp(doc, 1)), EXAMPLES[system].party);
      const strong = await partyWins(
        encounterOf('strong', withMaxHp(doc, Math.min(sheetMax * 4, 999))),
        EXAMPLES[system].party,
      );
      expect(weak).toBeGreaterThan(strong);
    });

    it('refuses a bad maxHp, naming the file, the path and what was expected', () => {
      const path = `sides[${monster.s}].combatants[${monster.c}].maxHp`;
      for (const bad of [0, 2.5, 'lots', -4]) {
        const refused = read('bad', withMaxHp(doc, bad));
        expect(refused.ok).toBe(false);
        const message = refused.ok ? '' : formatContentError(refused.errors[0]!);
        expect(message).toMatch(
          new RegExp(`^bad\\.yaml:\\d+: ${path.replace(/[[\]]/g, '\\$&')}: `),
        );
        expect(message).toMatch(/expected|number|integer|>=|at least/i);
      }
    });

    it("refuses one on a character's entry", () => {
      const c = doc.sides.flatMap((s, si) =>
        s.combatants.flatMap((e, ci) => (e.character === undefined ? [] : [{ s: si, c: ci }])),
      )[0]!;
      const refused = read('character', withMaxHp(doc, 50, { ...c, id: '' }));
      expect(refused.ok).toBe(false);
      expect(refused.ok ? '' : refused.errors[0]!.message).toContain(
        `sides[${c.s}].combatants[${c.c}].maxHp: only a monster's entry overrides its maximum HP`,
      );
    });
  });
}

describe('the odds read the override', () => {
  it('zodiac: against a 1-HP ogre every hit knocks it out', () => {
    const doc = docOf('zodiac');
    const odds = (encounter: EncounterFile) => {
      const created = Encounter.create(encounter.system.ruleset, encounter.setup, 'odds');
      if (!created.ok) throw new Error(created.error.message);
      const e = created.value;
      for (let i = 0; i < 20; i++) {
        const attack = e
          .legalActions()
          .map((a) => encounter.system.odds(e.state, a.command))
          .find((o) => o?.target === 'ogre' && o.knockOut !== undefined && o.chance !== undefined);
        if (attack !== undefined) return attack;
        const first = e.legalActions()[0];
        if (first === undefined || !e.submit(first.command).ok) break;
      }
      throw new Error('no attack on the ogre offered');
    };
    const plain = odds(encounterOf('plain', doc));
    const weak = odds(encounterOf('weak', withMaxHp(doc, 1)));
    expect(plain.knockOut!).toBeLessThan(plain.chance!);
    expect(weak.knockOut!).toBeCloseTo(weak.chance!, 6);
    expect(weak.lines.join('\n')).toContain('has 1 of 1 HP');
  });
});

describe('the balance search varies the override, one entry alone', () => {
  it("goblin-2.maxHp changes goblin-2 only; goblin.maxHp every goblin; the library's sheet never", () => {
    const doc = docOf('shining-force');
    const encounter = encounterOf('gate', doc);
    const one = variationOf(encounter, { combatant: 'goblin-2', field: 'maxHp' });
    if (!one.ok) throw new Error(one.error.message);
    const sheetHp = viewOf(encounter, 'goblin').maxHp;
    expect(one.value.original).toBe(sheetHp);
    expect(one.value.originalIn).toBe('the shining-force/monster sheet');
    expect(one.value.whole).toBe(true);
    const built = one.value.setupAt(77);
    if (!built.ok) throw new Error(built.error.message);
    const at = { ...encounter, setup: built.value };
    expect(viewOf(at, 'goblin-2')).toMatchObject({ hp: 77, maxHp: 77 });
    expect(viewOf(at, 'goblin').maxHp).toBe(sheetHp);
    const every = variationOf(encounter, { combatant: 'goblin', field: 'maxHp' });
    if (!every.ok) throw new Error(every.error.message);
    const both = every.value.setupAt(5);
    if (!both.ok) throw new Error(both.error.message);
    const at2 = { ...encounter, setup: both.value };
    expect([viewOf(at2, 'goblin').maxHp, viewOf(at2, 'goblin-2').maxHp]).toEqual([5, 5]);
    // Shining Force keeps HP under 1000: the file's schema refuses more, naming the value.
    const over = every.value.setupAt(1000);
    expect(over.ok ? '' : over.error.message).toContain('goblin.maxHp');
    const none = variationOf(encounter, { combatant: 'max', field: 'maxHp' });
    // An entry with its own maxHp starts the search there, and says so.
    const withOwn = docOf('shining-force');
    const first = firstMonster(withOwn);
    (withOwn.sides[first.s]!.combatants[first.c] as { maxHp?: number }).maxHp = 77;
    const own = variationOf(encounterOf('own', withOwn), { combatant: first.id, field: 'maxHp' });
    if (!own.ok) throw new Error(own.error.message);
    expect(own.value).toMatchObject({ original: 77, originalIn: "the encounter's maxHp" });
    expect(none.ok ? '' : none.error.message).toContain("has no monster 'max'");
  });
});

describe("the web's bound on maxHp", () => {
  it.each(Object.keys(EXAMPLES) as (keyof typeof EXAMPLES)[])(
    '%s: the tune panel starts within what the encounter schema takes',
    (system) => {
      const most = MOST_HP[system]!;
      const at = (value: number) => {
        const doc = docOf(system);
        const { s, c } = firstMonster(doc);
        doc.sides[s]!.combatants[c]!.maxHp = value;
        return read(`${system}-bound`, doc).ok;
      };
      expect(at(most)).toBe(true);
      expect(at(most + 1)).toBe(false);
      const { low, high } = defaultHpRange(system);
      expect(low).toBeGreaterThanOrEqual(1);
      expect(high).toBeLessThanOrEqual(most);
    },
  );
});
