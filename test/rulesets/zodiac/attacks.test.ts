/** Attacking, damage and elements: the chapter's formulas and worked examples. */
import { describe, expect, it } from 'vitest';
import {
  BARRIER,
  CRITICAL,
  computeDamage,
  DEFEND,
  type Factor,
  MINI_TAKEN,
} from '../../../src/rulesets/zodiac/damage.js';
import { judgeAttack, judgeStatusRoll } from '../../../src/rulesets/zodiac/index.js';
import {
  attack,
  begin,
  type CombatantInput,
  duel,
  hp,
  keef,
  ofType,
  ogre,
  only,
  rejected,
  run,
  start,
} from './helpers.js';

const damage = (
  base: number,
  dealt: readonly Factor[] = [],
  taken: readonly Factor[] = [],
  more: Partial<Parameters<typeof computeDamage>[0]> = {},
) => computeDamage({ base, dealt, taken, cap: null, explain: true, ...more });

describe('the attack roll: "If the total is greater than the target\'s Evade, you hit"', () => {
  it('greater than, not equal: 20 + 40 = 60 against Evade 60 misses, 21 hits', () => {
    expect(judgeAttack(20, 40, 60, undefined).hit).toBe(false);
    expect(judgeAttack(21, 40, 60, undefined)).toEqual({
      natural: 21,
      total: 61,
      hit: true,
      automatic: false,
      critical: false,
    });
  });

  it('"a natural roll of 90 or higher ALWAYS hits", whatever the Evade or the penalties', () => {
    expect(judgeAttack(90, 0, 500, undefined, 60)).toMatchObject({ hit: true, automatic: true });
    expect(judgeAttack(89, 0, 500, undefined)).toMatchObject({ hit: false, automatic: false });
  });

  it('a critical hit needs a hit and a natural roll at or above the Critical stat', () => {
    expect(judgeAttack(80, 0, 10, 80).critical).toBe(true);
    expect(judgeAttack(79, 0, 10, 80).critical).toBe(false);
    // A natural 85 at Critical 80 that misses is no critical hit.
    expect(judgeAttack(85, 0, 200, 80)).toMatchObject({ hit: false, critical: false });
  });

  it('magic: "equal to or greater than the target\'s Resist" lands', () => {
    expect(judgeStatusRoll(30, 30, 60)).toBe(true);
    expect(judgeStatusRoll(29, 30, 60)).toBe(false);
  });
});

