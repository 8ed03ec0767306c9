/**
 * Attacks as the text rolls them: five d100s (hit, variance, one to four criticals, counter,
 * counter variance), damage as Attack minus Defence, and counters at full strength that land
 * even when the defender falls.
 */
import { describe, expect, it } from 'vitest';
import { combatantOf } from '../../../src/rulesets/shining-force/state.js';
import { attackDice, battle, begin, ofType, rejected, run, sheet, whoseTurn } from './helpers.js';

// Max: Attack 10 + Short Sword 5 = 15, Defence 4, evade 8/4 + 1 = 3, critical 1, counter 1 + 1 = 2.
// Goblin: Attack 10, Defence 4, evade 3, counter 2. Equal Agility: the Force goes first.
function duel(goblin: Parameters<typeof sheet>[2] = {}, options: Record<string, unknown> = {}) {
  return begin(battle([sheet('max', 'A1')], [sheet('goblin', 'B1', goblin)], options));
}

describe('an attack: five d100s', () => {
  it('rolls all five and shows them: hit 10 against evade 3, damage 15 - 4 = 11', () => {
    const e = duel();
    expect(whoseTurn(e)).toBe('max');
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [10, 50, 50, 99, 50]),
    );
    const [attack] = ofType(events, 'attacked');
    expect(attack!.attack.hit).toBe(true);
    expect(attack!.attack.hitRoll.total).toBe(10);
    expect(attack!.attack.variance.roll.total).toBe(50);
    expect(attack!.attack.criticals.map((c) => c.roll.total)).toEqual([50]);
    expect(attack!.attack.counterRoll.total).toBe(99);
    expect(attack!.attack.counterVariance.roll.total).toBe(50);
    const [damage] = ofType(events, 'damage-dealt');
    expect(damage).toMatchObject({ target: 'goblin', amount: 11, hpAfter: 9, counter: false });
    expect(damage!.breakdown).toBe('ATT 15 - DEF 4 = 11');
    expect(whoseTurn(e)).toBe('goblin');
  });

  it('a roll at or under the evade rate misses: no damage, no critical, no counter', () => {
    const e = duel();
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [3, 50, 1, 1, 50]),
    );
    const [attack] = ofType(events, 'attacked');
    expect(attack!.attack.hit).toBe(false);
    expect(attack!.attack.critical).toBeNull();
    expect(attack!.attack.counter).toBe(false);
    expect(ofType(events, 'damage-dealt')).toHaveLength(0);
  });

  it('"1-33 means that the damage dealt takes a 1d15% penalty": 11 at -10% is 9', () => {
    const e = duel();
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 20, 50, 99, 50], { 'variance-amount:goblin': [10] }),
    );
    expect(ofType(events, 'damage-dealt')[0]!.amount).toBe(9);
    expect(ofType(events, 'attacked')[0]!.attack.variance.percent).toBe(-10);
  });

  it('"67-100 means that the damage dealt is 1d15% increased": 11 at +15% is 12', () => {
    const e = duel();
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 67, 50, 99, 50], { 'variance-amount:goblin': [15] }),
    );
    expect(ofType(events, 'damage-dealt')[0]!.amount).toBe(12);
  });

  it('"Critical hits cannot be countered": a critical at 150% and no counter though the roll is 1', () => {
    const e = duel();
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 1, 1, 50]),
    );
    const [attack] = ofType(events, 'attacked');
    expect(attack!.attack.critical).toEqual({ level: 1, damagePercent: 150 });
    expect(attack!.attack.counter).toBe(false);
    expect(ofType(events, 'damage-dealt').map((d) => d.amount)).toEqual([16]);
  });

  it('"a counter attack ... happens simultaneously": the defender defeated by the attack still deals it', () => {
    const e = duel({ hp: 11 });
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 2, 50]),
    );
    const damage = ofType(events, 'damage-dealt');
    expect(damage.map((d) => [d.target, d.amount, d.hpAfter, d.counter])).toEqual([
      ['goblin', 11, 0, false],
      ['max', 6, 14, true],
    ]);
    expect(ofType(events, 'defeated').map((d) => d.target)).toEqual(['goblin']);
    expect(e.outcome()).toMatchObject({ over: true, winner: 'force' });
  });

  it('"Counter attacks cannot critical" and "there are no double attacks": one critical roll, for the attack only', () => {
    const e = duel();
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 1, 80], { 'counter-variance-amount:goblin': [10] }),
    );
    expect(ofType(events, 'attacked')).toHaveLength(1);
    const counter = ofType(events, 'damage-dealt').find((d) => d.counter)!;
    expect(counter.amount).toBe(6); // 10 - 4 = 6, +10% = 6
    expect(counter.breakdown).not.toMatch(/critical/);
  });

  it('both fall at once: a draw', () => {
    const low = begin(battle([sheet('max', 'A1', { hp: 5 })], [sheet('goblin', 'B1', { hp: 11 })]));
    run(
      low,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 2, 50]),
    );
    expect(low.outcome()).toMatchObject({ over: true, winner: null });
  });

  it('weapon mastery rolls one to three criticals, and a weapon with a special critical one more', () => {
    const e = begin(
      battle(
        [
          sheet('max', 'A1', {
            mastery: 3,
            items: [{ item: 'steel-sword', cracked: false, equipped: true }],
            stats: { luck: 20 },
          }),
        ],
        [sheet('goblin', 'B1', { stats: { hp: 60 } })],
      ),
    );
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      {
        'hit:goblin': [50],
        'variance:goblin': [50],
        'critical:goblin': [90],
        'critical:goblin#2': [10],
        'critical:goblin#3': [90],
        'critical:goblin#4': [99],
        'counter:goblin': [99],
        'counter-variance:goblin': [50],
      },
    );
    const [attack] = ofType(events, 'attacked');
    // Critical 20: level 1 at 20, level 2 at half (10), level 3 at a quarter (5), Sleep Blow at 8.
    expect(attack!.attack.criticals.map((c) => [c.level, c.rate, c.success])).toEqual([
      [1, 20, false],
      [2, 10, true],
      [3, 5, false],
      ['special', 8, false],
    ]);
    expect(attack!.attack.critical).toEqual({ level: 2, damagePercent: 175 });
    // Attack 10 + 12 = 22 - 4 = 18, critical 175% = 31.
    expect(ofType(events, 'damage-dealt')[0]!.amount).toBe(31);
  });

  it("a weapon's special critical puts its status on a target left standing", () => {
    const e = begin(
      battle(
        [sheet('max', 'A1', { items: [{ item: 'steel-sword', cracked: false, equipped: true }] })],
        [sheet('goblin', 'B1', { stats: { hp: 60, luck: 1 } })],
      ),
    );
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      {
        ...attackDice('goblin', [50, 50, 90, 99, 50]),
        'critical:goblin#2': [8],
        'status:goblin': [60],
      },
    );
    expect(ofType(events, 'attacked')[0]!.attack.critical).toEqual({
      level: 'special',
      damagePercent: 150,
    });
    expect(ofType(events, 'status-inflicted')[0]!.instance).toMatchObject({
      status: 'sleep',
      turns: 2,
    });
  });
});

