/**
 * Between battles: EXP and levels, promotion, the priest's services and the store; the roster a
 * table keeps, carried from one battle to the next.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entityFields } from '../../../src/content/index.js';
import { seededDice } from '../../../src/dice/index.js';
import { CommandDice } from '../../../src/engine/index.js';
import type { CampaignRoster, JsonValue } from '../../../src/rulesets/campaign.js';
import {
  type Catalogue,
  canPromote,
  classKind,
  curePoison,
  type EncounterSpec,
  type ForceMember,
  type ForceMemberState,
  gainExp,
  itemKind,
  liftCurse,
  promote,
  type Roster,
  raise,
  repair,
  type ShiningForceService,
  type ShiningForceSetup,
  type ShiningForceState,
  sell,
  shiningForce,
  shiningForceCampaign,
  shiningForceNewcomer,
} from '../../../src/rulesets/shining-force/index.js';
import { combatantOf } from '../../../src/rulesets/shining-force/state.js';
import { attackDice, battle, begin, GATE_SPEC, library, run, sheet, start } from './helpers.js';

function catalogue(): Catalogue {
  const lib = library();
  return {
    classes: Object.fromEntries(lib.all(classKind).map((c) => [c.id, entityFields(c)])),
    items: Object.fromEntries(lib.all(itemKind).map((i) => [i.id, entityFields(i)])),
  };
}

const dice = () => new CommandDice(seededDice(1));

const MAX: ForceMember = {
  id: 'max',
  name: 'Max',
  class: 'swordsman',
  level: 1,
  exp: 0,
  stats: { hp: 12, mp: 0, attack: 6, defence: 4, agility: 5, luck: 3, movement: 6 },
  items: [{ item: 'short-sword', equipped: true, cracked: false }],
  poisoned: false,
  defeated: false,
};

const roster = (member: Partial<ForceMember> = {}, gold = 100): Roster => ({
  gold,
  members: [{ ...MAX, ...member }],
});

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('levels', () => {
  it('"Upon reaching 100 experience points ... reset to 0 (though any excess do carry over)"', () => {
    const gained = value(gainExp({ ...MAX, exp: 90 }, 25, catalogue(), dice()));
    expect(gained.member).toMatchObject({ level: 2, exp: 15 });
    expect(gained.levels).toHaveLength(1);
    expect(gained.member.stats.hp).toBe(12 + gained.levels[0]!.gains.hp);
    expect(gained.levels[0]!.gains.hp).toBeGreaterThanOrEqual(3); // d2+2
  });

  it('several levels at once; none past the maximum (level 20 in the first tier)', () => {
    expect(value(gainExp(MAX, 250, catalogue(), dice())).member).toMatchObject({
      level: 3,
      exp: 50,
    });
    expect(
      value(gainExp({ ...MAX, level: 19, exp: 50 }, 500, catalogue(), dice())).member,
    ).toMatchObject({ level: 20, exp: 99 });
  });

  it('stat gains are dice rolled through the roller, by purpose', () => {
    const rolled: string[] = [];
    const spy = {
      roll: (purpose: string, notation: string) => {
        rolled.push(purpose);
        return { purpose, notation, total: 1, dice: [1], text: '', entered: true };
      },
    };
    gainExp(MAX, 100, catalogue(), spy);
    expect(rolled).toEqual([
      'gain-hp:max',
      'gain-attack:max',
      'gain-defence:max',
      'gain-agility:max',
    ]);
  });
});

describe('promotion', () => {
  it('"In the first class tier, promotion becomes available at level 10"', () => {
    expect(canPromote({ ...MAX, level: 9 }, catalogue()).ok).toBe(false);
    const promoted = value(promote(roster({ level: 10, exp: 40 }), 'max', catalogue()));
    expect(promoted.members[0]).toMatchObject({ class: 'hero', level: 1, exp: 0 });
    expect(promoted.gold).toBe(100); // "promotion (free)"
  });

  it('"In the second class tier, promotion becomes available at level 20" (where a class has one)', () => {
    const cat = catalogue();
    const tiered: Catalogue = {
      ...cat,
      classes: { ...cat.classes, hero: { ...cat.classes.hero!, promotesTo: 'paladin' } },
    };
    expect(canPromote({ ...MAX, class: 'hero', level: 19 }, tiered).ok).toBe(false);
    expect(canPromote({ ...MAX, class: 'hero', level: 20 }, tiered).ok).toBe(true);
    expect(canPromote({ ...MAX, class: 'hero', level: 30 }, cat).ok).toBe(false);
  });
});

describe('the priest', () => {
  it('"Curing poison (20 gold)"', () => {
    expect(value(curePoison(roster({ poisoned: true }), 'max')).gold).toBe(80);
    expect(curePoison(roster({ poisoned: true }, 19), 'max').ok).toBe(false);
    expect(curePoison(roster(), 'max').ok).toBe(false);
  });

  it('"releasing a curse (1/4 relevant item price)": the Evil Ring (4000) costs 1000', () => {
    const cursed = roster(
      { items: [...MAX.items, { item: 'evil-ring', equipped: true, cracked: false }] },
      1500,
    );
    const freed = value(liftCurse(cursed, 'max', catalogue()));
    expect(freed.gold).toBe(500);
    expect(freed.members[0]!.items[1]).toMatchObject({ item: 'evil-ring', equipped: false });
  });

  it('"raising (50 gold per character level)"', () => {
    expect(value(raise(roster({ defeated: true, level: 4 }, 250), 'max')).gold).toBe(50);
    expect(raise(roster({ defeated: true, level: 4 }, 199), 'max').ok).toBe(false);
  });
});

describe('the store', () => {
  it('"selling an item to the store (1/2 list price)"', () => {
    const sold = value(sell(roster(), 'max', 'short-sword', catalogue()));
    expect(sold.gold).toBe(165);
    expect(sold.members[0]!.items).toEqual([]);
  });

  it('"repairing an item (1/4 list price)"', () => {
    const cracked = roster({ items: [{ item: 'short-sword', equipped: true, cracked: true }] });
    const fixed = value(repair(cracked, 'max', 'short-sword', catalogue()));
    expect(fixed.gold).toBe(68);
    expect(fixed.members[0]!.items[0]!.cracked).toBe(false);
    expect(repair(roster(), 'max', 'short-sword', catalogue()).ok).toBe(false);
  });
});

const lib = library();
const noDice = {
  roll(): never {
    throw new Error('no dice expected');
  },
};

function recruited(id: string, changes: Partial<ForceMemberState> = {}): ForceMemberState {
  return { ...(value(shiningForceCampaign.recruit(lib, id)) as ForceMemberState), ...changes };
}

function force(members: Record<string, Partial<ForceMemberState>>, gold = 0): CampaignRoster {
  const characters: Record<string, JsonValue> = {};
  for (const [id, changes] of Object.entries(members))
    characters[id] = JSON.parse(JSON.stringify(recruited(id, changes)));
  return { characters, party: { gold } };
}

const member = (roster: CampaignRoster, id: string) =>
  roster.characters[id] as unknown as ForceMemberState;
const goldOf = (roster: CampaignRoster) => (roster.party as { gold: number }).gold;
const GATE_FORCE = ['max', 'ken', 'hans', 'tao', 'lowe'];

/** A battle played to its end: attack when one can, else close on an enemy, else the first action. */
function playOut(setup: ShiningForceSetup, seed: number): ShiningForceState {
  const encounter = start(setup, seed);
  for (let n = 0; !shiningForce.outcome(encounter.state).over; n++) {
    if (n > 5000) throw new Error('the battle never ends');
    const actions = encounter.legalActions();
    const pick =
      actions.find((a) => a.command.type === 'attack') ??
      actions.find((a) => a.command.type === 'move' && a.command.target !== undefined) ??
      actions[0]!;
    value(encounter.submit(pick.command));
  }
  return encounter.state;
}

