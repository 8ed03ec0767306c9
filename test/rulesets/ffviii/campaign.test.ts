/** FFVIII between fights: HP, spells, items and rounds carried; healing, reloading and rest. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContentLibrary, loadContent, parseContentText } from '../../../src/content/index.js';
import { seededDice } from '../../../src/dice/index.js';
import { CommandDice, Encounter, type EnteredRolls } from '../../../src/engine/index.js';
import type { CampaignRoster, CampaignService } from '../../../src/rulesets/campaign.js';
import {
  type EncounterSpec,
  type FfviiiCharacterState,
  type FfviiiServiceInput,
  type FfviiiSetup,
  type FfviiiState,
  ffviii,
  ffviiiCampaign,
  ffviiiKinds,
  STARTER_CONTENT_DIR,
} from '../../../src/rulesets/ffviii/index.js';
import { SYSTEMS } from '../../../src/rulesets/index.js';

const campaign = ffviiiCampaign;

/** The starter content and one more character, Irvine, who carries a Pistol. */
let loaded: ContentLibrary | undefined;
function library(): ContentLibrary {
  if (loaded === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-ffviii-campaign-'));
    writeFileSync(
      join(dir, 'irvine.yaml'),
      [
        'format: 1',
        'kind: ffviii/character',
        'id: irvine',
        'name: Irvine',
        'hp: 30',
        'attributes: { speed: 7, strength: 6, toughness: 5, spirit: 4, evade: 4, magicEvade: 2, reflexes: 7 }',
        'skills:',
        '  guns: { attribute: reflexes, bonus: 4, combat: true }',
        'weapons: [pistol]',
      ].join('\n'),
    );
    const read = loadContent([STARTER_CONTENT_DIR, dir], [...ffviiiKinds]);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    loaded = read.library;
  }
  return loaded;
}