describe('weapon damage: "(Weapon Damage Roll * 10) + Total Attack Power"', () => {
  const swordsman = (changes: Partial<CombatantInput> = {}) =>
    keef({
      stats: { ...keef().stats, attackPower: 25, strengthDice: 1, critical: 95 },
      weapon: { name: 'Long Sword', die: 8, attackPower: 0 },
      ...changes,
    });

  it('"Attack Power of 25 and one Strength Die ... Long Sword (d8) ... from 35-105 points"', () => {
    for (const [face, expected] of [
      [1, 35],
      [8, 105],
    ] as const) {
      const encounter = start(duel([swordsman()]));
      begin(encounter);
      const events = attack(encounter, 'keef', 'ogre', 50, [face]);
      const dealt = only(events, 'damage-dealt');
      expect(dealt.roll?.notation).toBe('1d8*10+25');
      expect(dealt.amount).toBe(expected);
      expect(hp(encounter, 'ogre')).toBe(1000 - expected);
    }
  });

  it('Strength Dice add dice: two Strength Dice roll 2d8', () => {
    const encounter = start(
      duel([swordsman({ stats: { ...swordsman().stats, strengthDice: 2 } })]),
    );
    begin(encounter);
    const events = attack(encounter, 'keef', 'ogre', 50, [3, 4]);
    expect(only(events, 'damage-dealt').amount).toBe(70 + 25);
  });

  it('"Diff the Biffer scores a critical hit ... His total damage is 200 ... doubled to 400"', () => {
    expect(damage(200, [CRITICAL]).amount).toBe(400);
    // And in a battle: a natural 95 at Critical 95, (1d8 [5] x 10) + 150 = 200, doubled.
    const diff = swordsman({ stats: { ...swordsman().stats, attackPower: 150 } });
    const encounter = start(duel([diff]));
    begin(encounter);
    const events = attack(encounter, 'keef', 'ogre', 95, [5]);
    expect(only(events, 'attacked').attack.critical).toBe(true);
    expect(only(events, 'damage-dealt')).toMatchObject({ amount: 400 });
    expect(only(events, 'damage-dealt').breakdown).toBe(
      '1d8*10+150 = [5] * 10 + 150 = 200, critical x2 = 400',
    );
  });

  it('a miss deals nothing', () => {
    const encounter = start(duel([swordsman({ stats: { ...swordsman().stats, accuracy: 0 } })]));
    begin(encounter);
    const events = attack(encounter, 'keef', 'ogre', 30);
    expect(only(events, 'attacked').attack.hit).toBe(false);
    expect(ofType(events, 'damage-dealt').filter((d) => d.source === 'keef')).toEqual([]);
  });

  it('unarmed: "the die class is only d4, and his Strength is cut in half ... both Strength Dice and Attack Power"', () => {
    const brawler = keef({
      stats: { ...keef().stats, attackPower: 25, strengthDice: 3 },
      weapon: undefined,
    });
    const encounter = start(duel([brawler]));
    begin(encounter);
    const events = attack(encounter, 'keef', 'ogre', 50, [4]);
    expect(only(events, 'attacked').with).toBe('bare hands');
    // 3 Strength Dice -> 1, Attack Power 25 -> 12 (rounded down).
    expect(only(events, 'damage-dealt').roll?.notation).toBe('1d4*10+12');
    expect(only(events, 'damage-dealt').amount).toBe(52);
  });

  it('flying targets: short-range weapons take -60; long-range weapons and Techs do not', () => {
    const harpy = ogre({ flying: true });
    const short = start(duel([keef({ techs: ['power-strike'] })], [harpy]));
    begin(short);
    const missed = attack(short, 'keef', 'ogre', 49);
    expect(only(missed, 'attacked').attack).toMatchObject({
      total: 49 + 40 - 60,
      hit: false,
      penalties: [{ reason: 'short range against a flier', amount: 60 }],
    });
    run(short, { type: 'defend', actor: 'ogre' });
    // "ALL Techs, even Weapon Techs made with melee weapons, are considered long-range."
    const tech = run(
      short,
      { type: 'tech', actor: 'keef', tech: 'power-strike', target: 'ogre' },
      {
        'hit:ogre': [49],
        'damage:ogre': [1, 1],
      },
    );
    expect(only(tech, 'attacked').attack).toMatchObject({ total: 89, hit: true, penalties: [] });
    // Power Strike: one more die and 20 more power: (2d4 x 10) + 30 + 20.
    expect(ofType(tech, 'damage-dealt')[0]!.roll?.notation).toBe('2d4*10+50');
    const bow = start(
      duel([keef({ weapon: { name: 'Bow', die: 6, attackPower: 0, range: 'long' } })], [harpy]),
    );
    begin(bow);
    expect(only(attack(bow, 'keef', 'ogre', 49, [1]), 'attacked').attack.penalties).toEqual([]);
  });

  it('Techs cost MP and "If you do not have enough MP, you can\'t use that ability"', () => {
    const encounter = start(duel([keef({ techs: ['power-strike'], mp: 5 })]));
    begin(encounter);
    rejected(
      encounter,
      { type: 'tech', actor: 'keef', tech: 'power-strike', target: 'ogre' },
      'action/not-enough-mp',
    );
    rejected(
      encounter,
      { type: 'tech', actor: 'keef', tech: 'meltdown', target: 'ogre' },
      'action/unknown-tech',
    );
  });

  it('attacks on allies are refused unless Charmed or Confused', () => {
    const encounter = start(duel([keef(), keef({ id: 'kid', name: 'Kid' })]));
    begin(encounter, { keef: 3, kid: 1, ogre: 1 });
    rejected(encounter, { type: 'attack', actor: 'keef', target: 'kid' }, 'action/friendly-target');
  });
});