const use = (service: ShiningForceService, roster: CampaignRoster) =>
  shiningForceCampaign.applyService(lib, roster, service, noDice);

describe('a Force member joining the table', () => {
  it('starts as the sheet has it: Max, a level 1 Swordsman with a Short Sword', () => {
    expect(recruited('max')).toEqual({
      class: 'swordsman',
      level: 1,
      exp: 0,
      gains: { hp: 0, mp: 0, attack: 0, defence: 0, agility: 0 },
      items: [
        { item: 'short-sword', cracked: false, equipped: true },
        { item: 'medical-herb', cracked: false, equipped: false },
      ],
      poison: null,
      defeated: false,
    });
    expect(shiningForceCampaign.recruit(lib, 'goblin').ok).toBe(false);
  });
});

describe('a roster read back', () => {
  it('a mistake names the character and the field', () => {
    const bad = force({ max: {} });
    const wrong = {
      ...bad,
      characters: { ...bad.characters, max: { ...recruited('max'), exp: 100 } },
    };
    const parsed = shiningForceCampaign.parseRoster(wrong);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toMatch(/^character 'max': exp: /);
    const seven = recruited('max', {
      items: Array.from({ length: 7 }, () => ({
        item: 'medical-herb',
        cracked: false,
        equipped: false,
      })),
    });
    const tooMany = shiningForceCampaign.parseRoster({
      characters: { max: seven },
      party: { gold: 0 },
    });
    expect(tooMany.ok ? '' : tooMany.error.message).toMatch(/^character 'max': items/);
    const broke = shiningForceCampaign.parseRoster({ characters: {}, party: { gold: -1 } });
    expect(broke.ok ? '' : broke.error.message).toMatch(/^party: gold/);
  });
});

