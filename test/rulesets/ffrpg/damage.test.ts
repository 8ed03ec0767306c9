/**
 * The damage pipeline (damage.ts) on its own, then inside the battle: the damage code's total,
 * every percentage added together and applied rounding down, armour, barriers, the Damage Cap of
 * 999 and the Rule of 1; Weakness, Resistance, Immunity and Absorbance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyPercent,
  computeDamage,
  type DamageInput,
  RESISTANCE_PERCENT,
  WEAKNESS_PERCENT,
} from '../../../src/rulesets/ffrpg/damage.js';
import {
  beginRound,
  d100,
  hp,
  only,
  run,
  sheet,
  start,
  submitFaces,
  windCaveWith,
} from './battle-helpers.js';
import { windCave } from './fixtures.js';

const ARM_10 = { name: 'ARM', value: 10 } as const;

function damage(input: Partial<DamageInput> & { base: number }) {
  return computeDamage({
    percents: [],
    armor: null,
    barriers: [],
    affinity: undefined,
    cap: 999,
    ...input,
  });
}

describe('applyPercent: "When doing these calculations, remember to always round down."', () => {
  it('derives the Percentage Calculations of the text', () => {
    // "25%—Halve the number in question, then halve it again."
    expect(applyPercent(100, -75)).toBe(25);
    expect(applyPercent(30, -75)).toBe(7); // 7.5 rounds down
    // "50%—Halve the number in question."
    expect(applyPercent(31, -50)).toBe(15);
    // "75%—Calculate 25% and 50%, then add them together."
    expect(applyPercent(30, -25)).toBe(22);
    // "125%—Calculate 25%, then add it to the number in question."
    expect(applyPercent(30, 25)).toBe(37);
    // "150%—Calculate 50%, then add it to the number in question."
    expect(applyPercent(31, 50)).toBe(46);
    // "175%", "200%—Double", "300%—Triple"
    expect(applyPercent(30, 75)).toBe(52);
    expect(applyPercent(30, 100)).toBe(60);
    expect(applyPercent(30, 200)).toBe(90);
    expect(applyPercent(30, 0)).toBe(30);
  });

  it('is floor(value x (100 + percent) / 100) for every value and step of 25', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: -4, max: 16 }),
        (v, k) => {
          const percent = k * 25;
          expect(applyPercent(v, percent)).toBe(Math.floor((v * (100 + percent)) / 100));
        },
      ),
    );
  });
});

describe('computeDamage', () => {
  it('"30 Physical damage ... modified by the Heket\'s ARM—in this case, 10": 20', () => {
    expect(damage({ base: 30, armor: ARM_10 })).toEqual({
      amount: 20,
      absorbed: false,
      breakdown: '30 - ARM 10 = 20',
    });
  });

  it("with no modifiers the damage is the damage code's total", () => {
    expect(damage({ base: 30 })).toEqual({ amount: 30, absorbed: false, breakdown: '30' });
    // ARM 0 is not worth a step.
    expect(damage({ base: 30, armor: { name: 'ARM', value: 0 } }).breakdown).toBe('30');
  });

  it('"multiple percentages ... always will be added together before being applied"', () => {
    // Darkside +100% and a Critical +100% make +200% (x3), not x2 x2.
    const result = damage({
      base: 30,
      percents: [
        ['Darkside', 100],
        ['Critical', 100],
      ],
      armor: ARM_10,
    });
    expect(result.amount).toBe(80);
    expect(result.breakdown).toBe('30 +200% (Darkside +100%, Critical +100%) = 90 - ARM 10 = 80');
    // +50% and -50% cancel out; applied one after the other they would give 22, not 30.
    expect(
      damage({
        base: 30,
        percents: [
          ['Boost', 50],
          ['Weak', -50],
        ],
      }).amount,
    ).toBe(30);
  });

  it('rounds a percentage down ("always round down")', () => {
    expect(damage({ base: 31, percents: [['Dual Wield', 25]] }).amount).toBe(38); // 38.75
    expect(damage({ base: 31, percents: [['Half', -50]] }).amount).toBe(15); // 15.5
    expect(damage({ base: 3, percents: [['Quarter', -75]] }).amount).toBe(1); // 0.75 -> 0 -> Rule of 1
  });

  it('percentages apply before armour: 20 +100% = 40 - ARM 10 = 30', () => {
    expect(damage({ base: 20, percents: [['Darkside', 100]], armor: ARM_10 })).toMatchObject({
      amount: 30,
      breakdown: '20 +100% (Darkside +100%) = 40 - ARM 10 = 30',
    });
  });

  it('Darkside\'s "+100% Shadow Elemental damage" on a Shadow Weakness is +200% in all', () => {
    expect(WEAKNESS_PERCENT).toBe(100);
    const result = damage({
      base: 20,
      percents: [['Darkside', 100]],
      armor: ARM_10,
      affinity: 'weakness',
    });
    expect(result).toEqual({
      amount: 50,
      absorbed: false,
      breakdown: '20 +200% (Darkside +100%, Weakness +100%) = 60 - ARM 10 = 50',
    });
  });

  it('Weakness alone doubles the damage before armour', () => {
    expect(damage({ base: 30, armor: ARM_10, affinity: 'weakness' })).toMatchObject({
      amount: 50,
      breakdown: '30 +100% (Weakness +100%) = 60 - ARM 10 = 50',
    });
  });

  it('Resistance is -50%, added to the other percentages', () => {
    expect(RESISTANCE_PERCENT).toBe(-50);
    expect(damage({ base: 30, armor: ARM_10, affinity: 'resistance' })).toMatchObject({
      amount: 5,
      breakdown: '30 -50% (Resistance -50%) = 15 - ARM 10 = 5',
    });
    // With Darkside: +100% - 50% = +50%.
    expect(
      damage({ base: 30, percents: [['Darkside', 100]], affinity: 'resistance' }),
    ).toMatchObject({ amount: 45, breakdown: '30 +50% (Darkside +100%, Resistance -50%) = 45' });
  });

  it('Immunity leaves no damage at all (the Rule of 1 does not make it 1)', () => {
    expect(
      damage({ base: 90, percents: [['Critical', 100]], armor: ARM_10, affinity: 'immunity' }),
    ).toEqual({ amount: 0, absorbed: false, breakdown: '90, immune: 0' });
  });

  it('Absorbance turns the damage into healing, unreduced by armour or barriers', () => {
    expect(
      damage({
        base: 30,
        percents: [['Critical', 100]],
        armor: ARM_10,
        barriers: [['Protect', -50]],
        affinity: 'absorbance',
      }),
    ).toEqual({
      amount: 60,
      absorbed: true,
      breakdown: '30 +100% (Critical +100%) = 60, absorbed: heals',
    });
    expect(damage({ base: 5000, affinity: 'absorbance' }).amount).toBe(999);
  });

  it('Barriers apply after armour: Protect halves 30 - ARM 10 = 20 to 10', () => {
    expect(damage({ base: 30, armor: ARM_10, barriers: [['Protect', -50]] })).toEqual({
      amount: 10,
      absorbed: false,
      breakdown: '30 - ARM 10 = 20 -50% (Protect) = 10',
    });
    // Before armour it would have been 30 / 2 - 10 = 5.
  });

  it('several barriers add up like percentages, and never below nothing', () => {
    expect(
      damage({
        base: 100,
        barriers: [
          ['Protect', -50],
          ['Guard', -25],
        ],
      }),
    ).toMatchObject({ amount: 25, breakdown: '100 -75% (Protect, Guard) = 25' });
    expect(
      damage({
        base: 100,
        barriers: [
          ['Protect', -50],
          ['Wall', -100],
        ],
      }).amount,
    ).toBe(1);
  });

  it('"an attack which causes damage equivalent to 50% of the target\'s HP would still only remove 999 HP even if the target had more than 10,000 HP"', () => {
    const targetHp = 12_000;
    expect(damage({ base: targetHp / 2 })).toEqual({
      amount: 999,
      absorbed: false,
      breakdown: '6000, capped at 999',
    });
  });

  it('the Damage Cap counts "modifiers for the target\'s Armor ... as well as Barrier status effects"', () => {
    // Armour comes off before the cap: 1050 - 100 = 950 stands.
    expect(damage({ base: 1050, armor: { name: 'ARM', value: 100 } }).amount).toBe(950);
    expect(damage({ base: 1200, armor: { name: 'ARM', value: 100 } })).toMatchObject({
      amount: 999,
      breakdown: '1200 - ARM 100 = 1100, capped at 999',
    });
    // Protect comes off before the cap: 1800 / 2 = 900 stands.
    expect(damage({ base: 1800, barriers: [['Protect', -50]] }).amount).toBe(900);
    expect(damage({ base: 3000, barriers: [['Protect', -50]] }).amount).toBe(999);
  });

  it('"Some attacks may ignore the Damage Cap": no cap, no limit', () => {
    expect(damage({ base: 6000, cap: null, armor: ARM_10 })).toEqual({
      amount: 5990,
      absorbed: false,
      breakdown: '6000 - ARM 10 = 5990',
    });
  });

  it('another cap can be set (option damageCap)', () => {
    expect(damage({ base: 600, cap: 500 }).amount).toBe(500);
  });

  it('"modifiers may never reduce the amount of damage done by an attack to less than 1" (Rule of 1)', () => {
    expect(damage({ base: 5, armor: ARM_10 })).toEqual({
      amount: 1,
      absorbed: false,
      breakdown: '5 - ARM 10 = -5, Rule of 1: 1',
    });
    expect(damage({ base: 10, armor: ARM_10 }).amount).toBe(1);
    expect(damage({ base: 11, armor: ARM_10 }).amount).toBe(1);
    expect(damage({ base: 12, armor: ARM_10 }).amount).toBe(2);
    expect(damage({ base: 30, percents: [['Null', -100]] }).amount).toBe(1);
    expect(damage({ base: 30, percents: [['Less than nothing', -200]] }).amount).toBe(1);
    expect(damage({ base: 0 }).amount).toBe(1);
  });

  it('is always 1 to the cap, except Immunity; the cap only with a cap', () => {
    const affinity = fc.constantFrom(undefined, 'weakness', 'resistance', 'absorbance', 'immunity');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.array(fc.integer({ min: -8, max: 12 }), { maxLength: 4 }),
        fc.integer({ min: 0, max: 999 }),
        fc.array(fc.integer({ min: -4, max: 0 }), { maxLength: 3 }),
        affinity,
        fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
        (base, steps, arm, barrierSteps, aff, cap) => {
          const result = computeDamage({
            base,
            percents: steps.map((s, i) => [`p${i}`, s * 25] as const),
            armor: { name: 'ARM', value: arm },
            barriers: barrierSteps.map((s, i) => [`b${i}`, s * 25] as const),
            affinity: aff,
            cap,
          });
          expect(Number.isInteger(result.amount)).toBe(true);
          expect(result.absorbed).toBe(aff === 'absorbance');
          if (aff === 'immunity') {
            expect(result.amount).toBe(0);
            return;
          }
          expect(result.amount).toBeGreaterThanOrEqual(1);
          if (cap !== null) expect(result.amount).toBeLessThanOrEqual(Math.max(cap, 1));
          expect(result.breakdown.startsWith(`${base}`)).toBe(true);
        },
      ),
    );
  });

  it('more base damage never deals less; more armour never deals more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: -4, max: 8 }),
        fc.constantFrom(undefined, 'weakness', 'resistance'),
        (base, extra, arm, step, aff) => {
          const at = (b: number, a: number) =>
            computeDamage({
              base: b,
              percents: [['p', step * 25]],
              armor: { name: 'ARM', value: a },
              barriers: [['Protect', -50]],
              affinity: aff,
              cap: 999,
            }).amount;
          expect(at(base + extra, arm)).toBeGreaterThanOrEqual(at(base, arm));
          expect(at(base, arm + extra)).toBeLessThanOrEqual(at(base, arm));
        },
      ),
    );
  });
});

describe('damage in battle', () => {
  /** Hiro shoots first; the Heket may be changed and Hiro's rifle too. */
  function shoot(setup: ReturnType<typeof windCave>, hit = 28, die = 10) {
    const encounter = start(setup);
    beginRound(encounter);
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(hit), 'damage:heket': [die] },
    );
    return { encounter, damage: only(events, 'damage-dealt') };
  }

  it('the Damage Cap holds for a huge blow: 999 off, and a higher cap by option', () => {
    const setup = windCave();
    sheet(setup, 'hiro').weapon = { name: 'Cannon', damage: '200*AGI + d12', skill: 'Guns' };
    sheet(setup, 'heket').stats.hp = 50_000;
    const capped = shoot(setup);
    // 2000 + 10 = 2010 - ARM 10 = 2000, capped at 999.
    expect(capped.damage).toMatchObject({
      amount: 999,
      hpAfter: 49_001,
      breakdown: '2010 - ARM 10 = 2000, capped at 999',
    });
    const higher = structuredClone(setup);
    higher.options = { damageCap: 9999 };
    expect(shoot(higher).damage.amount).toBe(2000);
  });

  it('an ability that ignores the Damage Cap says so, and removes more than 999', () => {
    const setup = windCaveWith(
      {
        'meteor-shot': {
          name: 'Meteor Shot',
          type: 'fast',
          target: 'single',
          damage: { code: '200*AGI', ignoresCap: true },
        },
        'capped-shot': {
          name: 'Capped Shot',
          type: 'fast',
          target: 'single',
          damage: { code: '200*AGI' },
        },
      },
      { hiro: ['meteor-shot', 'capped-shot'] },
    );
    sheet(setup, 'heket').stats.hp = 50_000;
    const encounter = start(setup);
    beginRound(encounter);
    const events = run(encounter, {
      type: 'use-ability',
      actor: 'hiro',
      ability: 'meteor-shot',
      target: 'heket',
    });
    expect(only(events, 'damage-dealt')).toMatchObject({
      amount: 1990,
      breakdown: '2000 - ARM 10 = 1990',
      hpAfter: 48_010,
    });
    run(encounter, { type: 'pass', actor: 'haze' });
    run(encounter, { type: 'pass', actor: 'mint' });
    run(encounter, { type: 'pass', actor: 'heket' });
    beginRound(encounter);
    const capped = run(encounter, {
      type: 'use-ability',
      actor: 'hiro',
      ability: 'capped-shot',
      target: 'heket',
    });
    expect(only(capped, 'damage-dealt').amount).toBe(999);
  });

  it('the Rule of 1 in battle: a pea-shooter against thick hide still takes 1 HP', () => {
    const setup = windCave();
    sheet(setup, 'heket').stats.arm = 200;
    const { encounter, damage: dealt } = shoot(setup, 28, 1);
    expect(dealt).toMatchObject({ amount: 1, breakdown: '21 - ARM 200 = -179, Rule of 1: 1' });
    expect(hp(encounter, 'heket')).toBe(299);
  });

  it("Weakness (the Heket is weak to Ice) doubles an Ice weapon's damage", () => {
    const setup = windCave();
    sheet(setup, 'hiro').weapon = {
      name: 'Ice Rifle',
      damage: '2*AGI + d12',
      skill: 'Guns',
      element: 'ice',
    };
    expect(shoot(setup).damage).toMatchObject({
      amount: 50,
      breakdown: '30 +100% (Weakness +100%) = 60 - ARM 10 = 50',
    });
  });

  it('Resistance halves, Immunity deals nothing (and does not wake or knock out)', () => {
    const setup = windCave();
    sheet(setup, 'hiro').weapon = {
      name: 'Fire Rifle',
      damage: '2*AGI + d12',
      skill: 'Guns',
      element: 'fire',
    };
    sheet(setup, 'heket').affinities = { fire: 'resistance' };
    expect(shoot(setup).damage).toMatchObject({
      amount: 5,
      breakdown: '30 -50% (Resistance -50%) = 15 - ARM 10 = 5',
    });
    const immune = structuredClone(setup);
    sheet(immune, 'heket').affinities = { fire: 'immunity' };
    sheet(immune, 'heket').statuses = [{ status: 'sleep' }];
    const { encounter, damage: none } = shoot(immune);
    expect(none).toMatchObject({ amount: 0, hpAfter: 300, absorbed: false });
    expect(encounter.state.combatants.heket?.statuses.map((s) => s.status)).toEqual(['sleep']);
  });

  it('Absorbance heals the Heket, up to its maximum HP', () => {
    const setup = windCave();
    sheet(setup, 'hiro').weapon = {
      name: 'Wind Rifle',
      damage: '2*AGI + d12',
      skill: 'Guns',
      element: 'air',
    };
    sheet(setup, 'heket').hp = 250;
    const { encounter, damage: healed } = shoot(setup);
    expect(healed).toMatchObject({ amount: 30, absorbed: true, hpAfter: 280 });
    expect(hp(encounter, 'heket')).toBe(280);
    const nearlyFull = structuredClone(setup);
    sheet(nearlyFull, 'heket').hp = 290;
    expect(shoot(nearlyFull).damage.hpAfter).toBe(300);
  });

  it("a Support ability's damage percentage is added to a Critical Hit's", () => {
    const setup = windCaveWith(
      {
        'gun-mastery': {
          name: 'Gun Mastery',
          type: 'support',
          passive: [{ kind: 'damage-dealt-percent', percent: 25, skill: 'Guns' }],
        },
      },
      { hiro: ['gun-mastery'] },
    );
    expect(shoot(setup, 3, 10).damage).toMatchObject({
      // 30 x (1 + 1.00 + 0.25) = 67.5 -> 67, - ARM 10 = 57.
      amount: 57,
      breakdown: '30 +125% (Critical +100%, Gun Mastery +25%) = 67 - ARM 10 = 57',
    });
  });
});