/** The Iron Giant example's spec: the encounter file without its envelope. */
function ironGiantSpec(): EncounterSpec {
  const file = 'examples/ffviii-iron-giant.yaml';
  const parsed = parseContentText(file, readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const { format, ruleset, name, description, ...spec } = parsed.content.value as Record<
    string,
    unknown
  >;
  return spec as EncounterSpec;
}

/** The example with Irvine fighting beside Ehlric. */
function withIrvine(): EncounterSpec {
  const spec = ironGiantSpec();
  return {
    ...spec,
    sides: spec.sides.map((side, i) =>
      i === 0 ? { ...side, combatants: [...side.combatants, { character: 'irvine' }] } : side,
    ),
  };
}

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function recruited(ids: readonly string[] = ['ehlric']): CampaignRoster {
  const characters = Object.fromEntries(
    ids.map((id) => [id, value(campaign.recruit(library(), id))]),
  );
  return value(campaign.parseRoster({ characters, party: campaign.emptyParty }));
}

function stateOf(roster: CampaignRoster, id: string): FfviiiCharacterState {
  return roster.characters[id] as unknown as FfviiiCharacterState;
}

function changed(roster: CampaignRoster, id: string, change: Partial<FfviiiCharacterState>) {
  return value(
    campaign.parseRoster({
      ...roster,
      characters: { ...roster.characters, [id]: { ...stateOf(roster, id), ...change } },
    }),
  );
}

function dice(entered: EnteredRolls = {}) {
  return new CommandDice(seededDice(1), { entered });
}

function serve(roster: CampaignRoster, service: FfviiiServiceInput, rolls = dice()) {
  return campaign.applyService(library(), roster, service as CampaignService, rolls);
}

/**
 * Plays an encounter to its end: a Draw, a Potion and a Thunder each the first time they are
 * offered, otherwise the first legal action.
 */
function playOut(setup: FfviiiSetup, seed: number): FfviiiState {
  const encounter = value(Encounter.create(ffviii, setup, seed));
  const wanted = [/Draw Thunder/, /Use Potion/, /Cast Thunder/];
  for (let n = 0; !ffviii.outcome(encounter.state).over; n++) {
    if (n > 5000) throw new Error('the fight did not end');
    const legal = ffviii.legalActions(encounter.state);
    const at = wanted.findIndex((w) => legal.some((l) => w.test(l.label)));
    const pick = at < 0 ? legal[0]! : legal.find((l) => wanted[at]!.test(l.label))!;
    if (at >= 0) wanted.splice(at, 1);
    value(encounter.submit(pick.command));
  }
  return encounter.state;
}

/** Ends the fight at once: the GM drops the giant, or the character, to 0 HP. */
function endedBy(
  setup: FfviiiSetup,
  loser: string,
  before: (e: Encounter<FfviiiSetup, FfviiiState, never, never>) => void = () => {},
): FfviiiState {
  const encounter = value(Encounter.create(ffviii, setup, 1)) as unknown as Encounter<
    FfviiiSetup,
    FfviiiState,
    never,
    never
  >;
  before(encounter);
  value(encounter.submit({ type: 'gm-set', target: loser, resource: 'hp', value: 0 } as never));
  if (!ffviii.outcome(encounter.state).over)
    value(encounter.submit({ type: 'begin-round' } as never));
  expect(ffviii.outcome(encounter.state).over).toBe(true);
  return encounter.state;
}

describe('the system', () => {
  it('is wired as the campaign of the ffviii system', () => {
    expect(SYSTEMS.find((s) => s.ruleset.id === 'ffviii')?.campaign).toBe(ffviiiCampaign);
  });
});

describe('recruit and the roster', () => {
  it("a recruit has the sheet's HP, Spell Matrix, items and full guns", () => {
    expect(value(campaign.recruit(library(), 'ehlric'))).toEqual({
      hp: 35,
      spellMatrix: { thunder: 3, cure: 2 },
      items: { potion: 2 },
      ammo: {},
      statuses: [],
    });
    expect(value(campaign.recruit(library(), 'irvine'))).toMatchObject({ ammo: { pistol: 8 } });
    const monster = campaign.recruit(library(), 'iron-giant');
    expect(!monster.ok && monster.error.code).toBe('campaign/unknown-character');
  });

  it('a bad roster is refused naming the character and the field', () => {
    const roster = recruited();
    const bad = campaign.parseRoster({
      ...roster,
      characters: { ehlric: { ...stateOf(roster, 'ehlric'), items: { potion: -1 } } },
    });
    expect(!bad.ok && bad.error.message).toMatch(/^ehlric\.items\.potion: /);
    const party = campaign.parseRoster({ ...roster, party: { hpAfterBattle: 'never' } });
    expect(!party.ok && party.error.message).toMatch(/^party\.hpAfterBattle: /);
    const id = campaign.parseRoster({ characters: { 'Ehlric Lineas': {} }, party: {} });
    expect(!id.ok && id.error.message).toMatch(/not a character's content id/);
  });
});

describe('what the roster names in the content', () => {
  it("spells in stock, items left and every gun's rounds; a spell or item at 0 is spent and names nothing", () => {
    const roster = changed(recruited(['ehlric', 'irvine']), 'ehlric', {
      spellMatrix: { thunder: 3, cure: 0 },
      items: { potion: 0, 'bomb-fragment': 1 },
      statuses: ['poison'],
    });
    const irvine = changed(roster, 'irvine', { ammo: { pistol: 0 } });
    const references = value(campaign.references(irvine));
    expect(references).toEqual([
      { kind: 'ffviii/spell', id: 'thunder', holder: 'ehlric', where: 'Spell Matrix' },
      { kind: 'ffviii/item', id: 'bomb-fragment', holder: 'ehlric', where: 'items' },
      { kind: 'ffviii/weapon', id: 'pistol', holder: 'irvine', where: 'rounds in its gun' },
    ]);
    for (const r of references) expect(library().has(r.kind, r.id), r.id).toBe(true);
    const bad = campaign.references({ characters: { ehlric: { hp: -1 } }, party: {} });
    expect(bad.ok ? '' : bad.error.code).toBe('campaign/invalid-roster');
  });

  it('a spell or item at 0 whose entry the library let go does not keep the next fight from starting', () => {
    const spent = changed(recruited(), 'ehlric', {
      spellMatrix: { thunder: 3, quake: 0 },
      items: { potion: 0, ghost: 0 },
    });
    const setup = value(campaign.setupFrom(library(), ironGiantSpec(), spent));
    const ehlric = setup.sides.flatMap((s) => s.combatants).find((c) => c.id === 'ehlric')!;
    expect({ matrix: ehlric.spellMatrix, items: ehlric.items }).toEqual({
      matrix: { thunder: 3 },
      items: { potion: 0 },
    });
    // One held is still refused: the library keeps what the roster holds.
    const held = changed(recruited(), 'ehlric', { items: { ghost: 1 } });
    const refused = campaign.setupFrom(library(), ironGiantSpec(), held);
    expect(refused.ok ? '' : refused.error.message).toContain("no item 'ghost'");
  });
});

describe('after the fight', () => {
  it('is refused while the fight goes on', () => {
    const roster = recruited();
    const setup = value(campaign.setupFrom(library(), ironGiantSpec(), roster));
    const encounter = value(Encounter.create(ffviii, setup, 1));
    const r = campaign.afterBattle(library(), setup, encounter.state, roster, dice());
    expect(!r.ok && r.error.code).toBe('campaign/battle-not-over');
  });

  it('spells drawn and cast, items used, rounds fired and held statuses stay; timed ones end', () => {
    const roster = recruited(['ehlric', 'irvine']);
    const setup = value(campaign.setupFrom(library(), withIrvine(), roster));
    const final = endedBy(setup, 'iron-giant', (e) => {
      for (const command of [
        {
          type: 'gm-set',
          target: 'ehlric',
          resource: 'shards',
          key: 'thunder',
          value: 2,
          relative: true,
        },
        { type: 'gm-set', target: 'ehlric', resource: 'item', key: 'potion', value: 0 },
        { type: 'gm-set', target: 'irvine', resource: 'ammo', key: 'pistol', value: 3 },
        { type: 'gm-set', target: 'irvine', resource: 'hp', value: 12 },
        { type: 'gm-status', target: 'ehlric', status: 'haste', timer: 3 },
        { type: 'gm-status', target: 'irvine', status: 'curse' },
      ])
        value(e.submit(command as never));
    });
    const step = value(campaign.afterBattle(library(), setup, final, roster, dice()));
    expect(stateOf(step.roster, 'ehlric')).toEqual({
      hp: 35,
      spellMatrix: { thunder: 5, cure: 2 },
      items: { potion: 0 },
      ammo: {},
      statuses: [],
    });
    expect(stateOf(step.roster, 'irvine')).toMatchObject({
      hp: 12,
      ammo: { pistol: 3 },
      statuses: ['curse'],
    });
    expect(step.report).toEqual([
      'The fight is over: Ehlric and his pet stand alone.',
      'Ehlric Lineas ends with 35/35 HP.',
      'Ehlric Lineas drew 2 x Thunder (5 in stock).',
      'Ehlric Lineas used 2 x Potion (0 left).',
      "Ehlric Lineas's haste ends with the fight.",
      'Irvine ends with 12/30 HP.',
      "Irvine's Pistol has 3 of 8 rounds left.",
    ]);

    // The next fight starts from it.
    const next = ffviii.initialState(
      value(campaign.setupFrom(library(), withIrvine(), step.roster)),
    );
    expect(next.combatants.irvine).toMatchObject({
      hp: 12,
      ammo: { pistol: 3 },
      statuses: { curse: null },
    });
    expect(next.combatants.ehlric).toMatchObject({
      matrix: { thunder: 5, cure: 2 },
      items: { potion: 0 },
    });
  });

  it('the fallen stay at 0 HP, start the next fight down, and need rest', () => {
    const roster = recruited();
    const setup = value(campaign.setupFrom(library(), ironGiantSpec(), roster));
    const step = value(
      campaign.afterBattle(library(), setup, endedBy(setup, 'ehlric'), roster, dice()),
    );
    expect(stateOf(step.roster, 'ehlric').hp).toBe(0);
    expect(step.report[1]).toBe(
      'Ehlric Lineas has fallen (0 of 35 HP) and fights no more until healed or rested.',
    );
    const next = ffviii.initialState(
      value(campaign.setupFrom(library(), ironGiantSpec(), step.roster)),
    );
    expect(next.combatants.ehlric).toMatchObject({ hp: 0, down: true });
    const potion = serve(step.roster, { type: 'use-item', character: 'ehlric', item: 'potion' });
    expect(!potion.ok && potion.error.code).toBe('campaign/cannot-heal');
    const rested = value(serve(step.roster, { type: 'rest' }));
    expect(stateOf(rested.roster, 'ehlric').hp).toBe(35);
    expect(rested.report).toEqual(['Ehlric Lineas rests and is back on their feet: 35/35 HP.']);
  });

  it('with hpAfterBattle: restored, those standing are back to full', () => {
    const base = recruited(['ehlric', 'irvine']);
    const roster = { ...base, party: { hpAfterBattle: 'restored' } };
    const setup = value(campaign.setupFrom(library(), withIrvine(), roster));
    const final = endedBy(setup, 'iron-giant', (e) =>
      value(e.submit({ type: 'gm-set', target: 'irvine', resource: 'hp', value: 4 } as never)),
    );
    const step = value(campaign.afterBattle(library(), setup, final, roster, dice()));
    expect(stateOf(step.roster, 'irvine').hp).toBe(30);
  });
});

describe('a roster across two fights with the Iron Giant', () => {
  it('the second fight starts from what the first left', () => {
    const roster = recruited();
    const first = value(campaign.setupFrom(library(), ironGiantSpec(), roster));
    // At this seed Ehlric wins, wounded, having used a Potion.
    const final = playOut(first, 7);
    expect(ffviii.outcome(final)).toMatchObject({ over: true, winner: 'ehlric' });
    const step = value(campaign.afterBattle(library(), first, final, roster, dice()));
    const lasting = stateOf(step.roster, 'ehlric');
    expect(lasting.hp).toBe(final.combatants.ehlric!.hp);
    expect(lasting.hp).toBeLessThan(35);
    expect(lasting.items).toEqual({ potion: 1 });

    const second = value(campaign.setupFrom(library(), ironGiantSpec(), step.roster));
    const start = ffviii.initialState(second).combatants.ehlric!;
    expect({ hp: start.hp, matrix: start.matrix, items: start.items, ammo: start.ammo }).toEqual({
      hp: lasting.hp,
      matrix: lasting.spellMatrix,
      items: lasting.items,
      ammo: lasting.ammo,
    });
    // The giant is not on the roster: it starts from its sheet.
    expect(ffviii.initialState(second).combatants['iron-giant']!.hp).toBe(60);
    value(campaign.afterBattle(library(), second, playOut(second, 8), step.roster, dice()));
  });

  it('a roster character fights under its own id', () => {
    const spec = ironGiantSpec();
    const renamed = {
      ...spec,
      sides: spec.sides.map((side, i) =>
        i === 0 ? { ...side, combatants: [{ character: 'ehlric', id: 'ehlric-2' }] } : side,
      ),
    };
    const r = campaign.setupFrom(library(), renamed, recruited());
    expect(!r.ok && r.error.code).toBe('campaign/renamed');
  });

  it('a spell the content does not define is refused', () => {
    const bad = changed(recruited(), 'ehlric', { spellMatrix: { meteor: 1 } });
    const r = campaign.setupFrom(library(), ironGiantSpec(), bad);
    expect(!r.ok && r.error.message).toMatch(/no spell 'meteor'/);
  });
});

describe('services', () => {
  const hurt = () =>
    changed(recruited(['ehlric', 'irvine']), 'irvine', { hp: 10, ammo: { pistol: 2 } });

  it('"Potions and other normal items can be used automaticaly": a Potion heals 15', () => {
    const step = value(
      serve(hurt(), { type: 'use-item', character: 'ehlric', item: 'potion', target: 'irvine' }),
    );
    expect(stateOf(step.roster, 'irvine').hp).toBe(25);
    expect(stateOf(step.roster, 'ehlric').items).toEqual({ potion: 1 });
    expect(step.report).toEqual([
      'Ehlric Lineas uses a Potion on Irvine: Irvine heals 15 HP (25/30); 1 left.',
    ]);
  });

  it('"Even a 1 succeeds": Cure on a willing target, healing Sorcery AV + its power', () => {
    // Action dice 3 - 5 = -2: 10 - 2 = 8, a success against 1; Cure heals 10 + 2 = 12.
    const step = value(
      serve(
        hurt(),
        { type: 'cast', character: 'ehlric', spell: 'cure', target: 'irvine' },
        dice({ 'cast:irvine': [3, 5] }),
      ),
    );
    expect(stateOf(step.roster, 'irvine').hp).toBe(22);
    expect(stateOf(step.roster, 'ehlric').spellMatrix).toEqual({ thunder: 3, cure: 1 });
    // 1 - (6 + 5) = -10: 10 - 10 = 0, short of 1; the spell is spent anyway.
    const failed = value(
      serve(
        hurt(),
        { type: 'cast', character: 'ehlric', spell: 'cure', target: 'irvine' },
        dice({ 'cast:irvine': [1, 6, 5] }),
      ),
    );
    expect(stateOf(failed.roster, 'irvine').hp).toBe(10);
    expect(stateOf(failed.roster, 'ehlric').spellMatrix.cure).toBe(1);
    expect(failed.report[0]).toMatch(/Sorcery 10 - 10 = 0 against 1\): it fails/);
  });

  it('reload fills every gun', () => {
    const step = value(serve(hurt(), { type: 'reload', character: 'irvine' }));
    expect(stateOf(step.roster, 'irvine').ammo).toEqual({ pistol: 8 });
  });

  it("reload puts away rounds kept for a gun the sheet no longer names (Ehlric's sheet has none)", () => {
    const kept = changed(recruited(['ehlric']), 'ehlric', { ammo: { shotgun: 3 } });
    const step = value(serve(kept, { type: 'reload', character: 'ehlric' }));
    expect(stateOf(step.roster, 'ehlric').ammo).toEqual({});
    expect(step.report).toEqual([
      'Ehlric Lineas no longer carries the Shotgun: its rounds are put away.',
    ]);
  });

  it('refusals change nothing and say why', () => {
    const roster = hurt();
    const before = JSON.stringify(roster);
    const refusals: [FfviiiServiceInput, string][] = [
      [
        { type: 'use-item', character: 'ehlric', item: 'bomb-fragment' },
        'Ehlric Lineas has no Bomb Fragment',
      ],
      [
        { type: 'use-item', character: 'ehlric', item: 'potion' },
        'Ehlric Lineas is at full HP already',
      ],
      [
        { type: 'cast', character: 'ehlric', spell: 'thunder', target: 'irvine' },
        'Thunder is cast on an unwilling target, and there is none between fights',
      ],
      [{ type: 'cast', character: 'irvine', spell: 'cure' }, 'Irvine has no Cure in stock'],
      [{ type: 'reload', character: 'ehlric' }, 'Ehlric Lineas carries no gun'],
      [{ type: 'rest', characters: ['ehlric'] }, 'everyone named is at full HP already'],
      [{ type: 'rest', characters: ['squall'] }, "'squall' is not on the roster"],
    ];
    for (const [service, message] of refusals) {
      const r = serve(roster, service);
      expect(!r.ok && r.error.message, JSON.stringify(service)).toBe(message);
    }
    const notOne = serve(roster, { type: 'raise', character: 'ehlric' } as never);
    expect(!notOne.ok && notOne.error.code).toBe('campaign/invalid-service');
    expect(JSON.stringify(roster)).toBe(before);
  });
});

describe('properties', () => {
  it('after any fight the roster parses, survives JSON, and is what the next fight starts from', () => {
    const setupSpec = withIrvine();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 35 }),
        fc.nat(3),
        fc.nat(8),
        fc.integer({ min: 1, max: 50 }),
        (hp, potions, rounds, seed) => {
          const roster = changed(
            changed(recruited(['ehlric', 'irvine']), 'ehlric', { hp, items: { potion: potions } }),
            'irvine',
            { ammo: { pistol: rounds } },
          );
          const setup = value(campaign.setupFrom(library(), setupSpec, roster));
          const final = playOut(setup, seed);
          const step = value(campaign.afterBattle(library(), setup, final, roster, dice()));
          expect(value(campaign.parseRoster(step.roster))).toEqual(step.roster);
          expect(JSON.parse(JSON.stringify(step.roster))).toEqual(step.roster);
          const next = ffviii.initialState(
            value(campaign.setupFrom(library(), setupSpec, step.roster)),
          );
          for (const id of ['ehlric', 'irvine']) {
            const lasting = stateOf(step.roster, id);
            const c = next.combatants[id]!;
            expect({ hp: c.hp, items: c.items, ammo: c.ammo, down: c.down }).toEqual({
              hp: lasting.hp,
              items: lasting.items,
              ammo: { ...c.ammo, ...lasting.ammo },
              down: lasting.hp === 0,
            });
            // Items are only used up in a fight, never gained.
            for (const [item, n] of Object.entries(lasting.items))
              expect(n).toBeLessThanOrEqual(stateOf(roster, id).items[item] ?? 0);
          }
        },
      ),
      { numRuns: 25, seed: 8 },
    );
  });
});