describe('what the roster names in the content', () => {
  it("each member's class and every item carried or equipped; the Force's gold names nothing", () => {
    const roster = force({ max: { class: 'hero' }, lowe: {} }, 500);
    const references = value(shiningForceCampaign.references(roster));
    expect(references).toEqual([
      { kind: 'shining-force/class', id: 'hero', holder: 'max', where: 'class' },
      { kind: 'shining-force/item', id: 'short-sword', holder: 'max', where: 'equipped' },
      { kind: 'shining-force/item', id: 'medical-herb', holder: 'max', where: 'carried' },
      { kind: 'shining-force/class', id: 'healer', holder: 'lowe', where: 'class' },
      { kind: 'shining-force/item', id: 'wooden-staff', holder: 'lowe', where: 'equipped' },
      { kind: 'shining-force/item', id: 'medical-herb', holder: 'lowe', where: 'carried' },
      { kind: 'shining-force/item', id: 'antidote', holder: 'lowe', where: 'carried' },
    ]);
    for (const r of references) expect(lib.has(r.kind, r.id), `${r.kind} ${r.id}`).toBe(true);
    const bad = shiningForceCampaign.references({ characters: { max: {} }, party: { gold: 0 } });
    expect(bad.ok ? '' : bad.error.code).toBe('campaign/invalid-roster');
  });
});

