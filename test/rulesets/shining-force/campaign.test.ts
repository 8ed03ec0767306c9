/** Between battles: EXP and levels, promotion, the priest's services and the store. */
import { describe, expect, it } from 'vitest';
import { entityFields } from '../../../src/content/index.js';
import { seededDice } from '../../../src/dice/index.js';
import { CommandDice } from '../../../src/engine/index.js';
import {
  afterBattle,
  type Catalogue,
  canPromote,
  classKind,
  curePoison,
  type ForceMember,
  gainExp,
  itemKind,
  liftCurse,
  promote,
  type Roster,
  raise,
  repair,
  sell,
} from '../../../src/rulesets/shining-force/index.js';
import { attackDice, battle, begin, library, run, sheet } from './helpers.js';

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

describe('after a battle', () => {
  it('adds the EXP earned and the gold won; the defeated must be raised', () => {
    const e = begin(
      battle([sheet('max', 'A1')], [sheet('goblin', 'B1', { hp: 5, expReward: 120, gold: 10 })]),
    );
    run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 99, 50]),
    );
    const after = value(afterBattle(roster(), e.state, catalogue(), dice()));
    expect(after.roster.gold).toBe(110);
    expect(after.roster.members[0]).toMatchObject({ level: 2, exp: 20, defeated: false });
  });
});
