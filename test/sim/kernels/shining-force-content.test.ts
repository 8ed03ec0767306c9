/**
 * The kernel against the loop over the rules on what the gate example never reaches: every
 * status, curse, area effect, cure, Desoul, special and mastery critical and item's wear
 * (fixtures/statuses.yaml, fixtures/rites.yaml), ranged weapons on costly terrain
 * (fixtures/ranged.yaml), three and four sides, each under every option the setup has.
 */
import { describe, expect, it } from 'vitest';
import {
  caseOf,
  compared,
  encounterText,
  fixture,
  fixtureWith,
  mismatches,
  rulesMet,
} from './helpers.js';

/** Each option of optionsSchema (model.ts) away from its default, one at a time. */
const OPTIONS: readonly Record<string, unknown>[] = [
  {},
  { turnOrderSpread: 0 },
  { turnOrderSpread: 100 },
  { minimumDamage: 0 },
  { criticalDamagePercent: [110, 300, 1000], criticalRatePercent: [100, 100, 100] },
  { criticalRatePercent: [0, 0, 0] },
  { statusLuck: 'subtract' },
  { statusLuck: 'none' },
  { counterNeedsReach: false },
  { passThroughAllies: false },
  { maxRounds: 2 },
  { crackOnAttack: true },
];

const FIXTURES = ['statuses', 'rites', 'ranged', 'three-sides', 'four-sides'];

/** What battles under an option must meet for the option to have been played at all. */
function mustMeet(options: Record<string, unknown>, name: string): string[] {
  if (options.maxRounds !== undefined) return ['battle undecided'];
  if (options.crackOnAttack === true) return ['item cracked', 'item broke'];
  if (options.criticalRatePercent?.toString() === '100,100,100' && name === 'statuses')
    return ['critical: 3'];
  return ['battle won'];
}

describe('the kernel plays what the gate does not reach, under every option', () => {
  for (const name of FIXTURES) {
    for (const options of OPTIONS) {
      it(`${name}, options ${JSON.stringify(options)}: the same battles both ways (12)`, () => {
        const c = caseOf(`${name} ${JSON.stringify(options)}`, fixtureWith(name, options));
        const { met, see } = rulesMet();
        const both = compared(c, `${name}-options`, 0, 12, see);
        expect(both.mismatches).toEqual([]);
        expect(both.kernel).toEqual(both.loop);
        for (const rule of mustMeet(options, name)) expect(met[rule] ?? 0, rule).toBeGreaterThan(0);
      });
    }
  }
});

describe('the fixtures meet every rule the kernel writes out again', () => {
  it('statuses, curses, Illusion, Frozen, area effects, healing, cures, Desoul, criticals, wear', () => {
    const { met, see } = rulesMet();
    for (const [name, options] of [
      ['statuses', {}],
      ['statuses', { crackOnAttack: true }],
      ['rites', {}],
    ] as const) {
      const c = caseOf(name, fixtureWith(name, options));
      expect(mismatches(c, 'met', 0, 25, see)).toEqual([]);
    }
    const rules = [
      // turns.ts startOfTurn: Sleep, Paralysis, a curse's paralysis, Confusion's three ways.
      'turn lost: asleep',
      'paralysed: acts',
      'paralysed: does-nothing',
      'curse: acts',
      'curse: does-nothing',
      'confused: acts',
      'confused: does-nothing',
      'confused: attacks-friend',
      'turn lost: confused, no friend in reach',
      'turn frozen in place',
      // turns.ts endTurn: Poison and the curses' HP and MP loss.
      'poison: HP lost',
      'curse: HP lost',
      'curse: MP lost',
      // combat.ts inflict: every status a spell, a bite or a special critical puts on.
      'inflicted: charmed',
      'inflicted: confused',
      'inflicted: frozen',
      'inflicted: illusion',
      'inflicted: paralysed',
      'inflicted: poison',
      'inflicted: sleep',
      // combat.ts attack.
      'attack under Illusion',
      'attack missed',
      'counter',
      'critical: 1',
      'critical: 2',
      'critical: 3',
      'critical: special',
      // combat.ts applyEffect: one target and several, healing, cures, Desoul.
      'spell on one',
      'spell on several',
      'item on one',
      'item on several',
      'healed',
      'ended: cured',
      'instantly defeated',
      // combat.ts wear and defeat.
      'item good',
      'item cracked',
      'item broke',
      'item used-up',
      'defeated',
      'EXP',
    ];
    const missed = rules.filter((rule) => (met[rule] ?? 0) === 0);
    expect(missed).toEqual([]);
  });

  it('reads an encounter written as text (parseEncounterText) as it reads the file', () => {
    // The two-sided rites fixture with an option given inline, and the file itself.
    const text = encounterText(
      'inline',
      [
        'format: 1',
        'ruleset: shining-force',
        'content: [content]',
        'battlefield: { rows: ["......", "..f...", "......"] }',
        'sides:',
        '  - { id: force, name: Force, force: true, combatants: [{ character: cleric, at: A1 }, { character: blade, at: A3 }] }',
        '  - { id: monsters, name: Monsters, combatants: [{ monster: necromancer, at: F2 }, { monster: siren, at: E1 }] }',
        'options: { turnOrderSpread: 0, maxRounds: 8 }',
      ].join('\n'),
    );
    const both = compared(caseOf('inline', text), 'inline', 0, 20);
    expect(both.mismatches).toEqual([]);
    expect(both.kernel).toEqual(both.loop);
    expect(caseOf('rites', fixture('rites')).start.combatants).toHaveLength(8);
  });
});