describe('after a battle', () => {
  it('adds the EXP earned and the gold won: 120 EXP is a level and 20 over', () => {
    const e = begin(
      battle([sheet('max', 'A1')], [sheet('goblin', 'B1', { hp: 5, expReward: 120, gold: 10 })]),
    );
    run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 99, 50]),
    );
    const after = value(
      shiningForceCampaign.afterBattle(
        lib,
        e.state.setup,
        e.state,
        force({ max: {} }, 100),
        dice(),
      ),
    );
    expect(goldOf(after.roster)).toBe(110);
    expect(member(after.roster, 'max')).toMatchObject({ level: 2, exp: 20, defeated: false });
    const gains = member(after.roster, 'max').gains;
    expect(gains.hp).toBeGreaterThanOrEqual(3); // the Swordsman's d2+2
    expect(after.report[0]).toBe('Max gains 120 EXP');
    expect(after.report[1]).toMatch(/^Max reaches level 2: HP \+\d/);
    expect(after.report.at(-1)).toBe('The Force receives 10 gold (110 in all)');
  });

  it('is refused while the battle is not over', () => {
    const roster = force({ max: {} });
    const setup = value(shiningForceCampaign.setupFrom(lib, GATE_SPEC, roster));
    const refused = shiningForceCampaign.afterBattle(
      lib,
      setup,
      shiningForce.initialState(setup),
      roster,
      noDice,
    );
    expect(refused.ok ? '' : refused.error.code).toBe('campaign/not-over');
  });

  it('the Gate of Guardiana twice: levels, items, gold and the defeated carry into the second', () => {
    const first = force(
      Object.fromEntries(GATE_FORCE.map((id) => [id, id === 'max' ? { exp: 90 } : {}])),
    );
    const setup1 = value(shiningForceCampaign.setupFrom(lib, GATE_SPEC, first));
    const after1 = value(
      shiningForceCampaign.afterBattle(lib, setup1, playOut(setup1, 1), first, dice()),
    );
    const max = member(after1.roster, 'max');
    expect(max).toMatchObject({ level: 2, exp: 65, defeated: false });
    expect(goldOf(after1.roster)).toBe(67);
    const defeated = GATE_FORCE.filter((id) => member(after1.roster, id).defeated);
    expect(defeated).toEqual(['ken', 'tao', 'lowe']);
    // "raising (50 gold per character level)": Ken, level 1.
    const raised = value(use({ type: 'raise', character: 'ken' }, after1.roster));
    expect(goldOf(raised.roster)).toBe(17);
    expect(raised.report).toEqual(['The priest raises Ken for 50 gold (17 gold left)']);
    const setup2 = value(shiningForceCampaign.setupFrom(lib, GATE_SPEC, raised.roster));
    const state2 = shiningForce.initialState(setup2);
    const sheetMax = value(shiningForceNewcomer(lib, 'max'));
    const maxIn2 = combatantOf(state2, 'max')!;
    expect(maxIn2.sheet).toMatchObject({ level: 2, exp: 65, class: 'swordsman' });
    expect(maxIn2.sheet.stats.hp).toBe(sheetMax.stats.hp + max.gains.hp);
    expect(maxIn2.sheet.stats.attack).toBe(sheetMax.stats.attack + max.gains.attack);
    // "Once a battle has ended, if a character is still alive, all their hit points are restored."
    expect(maxIn2.hp).toBe(maxIn2.sheet.stats.hp);
    expect(maxIn2.items).toEqual(max.items);
    expect(combatantOf(state2, 'ken')).toMatchObject({
      defeated: false,
      hp: combatantOf(state2, 'ken')!.sheet.stats.hp,
    });
    expect(combatantOf(state2, 'tao')).toMatchObject({ defeated: true, hp: 0 });
    expect(combatantOf(state2, 'lowe')).toMatchObject({ defeated: true, hp: 0 });
    const after2 = value(
      shiningForceCampaign.afterBattle(lib, setup2, playOut(setup2, 2), raised.roster, dice()),
    );
    expect(goldOf(after2.roster)).toBeGreaterThanOrEqual(17);
    // Tao was never raised: still defeated, and earned nothing.
    expect(member(after2.roster, 'tao')).toEqual(member(raised.roster, 'tao'));
  });

  it('Poison lasts until the priest cures it ("Curing poison (20 gold)")', () => {
    const roster = force({ max: { poison: 3 } }, 30);
    const setup = value(shiningForceCampaign.setupFrom(lib, GATE_SPEC, roster));
    expect(combatantOf(shiningForce.initialState(setup), 'max')!.statuses).toEqual([
      { status: 'poison', turns: null, amount: 3 },
    ]);
    const cured = value(use({ type: 'cure-poison', character: 'max' }, roster));
    expect(member(cured.roster, 'max').poison).toBeNull();
    expect(goldOf(cured.roster)).toBe(10);
    const again = use({ type: 'cure-poison', character: 'max' }, cured.roster);
    expect(again.ok ? '' : again.error.code).toBe('campaign/not-poisoned');
  });
});

describe('setting up from the roster', () => {
  it('refuses a roster member under another id, and items the content lacks', () => {
    const renamed = structuredClone(GATE_SPEC) as EncounterSpec;
    (renamed.sides[0]!.combatants[0] as { id?: string }).id = 'max-2';
    const refused = shiningForceCampaign.setupFrom(lib, renamed, force({ max: {} }));
    expect(refused.ok ? '' : refused.error.code).toBe('campaign/renamed');
    const odd = shiningForceCampaign.setupFrom(
      lib,
      GATE_SPEC,
      force({ max: { items: [{ item: 'excalibur', cracked: false, equipped: true }] } }),
    );
    expect(odd.ok ? '' : odd.error.message).toMatch(/Max carries 'excalibur'/);
  });

  it('a cracked item stays cracked in the next battle', () => {
    const roster = force({
      max: { items: [{ item: 'short-sword', cracked: true, equipped: true }] },
    });
    const setup = value(shiningForceCampaign.setupFrom(lib, GATE_SPEC, roster));
    expect(combatantOf(shiningForce.initialState(setup), 'max')!.items).toEqual([
      { item: 'short-sword', cracked: true, equipped: true },
    ]);
  });
});

