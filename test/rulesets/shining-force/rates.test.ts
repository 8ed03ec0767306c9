import { describe, expect, it } from 'vitest';
import {
  attackDamage,
  counterRate,
  criticalRate,
  evadeRate,
  isCounter,
  isCritical,
  isHit,
  statusChance,
  varianceDirection,
} from '../../../src/rulesets/shining-force/index.js';
import { combatantOf, type ShiningForceState } from '../../../src/rulesets/shining-force/state.js';

const FACES = Array.from({ length: 100 }, (_, i) => i + 1);

describe('the derived rates', () => {
  it('"Evade: calculated by adding one quarter of a character\'s agility to their luck" (rounded down)', () => {
    expect(evadeRate(8, 3)).toBe(5);
    expect(evadeRate(11, 3)).toBe(5);
    expect(evadeRate(12, 0)).toBe(3);
  });

  it('"Critical: ... adding one point for every five levels a character has to their luck"', () => {
    expect(criticalRate(3, 4)).toBe(3);
    expect(criticalRate(3, 5)).toBe(4);
    expect(criticalRate(3, 19)).toBe(6);
  });

  it('"Counter: calculated by adding one eigth of a character\'s agility to their luck"', () => {
    expect(counterRate(15, 2)).toBe(3);
    expect(counterRate(16, 2)).toBe(4);
  });
});

describe('the five d100s', () => {
  it('"if the target had a 9% evade rate, a roll of 10-100 would result in a hit"', () => {
    expect(FACES.filter((r) => isHit(r, 9))).toEqual(FACES.slice(9));
  });

  it('"Illusion: attacks are 50% less accurate": against evade 10, 45 faces hit instead of 90', () => {
    expect(FACES.filter((r) => isHit(r, 10, true))).toHaveLength(45);
    expect(FACES.filter((r) => isHit(r, 0, true))).toEqual(FACES.slice(50));
  });

  it('"A result of 1-33 ... 1d15% penalty ... 34-66 ... as normal ... 67-100 ... 1d15% increased"', () => {
    expect(FACES.map(varianceDirection).filter((d) => d === -1)).toHaveLength(33);
    expect(FACES.map(varianceDirection).filter((d) => d === 0)).toHaveLength(33);
    expect(FACES.map(varianceDirection).filter((d) => d === 1)).toHaveLength(34);
    expect([33, 34, 66, 67].map(varianceDirection)).toEqual([-1, 0, 0, 1]);
  });

  it('"if a character\'s critical rate is 5%, a roll from 1-5 would result in a critical hit"', () => {
    expect(FACES.filter((r) => isCritical(r, 5))).toEqual([1, 2, 3, 4, 5]);
  });

  it('"if the target had a 15% counter rate, a roll of 1-15 would result in a counter attack"', () => {
    expect(FACES.filter((r) => isCounter(r, 15))).toEqual(FACES.slice(0, 15));
  });
});

describe('damage: Attack minus Defence, then variance, then critical', () => {
  it('rounds down at each step and keeps the minimum', () => {
    expect(attackDamage(15, 5, 0, null, 1).amount).toBe(10);
    expect(attackDamage(15, 5, -15, null, 1).amount).toBe(8);
    expect(attackDamage(15, 5, 15, null, 1).amount).toBe(11);
    expect(attackDamage(15, 5, 0, 150, 1).amount).toBe(15);
    expect(attackDamage(4, 9, 0, null, 1).amount).toBe(1);
    expect(attackDamage(4, 9, 0, null, 0).amount).toBe(0);
    expect(attackDamage(15, 5, 10, 150, 1).steps).toEqual([
      'ATT 15 - DEF 5 = 10',
      '+10% = 11',
      'critical 150% = 16',
    ]);
  });
});

describe('status chances and Luck', () => {
  it('"Syntesis has 6 luck and casts Desoul (70% chance of working) against a target with 9 luck ... would drop to 50%": 51% by the default reading', () => {
    expect(statusChance(70, 6, 9, 'multiply')).toBe(51);
  });

  it('"drop by 10% for each difference in luck", read as 10 points a point: 40%', () => {
    expect(statusChance(70, 6, 9, 'subtract')).toBe(40);
    expect(statusChance(20, 1, 9, 'subtract')).toBe(0);
  });

  it('"especially if the caster has less luck than the target": more Luck gives no bonus', () => {
    for (const rule of ['multiply', 'subtract', 'none'] as const) {
      expect(statusChance(70, 9, 6, rule)).toBe(70);
      expect(statusChance(70, 6, 6, rule)).toBe(70);
    }
    expect(statusChance(70, 6, 9, 'none')).toBe(70);
  });
});

describe("a combatant's derived numbers", () => {
  it('are its own even when it shares an item list with another (kept per sheet, then list)', async () => {
    const { derived } = await import('../../../src/rulesets/shining-force/derived.js');
    const { readEncounterFile } = await import('../../../src/encounters/file.js');
    const { SYSTEMS } = await import('../../../src/rulesets/index.js');
    const read = readEncounterFile('examples/shining-force-gate.yaml', SYSTEMS);
    if (!read.ok) throw new Error('example does not load');
    const state = read.encounter.system.ruleset.initialState(
      read.encounter.setup,
    ) as ShiningForceState;
    const none: never[] = [];
    const ooze = { ...combatantOf(state, 'ooze')!, items: none };
    const mage = { ...combatantOf(state, 'dark-mage')!, items: none };
    expect(ooze.sheet.stats.agility).not.toBe(mage.sheet.stats.agility);
    expect(derived(state.setup, ooze).agility).toBe(ooze.sheet.stats.agility);
    expect(derived(state.setup, mage).agility).toBe(mage.sheet.stats.agility);
  });
});
