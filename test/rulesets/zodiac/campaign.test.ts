/** ZODIAC between fights: what a fight leaves on the roster, rest, Potions, refusals. */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadContent } from '../../../src/content/index.js';
import { Encounter } from '../../../src/engine/index.js';
import type { CampaignRoster, CampaignStep } from '../../../src/rulesets/campaign.js';
import {
  type EncounterSpec,
  STARTER_CONTENT_DIR,
  type ZodiacCharacterState,
  type ZodiacService,
  type ZodiacSetup,
  zodiac,
  zodiacCampaign,
  zodiacKinds,
} from '../../../src/rulesets/zodiac/index.js';
import type { ZodiacEncounter } from './helpers.js';

const loaded = loadContent([STARTER_CONTENT_DIR], [...zodiacKinds]);
if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
const library = loaded.library;

/** The example encounter's own part, without the file's envelope. */
const { format, ruleset, name, description, ...EXAMPLE } = parse(
  readFileSync(new URL('../../../examples/zodiac-keef-and-the-ogre.yaml', import.meta.url), 'utf8'),
) as Record<string, unknown>;
const SPEC = EXAMPLE as EncounterSpec;

const noDice = {
  roll(): never {
    throw new Error('ZODIAC rolls nothing between fights');
  },
};

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function keefState(changes: Partial<ZodiacCharacterState> = {}): ZodiacCharacterState {
  return {
    ...(value(zodiacCampaign.recruit(library, 'keef')) as ZodiacCharacterState),
    ...changes,
  };
}

const rosterOf = (keef: ZodiacCharacterState): CampaignRoster => ({
  characters: { keef: { ...keef, items: { ...keef.items }, statuses: [...keef.statuses] } },
  party: zodiacCampaign.emptyParty,
});

const use = (character: string, item: string, target: string): ZodiacService => ({
  type: 'use-item',
  character,
  item,
  target,
});

const keefOf = (roster: CampaignRoster) =>
  roster.characters.keef as unknown as ZodiacCharacterState;

/** A fight played to its end, always with the first legal action. */
function fight(setup: ZodiacSetup, seed: number, before: (e: ZodiacEncounter) => void = () => {}) {
  const encounter = value(Encounter.create(zodiac, setup, seed));
  before(encounter);
  for (let n = 0; !zodiac.outcome(encounter.state).over; n++) {
    if (n > 1000) throw new Error('the fight never ends');
    value(encounter.submit(encounter.legalActions()[0]!.command));
  }
  return encounter.state;
}

function afterFight(
  roster: CampaignRoster,
  seed: number,
  spec: EncounterSpec = SPEC,
): CampaignStep {
  const setup = value(zodiacCampaign.setupFrom(library, spec, roster));
  return value(zodiacCampaign.afterBattle(library, setup, fight(setup, seed), roster, noDice));
}

describe('a character joining the table', () => {
  it('starts as the sheet has it: Keef the Thief, 420 HP, his Potions', () => {
    expect(zodiacCampaign.recruit(library, 'keef')).toEqual({
      ok: true,
      value: {
        hp: 420,
        mp: 20,
        items: { potion: 2, 'phoenix-down': 1 },
        statuses: [],
        unconscious: false,
        dead: false,
      },
    });
    expect(zodiacCampaign.recruit(library, 'ogre').ok).toBe(false);
  });
});

describe('a roster read back', () => {
  it('a mistake names the character and the field', () => {
    const bad = { characters: { keef: { ...keefState(), hp: -3 } }, party: null };
    const parsed = zodiacCampaign.parseRoster(bad);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toMatch(/^character 'keef': hp: /);
  });

  it('keeps no Temporary effect: "All \'Temporary\' effects vanish when the battle is over"', () => {
    const poisoned = {
      characters: { keef: { ...keefState(), statuses: ['poison'] } },
      party: null,
    };
    const parsed = zodiacCampaign.parseRoster(poisoned);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toMatch(/character 'keef': statuses\[0\]/);
    expect(zodiacCampaign.parseRoster({ characters: {}, party: { gil: 5 } }).ok).toBe(false);
  });
});

describe('what the roster names in the content', () => {
  it("the items each character has left; status effects are the rules' own, not content", () => {
    const roster = rosterOf(
      keefState({ items: { potion: 1, 'eye-drops': 2 }, statuses: ['blind'] }),
    );
    const references = value(zodiacCampaign.references(roster));
    expect(references).toEqual([
      { kind: 'zodiac/item', id: 'potion', holder: 'keef', where: 'items' },
      { kind: 'zodiac/item', id: 'eye-drops', holder: 'keef', where: 'items' },
    ]);
    for (const r of references) expect(library.has(r.kind, r.id), r.id).toBe(true);
    const bad = zodiacCampaign.references({ characters: { keef: {} }, party: null });
    expect(bad.ok ? '' : bad.error.code).toBe('campaign/invalid-roster');
  });
});