describe('the priest and the store between battles', () => {
  it('promotion (free) at level 10: Max the Swordsman becomes a Hero', () => {
    const promoted = value(
      use({ type: 'promote', character: 'max' }, force({ max: { level: 10 } }, 5)),
    );
    expect(member(promoted.roster, 'max')).toMatchObject({ class: 'hero', level: 1, exp: 0 });
    expect(goldOf(promoted.roster)).toBe(5);
    expect(promoted.report).toEqual(['The priest promotes Max to Hero (5 gold left)']);
  });

  it('buying at the list price, selling at half, repairing at a quarter', () => {
    const bought = value(
      use({ type: 'buy', character: 'max', item: 'steel-sword' }, force({ max: {} }, 1400)),
    );
    expect(goldOf(bought.roster)).toBe(100);
    expect(member(bought.roster, 'max').items.at(-1)).toEqual({
      item: 'steel-sword',
      cracked: false,
      equipped: false,
    });
    const sold = value(use({ type: 'sell', character: 'max', item: 'steel-sword' }, bought.roster));
    expect(goldOf(sold.roster)).toBe(750);
    const cracked = force(
      { max: { items: [{ item: 'steel-sword', cracked: true, equipped: true }] } },
      400,
    );
    const fixed = value(use({ type: 'repair', character: 'max', item: 'steel-sword' }, cracked));
    expect(goldOf(fixed.roster)).toBe(75);
    expect(member(fixed.roster, 'max').items[0]!.cracked).toBe(false);
  });

  it('refusals change nothing and say why', () => {
    const full = Array.from({ length: 4 }, () => ({
      item: 'medical-herb',
      cracked: false,
      equipped: false,
    }));
    const roster = force({ max: { level: 4, defeated: true }, ken: { items: full } }, 150);
    const copy = structuredClone(roster);
    const cases: [unknown, string][] = [
      [{ type: 'raise', character: 'max' }, 'campaign/not-enough-gold'],
      [{ type: 'raise', character: 'ken' }, 'campaign/not-defeated'],
      [{ type: 'promote', character: 'max' }, 'campaign/too-low'],
      [{ type: 'lift-curse', character: 'max' }, 'campaign/not-cursed'],
      [{ type: 'buy', character: 'ken', item: 'medical-herb' }, 'campaign/hands-full'],
      [{ type: 'buy', character: 'max', item: 'steel-sword' }, 'campaign/not-enough-gold'],
      [{ type: 'buy', character: 'max', item: 'excalibur' }, 'campaign/no-such-item'],
      [{ type: 'repair', character: 'max', item: 'short-sword' }, 'campaign/not-cracked'],
      [{ type: 'sell', character: 'hans', item: 'wooden-arrow' }, 'campaign/unknown-member'],
      [{ type: 'pray', character: 'max' }, 'campaign/invalid-service'],
    ];
    for (const [service, code] of cases) {
      const refused = shiningForceCampaign.applyService(
        lib,
        roster,
        service as ShiningForceService,
        noDice,
      );
      expect(refused.ok ? 'ok' : refused.error.code, JSON.stringify(service)).toBe(code);
    }
    expect(roster).toEqual(copy);
  });
});

describe('properties', () => {
  it('a battle never lowers EXP, levels or gold; the roster it leaves parses and survives JSON', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 19 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 1000 }),
        (seed, level, exp, gold) => {
          const roster = force({ max: { level, exp }, ken: {}, hans: {} }, gold);
          const setup = value(shiningForceCampaign.setupFrom(lib, GATE_SPEC, roster));
          const after = value(
            shiningForceCampaign.afterBattle(lib, setup, playOut(setup, seed), roster, dice()),
          );
          const total = (m: ForceMemberState) => m.level * 100 + m.exp;
          for (const id of ['max', 'ken', 'hans'])
            expect(total(member(after.roster, id))).toBeGreaterThanOrEqual(
              total(member(roster, id)),
            );
          expect(goldOf(after.roster)).toBeGreaterThanOrEqual(gold);
          const reparsed = value(
            shiningForceCampaign.parseRoster(JSON.parse(JSON.stringify(after.roster))),
          );
          expect(reparsed).toEqual(after.roster);
        },
      ),
      { numRuns: 25, seed: 29 },
    );
  });
});