describe('damage to MP', () => {
  it('"The same also applies to attacks that damage the target\'s MP rather than HP": capped at 999, HP untouched', async () => {
    const { Encounter } = await import('../../../src/engine/index.js');
    const { ffrpg } = await import('../../../src/rulesets/ffrpg/index.js');
    const { windCave } = await import('./fixtures.js');
    const setup = windCave();
    const mint = setup.sides[0]!.combatants[2]!;
    const created = Encounter.create(
      ffrpg,
      {
        ...setup,
        sides: [
          { ...setup.sides[0]!, combatants: [{ ...mint, abilities: ['osmose'] }] },
          {
            ...setup.sides[1]!,
            combatants: [
              {
                ...setup.sides[1]!.combatants[0]!,
                stats: { hp: 300, mp: 2000, eva: 22, arm: 10, marm: 5 },
              },
            ],
          },
        ],
        abilities: {
          ...setup.abilities,
          osmose: {
            name: 'Osmose',
            type: 'magic',
            damage: { code: '1500 + d6', damageType: 'magical', pool: 'mp' },
          },
        },
      },
      1,
    );
    if (!created.ok) throw new Error(created.error.message);
    const battle = created.value;
    submitFaces(
      battle,
      { type: 'begin-round' },
      { 'initiative:mint': [10], 'initiative:heket': [1] },
    );
    const used = submitFaces(
      battle,
      { type: 'use-ability', actor: 'mint', ability: 'osmose', target: 'heket' },
      { 'damage:heket': [3] },
    );
    expect(used.ok).toBe(true);
    expect(battle.state.combatants.heket).toMatchObject({ hp: 300, mp: 2000 - 999 });
    const dealt = used.ok ? used.value.find((e) => e.type === 'damage-dealt') : undefined;
    expect(dealt).toMatchObject({ amount: 999, mpAfter: 1001, hpAfter: 300 });
    expect(dealt?.type === 'damage-dealt' && dealt.breakdown).toBe(
      '1503 - M. ARM 5 = 1498, capped at 999 (to MP)',
    );
  });
});