describe('after a fight', () => {
  it('is refused while the fight is not over', () => {
    const roster = rosterOf(keefState());
    const setup = value(zodiacCampaign.setupFrom(library, SPEC, roster));
    const state = zodiac.initialState(setup);
    const refused = zodiacCampaign.afterBattle(library, setup, state, roster, noDice);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('campaign/not-over');
  });

  it('Keef and the ogre twice: HP and Potions carry into the second fight', () => {
    const first = afterFight(rosterOf(keefState()), 2);
    const wounded = keefOf(first.roster);
    expect(wounded).toMatchObject({ hp: 150, unconscious: false });
    expect(first.report).toEqual(['Keef the Thief leaves the fight with 150/420 HP and 20/20 MP']);
    // "Potions ... may be used on any target": one between the fights.
    const healed = value(
      zodiacCampaign.applyService(library, first.roster, use('keef', 'potion', 'keef'), noDice),
    );
    expect(keefOf(healed.roster)).toMatchObject({
      hp: 300,
      items: { potion: 1, 'phoenix-down': 1 },
    });
    const setup = value(zodiacCampaign.setupFrom(library, SPEC, healed.roster));
    const start = zodiac.initialState(setup).combatants.keef!;
    expect(start).toMatchObject({
      hp: 300,
      maxHp: 420,
      mp: 20,
      items: { potion: 1, 'phoenix-down': 1 },
    });
    const second = value(
      zodiacCampaign.afterBattle(library, setup, fight(setup, 2), healed.roster, noDice),
    );
    expect(keefOf(second.roster).hp).toBeLessThanOrEqual(300);
    // The ogre is not on the roster: nothing is kept for it.
    expect(Object.keys(second.roster.characters)).toEqual(['keef']);
  });

  it('Poison ends with the fight, Blind stays ("Permanent" effects remain)', () => {
    const roster = rosterOf(keefState({ statuses: ['blind'] }));
    const setup = value(zodiacCampaign.setupFrom(library, SPEC, roster));
    expect(zodiac.initialState(setup).combatants.keef!.statuses.map((s) => s.status)).toEqual([
      'blind',
    ]);
    const final = fight(setup, 3, (e) => {
      value(e.submit({ type: 'gm-status', target: 'keef', status: 'poison', timer: 40 }));
      value(e.submit({ type: 'gm-status', target: 'keef', status: 'haste', timer: 40 }));
    });
    const after = value(zodiacCampaign.afterBattle(library, setup, final, roster, noDice));
    expect(keefOf(after.roster).statuses).toEqual(['blind']);
  });

  it('the Unconscious stay so until a Phoenix Down: "can only be revived through the use of a Phoenix Down"', () => {
    const first = afterFight(rosterOf(keefState()), 1);
    expect(keefOf(first.roster)).toMatchObject({ hp: 0, unconscious: true });
    const setup = value(zodiacCampaign.setupFrom(library, SPEC, first.roster));
    expect(zodiac.initialState(setup).combatants.keef).toMatchObject({ hp: 0, unconscious: true });
    const rested = zodiacCampaign.applyService(library, first.roster, { type: 'rest' }, noDice);
    expect(rested.ok).toBe(false);
    const potion = zodiacCampaign.applyService(
      library,
      first.roster,
      use('keef', 'potion', 'keef'),
      noDice,
    );
    expect(potion.ok).toBe(false); // "Curative Potions ... will have no effect"
    const revived = value(
      zodiacCampaign.applyService(
        library,
        first.roster,
        use('keef', 'phoenix-down', 'keef'),
        noDice,
      ),
    );
    expect(keefOf(revived.roster)).toMatchObject({
      hp: 42,
      unconscious: false,
      items: { potion: 2 },
    });
    expect(keefOf(revived.roster).items['phoenix-down']).toBeUndefined();
  });

  it("Damage Levels: HP goes back to the sheet's count, rounded up", () => {
    const spec = { ...SPEC, options: { damageLevels: 1 } } as EncounterSpec;
    const roster = rosterOf(keefState({ hp: 150 }));
    const setup = value(zodiacCampaign.setupFrom(library, spec, roster));
    const start = zodiac.initialState(setup).combatants.keef!;
    expect(start).toMatchObject({ hp: 1500, maxHp: 4200 });
    const final = fight(setup, 2);
    const after = value(zodiacCampaign.afterBattle(library, setup, final, roster, noDice));
    expect(keefOf(after.roster).hp).toBe(Math.ceil(final.combatants.keef!.hp / 10));
  });
});