describe('elements: "There are five levels of elemental affinities"', () => {
  it('"Merlin ... Meltdown ... 700 points of Fire damage ... Fire Resistance, and the damage is halved to 350"', () => {
    expect(damage(700, [], [], { element: 'fire', affinity: 'resistance' })).toMatchObject({
      amount: 350,
      absorbed: false,
      breakdown: '700, Fire Resistance x1/2 = 350',
    });
    // In a battle: Merlin with no Magic Dice to speak of and a 700-power Meltdown.
    const merlin = keef({
      id: 'merlin',
      name: 'Merlin',
      stats: { ...keef().stats, magicDice: 0, map: 0 },
      techs: ['meltdown'],
    });
    const setup = duel([merlin], [ogre({ affinities: { fire: 'resistance' } })]);
    setup.techs = {
      ...setup.techs,
      meltdown: {
        name: 'Meltdown',
        type: 'magic',
        mpCost: 10,
        damage: { dice: 0, power: 700, die: 10, element: 'fire' },
      },
    };
    const encounter = start(setup);
    begin(encounter, { merlin: 3, ogre: 1 });
    const events = run(encounter, {
      type: 'tech',
      actor: 'merlin',
      tech: 'meltdown',
      target: 'ogre',
    });
    expect(only(events, 'damage-dealt').amount).toBe(350);
    expect(encounter.state.combatants.merlin!.mp).toBe(30);
  });

  it('Weakness x2, Immunity 0, Lesser Absorbency heals half, Greater Absorbency heals all', () => {
    expect(damage(301, [], [], { element: 'ice', affinity: 'weakness' }).amount).toBe(602);
    expect(damage(301, [], [], { element: 'ice', affinity: 'immunity' }).amount).toBe(0);
    expect(damage(301, [], [], { element: 'ice', affinity: 'lesser-absorbency' })).toMatchObject({
      amount: 150,
      absorbed: true,
    });
    expect(damage(301, [], [], { element: 'ice', affinity: 'greater-absorbency' })).toMatchObject({
      amount: 301,
      absorbed: true,
    });
    // An element the target has no affinity with does the damage as rolled.
    expect(damage(301, [], [], { element: 'ice' }).amount).toBe(301);
  });

  it('Defend halves damage "in addition to elemental weaknesses" but "does NOT affect Absorbencies"', () => {
    expect(damage(300, [], [DEFEND], { element: 'fire', affinity: 'weakness' }).amount).toBe(300);
    expect(
      damage(300, [], [DEFEND], { element: 'fire', affinity: 'greater-absorbency' }),
    ).toMatchObject({
      amount: 300,
      absorbed: true,
    });
  });

  it('exact arithmetic, rounded down once: 591 x1/2 x1/2 x3/2 = 221 (not 591 -> 295 -> 147 -> 220)', () => {
    expect(damage(591, [], [DEFEND, BARRIER, MINI_TAKEN]).amount).toBe(221);
  });

  it('an absorbing target heals in a battle, up to its maximum', () => {
    const setup = duel(
      [keef({ techs: ['fire'] })],
      [ogre({ hp: 900, affinities: { fire: 'greater-absorbency' } })],
    );
    const encounter = start(setup);
    begin(encounter);
    const events = run(
      encounter,
      { type: 'tech', actor: 'keef', tech: 'fire', target: 'ogre' },
      {
        'damage:ogre': [6, 6],
      },
    );
    // (2d6 [12] x 10) + 30 + 10 = 160, all absorbed: 900 + 100 up to 1000.
    expect(only(events, 'damage-dealt')).toMatchObject({
      absorbed: true,
      amount: 100,
      hpAfter: 1000,
    });
  });
});

describe('optional rules', () => {
  it('the Damage Cap: "over 999 damage - after figuring in weaknesses, resistances, etc- instead deals 999"', () => {
    expect(damage(600, [], [], { element: 'fire', affinity: 'weakness', cap: 999 }).amount).toBe(
      999,
    );
    expect(damage(1500, [], [], { element: 'fire', affinity: 'resistance', cap: 999 }).amount).toBe(
      750,
    );
    const encounter = start(
      duel(
        [keef({ stats: { ...keef().stats, attackPower: 2000 } })],
        [ogre({ stats: { ...ogre().stats, hp: 5000 } })],
        {
          damageCap: true,
        },
      ),
    );
    begin(encounter);
    expect(only(attack(encounter, 'keef', 'ogre', 50, [1]), 'damage-dealt').amount).toBe(999);
  });

  it('without the cap "damage in ZODIAC can normally get as high as the dice will let it"', () => {
    const encounter = start(
      duel(
        [keef({ stats: { ...keef().stats, attackPower: 2000 } })],
        [ogre({ stats: { ...ogre().stats, hp: 5000 } })],
      ),
    );
    begin(encounter);
    // (1d4 [1] x 10) + 2000 + the dagger's 10.
    expect(only(attack(encounter, 'keef', 'ogre', 50, [1]), 'damage-dealt').amount).toBe(2020);
  });

  it('Damage Levels: "adding a zero ... to HP and damage rolls for all players and monsters"', () => {
    const encounter = start(duel([keef()], [ogre()], { damageLevels: 1 }));
    expect(encounter.state.combatants.ogre!.maxHp).toBe(10_000);
    expect(encounter.state.combatants.keef!.hp).toBe(4000);
    begin(encounter);
    const events = attack(encounter, 'keef', 'ogre', 50, [2]);
    expect(only(events, 'damage-dealt').roll?.notation).toBe('(1d4*10+30)*10');
    expect(ofType(events, 'damage-dealt')[0]!.amount).toBe(500);
  });
});