describe('who can counter', () => {
  it("an attacker out of the defender's reach is not countered (a spear from two cells away)", () => {
    const e = begin(
      battle(
        [sheet('ken', 'A1', { items: [{ item: 'spear', cracked: false, equipped: true }] })],
        [sheet('goblin', 'C1')],
      ),
    );
    const events = run(
      e,
      { type: 'attack', actor: 'ken', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 1, 50]),
    );
    expect(ofType(events, 'attacked')[0]!.attack).toMatchObject({
      counter: false,
      noCounter: 'out of reach',
    });
  });

  it('option counterNeedsReach: false lets the defender strike back anyway', () => {
    const e = begin(
      battle(
        [sheet('ken', 'A1', { items: [{ item: 'spear', cracked: false, equipped: true }] })],
        [sheet('goblin', 'C1')],
        { counterNeedsReach: false },
      ),
    );
    const events = run(
      e,
      { type: 'attack', actor: 'ken', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 1, 50]),
    );
    expect(ofType(events, 'attacked')[0]!.attack.counter).toBe(true);
  });

  it('a sleeping defender does not counter', () => {
    const e = begin(battle([sheet('max', 'A1')], [sheet('goblin', 'B1')]));
    // Put the goblin to sleep with a special critical would take a weapon; use the state directly.
    const asleep = {
      ...combatantOf(e.state, 'goblin')!,
      statuses: [{ status: 'sleep' as const, turns: 2 }],
    };
    const state = {
      ...e.state,
      combatants: e.state.combatants.map((c) => (c.id === 'goblin' ? asleep : c)),
    };
    const decided = e.ruleset.decide(
      state,
      { type: 'attack', actor: 'max', target: 'goblin' },
      {
        roll: (purpose: string, notation: string) => ({
          purpose,
          notation,
          total: purpose.startsWith('counter:') ? 1 : 50,
          dice: [],
          text: '',
          entered: true,
        }),
      },
    );
    expect(decided.ok).toBe(true);
    if (decided.ok) {
      const attack = decided.value.find((ev) => ev.type === 'attacked');
      expect(attack?.type === 'attacked' && attack.attack.noCounter).toBe('asleep');
    }
  });
});

describe('what an attack needs', () => {
  it('"Force members may not attack unarmed"', () => {
    const e = begin(
      battle(
        [
          sheet('max', 'A1', {
            items: [{ item: 'medical-herb', cracked: false, equipped: false }],
          }),
        ],
        [sheet('goblin', 'B1')],
      ),
    );
    rejected(e, { type: 'attack', actor: 'max', target: 'goblin' }, 'action/unarmed');
    expect(e.legalActions().some((a) => a.command.type === 'attack')).toBe(false);
  });

  it("the target must be in the weapon's range, an enemy, and it must be the attacker's turn", () => {
    const e = begin(battle([sheet('max', 'A1'), sheet('ken', 'A2')], [sheet('goblin', 'C1')]));
    rejected(e, { type: 'attack', actor: 'max', target: 'goblin' }, 'action/out-of-range');
    rejected(e, { type: 'attack', actor: 'max', target: 'ken' }, 'action/friendly-target');
    rejected(e, { type: 'attack', actor: 'ken', target: 'goblin' }, 'action/not-your-turn');
    rejected(e, { type: 'attack', actor: 'max', target: 'nobody' }, 'action/unknown-target');
    rejected(e, { type: 'attack', actor: 'max' }, 'command/invalid');
  });
});