describe('setting up from the roster', () => {
  it('refuses the dead, and a roster character under another id', () => {
    const dead = zodiacCampaign.setupFrom(
      library,
      SPEC,
      rosterOf(keefState({ dead: true, hp: 0, unconscious: true })),
    );
    expect(dead.ok).toBe(false);
    if (!dead.ok) expect(dead.error.code).toBe('campaign/dead');
    const renamed = structuredClone(SPEC);
    renamed.sides[0]!.combatants[0]!.id = 'keef-2';
    const refused = zodiacCampaign.setupFrom(library, renamed, rosterOf(keefState()));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('campaign/renamed');
  });

  it('a Potion the content does not hold is refused, naming the combatant', () => {
    const refused = zodiacCampaign.setupFrom(
      library,
      SPEC,
      rosterOf(keefState({ items: { elixir: 1 } })),
    );
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/sides\[0\]\.combatants\[0\]\.items/);
  });

  it('characters not on the roster start from their sheets', () => {
    const setup = value(zodiacCampaign.setupFrom(library, SPEC, { characters: {}, party: null }));
    expect(zodiac.initialState(setup).combatants.keef).toMatchObject({ hp: 420, mp: 20 });
  });
});

describe('services between fights', () => {
  it('rest: every conscious character to full HP and MP; Permanent effects stay', () => {
    const roster = rosterOf(keefState({ hp: 12, mp: 3, statuses: ['blind'] }));
    const rested = value(zodiacCampaign.applyService(library, roster, { type: 'rest' }, noDice));
    expect(keefOf(rested.roster)).toMatchObject({ hp: 420, mp: 20, statuses: ['blind'] });
    expect(rested.report).toEqual(['Keef the Thief rests: 420 HP, 20 MP']);
    expect(zodiacCampaign.applyService(library, rested.roster, { type: 'rest' }, noDice).ok).toBe(
      false,
    );
  });

  it('a Potion cures what it names: Eye Drops for Blind', () => {
    const roster = rosterOf(keefState({ statuses: ['blind'], items: { 'eye-drops': 1 } }));
    const cured = value(
      zodiacCampaign.applyService(library, roster, use('keef', 'eye-drops', 'keef'), noDice),
    );
    expect(keefOf(cured.roster)).toMatchObject({ statuses: [], items: {} });
  });

  it('a Potion from one pack on another: "may be used on any target"', () => {
    const diff = value(zodiacCampaign.recruit(library, 'diff')) as ZodiacCharacterState;
    const roster: CampaignRoster = {
      characters: { ...rosterOf(keefState()).characters, diff: { ...diff, items: {}, hp: 100 } },
      party: null,
    };
    const healed = value(
      zodiacCampaign.applyService(library, roster, use('keef', 'potion', 'diff'), noDice),
    );
    expect(keefOf(healed.roster).items).toEqual({ potion: 1, 'phoenix-down': 1 });
    expect(healed.roster.characters.diff).toMatchObject({ hp: 250, items: {} });
    expect(healed.report).toEqual(['Diff the Biffer regains 150 HP (Potion)']);
  });

  it('refusals change nothing and say why', () => {
    const roster = rosterOf(keefState({ statuses: ['zombie'], hp: 100 }));
    const copy = structuredClone(roster);
    const cases = [
      [use('keef', 'potion', 'keef'), 'campaign/zombie'],
      [use('keef', 'ether', 'keef'), 'campaign/no-item'],
      [use('merlin', 'potion', 'keef'), 'campaign/unknown-character'],
      [use('keef', 'phoenix-down', 'keef'), 'campaign/no-effect'],
      [{ type: 'pray' }, 'campaign/invalid-service'],
    ] as const;
    for (const [service, code] of cases) {
      const refused = zodiacCampaign.applyService(library, roster, service, noDice);
      expect(refused.ok ? 'ok' : refused.error.code, service.type).toBe(code);
    }
    expect(roster).toEqual(copy);
  });
});

describe('properties', () => {
  it('whatever the fight, the roster it leaves parses again, survives JSON and keeps HP in range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 420 }),
        (seed, hp) => {
          const roster = rosterOf(keefState({ hp }));
          const after = afterFight(roster, seed);
          const reparsed = value(
            zodiacCampaign.parseRoster(JSON.parse(JSON.stringify(after.roster))),
          );
          expect(reparsed).toEqual(after.roster);
          const keef = keefOf(after.roster);
          expect(keef.hp).toBeGreaterThanOrEqual(0);
          expect(keef.hp).toBeLessThanOrEqual(hp);
          expect(keef.unconscious).toBe(keef.hp === 0);
        },
      ),
      { numRuns: 40, seed: 13 },
    );
  });
});
