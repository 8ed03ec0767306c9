/**
 * The odds of every action, exact from the distribution of the action dice, checked against
 * the text's numbers and against sampled play at fixed seeds (so they never flake); and the
 * rolls each command lists, checked against the rolls decide asks for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diceDistribution, seededDice } from '../../../src/dice/index.js';
import { CommandDice, type DiceRoller, type RollRecord } from '../../../src/engine/index.js';
import {
  ACTION_DICE,
  type FfviiiCommand,
  type FfviiiState,
  ffviii,
  ffviiiSystem,
} from '../../../src/rulesets/ffviii/index.js';
import {
  beginRound,
  EHLRIC,
  type FfviiiEncounter,
  GIANT,
  ironGiantWith,
  run,
  start,
} from './helpers.js';

/** P(action dice >= n), from the dice engine's distribution. */
function atLeast(n: number): number {
  let p = 0;
  for (const [value, weight] of diceDistribution(ACTION_DICE).distribution)
    if (value >= n) p += weight;
  return p;
}

const odds = (state: FfviiiState, command: FfviiiCommand) => {
  const found = ffviiiSystem.odds(state, command);
  if (found === undefined) throw new Error(`no odds for ${JSON.stringify(command)}`);
  return found;
};

describe('odds from the text', () => {
  it('the staff: "The Iron Giant\'s Dodge rating is 6": AV 11 hits on dice of -5 or more; dodging, -2', () => {
    const encounter = start();
    beginRound(encounter);
    const staff = odds(encounter.state, {
      type: 'attack',
      actor: EHLRIC,
      target: GIANT,
      weapon: 'staff',
    });
    expect(staff.chance).toBeCloseTo(atLeast(-5), 12);
    expect(staff.lines.join('\n')).toContain(`${(atLeast(-2) * 100).toFixed(1)}% if dodged`);
    // Nothing rolls until the Giant answers.
    expect(staff).toMatchObject({ meanDamage: 0, knockOut: 0, exact: true, cost: '4 shots' });
    expect(staff.summary.length).toBeLessThanOrEqual(45);
  });

  it('Thunder: "a Magic Evade attribute of 1, and even with dodging, it only rises to 4"; 15 - Spirit against lightning 3 = 12', () => {
    const encounter = start();
    beginRound(encounter);
    const thunder = odds(encounter.state, {
      type: 'cast',
      actor: EHLRIC,
      spell: 'thunder',
      target: GIANT,
    });
    expect(thunder.chance).toBeCloseTo(atLeast(1 - 10), 12);
    expect(thunder.damage).toEqual({ min: 12, mean: 12, max: 12 });
    expect(thunder.lines.join('\n')).toContain('damage 15 - Spirit against lightning 3 = 12');
    expect(thunder.lines.join('\n')).toContain(`${(atLeast(4 - 10) * 100).toFixed(1)}% if dodged`);
  });

  it('the answer to an attack: the chance it lands either way, and what the dodge costs', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'staff' });
    const dodge = odds(encounter.state, { type: 'dodge', actor: GIANT });
    const take = odds(encounter.state, { type: 'take-it', actor: GIANT });
    expect(dodge.chance).toBeCloseTo(atLeast(9 - 11), 12);
    expect(take.chance).toBeCloseTo(atLeast(6 - 11), 12);
    expect(dodge.cost).toBe('1 shot: Iron Giant acts next on shot 11');
    expect(dodge.summary).toContain('-1 shot');
    // "he would have had enough accuracy ... 4 or more above the Giant's dodge of 6": a result of
    // 10 does 1, so the mean is the sum over margins of (margin - 3).
    let mean = 0;
    for (const [t, p] of diceDistribution(ACTION_DICE).distribution) {
      const margin = 11 + t - 6;
      if (margin >= 0) mean += Math.max(0, 12 + margin - 15) * p;
    }
    expect(take.meanDamage).toBeCloseTo(mean, 9);
  });

  it('under boxcars: always, success is 35/36 of the chance the dice reach the difficulty', () => {
    const encounter = start(ironGiantWith((s) => (s.options.boxcars = 'always')));
    beginRound(encounter);
    const staff = odds(encounter.state, {
      type: 'attack',
      actor: EHLRIC,
      target: GIANT,
      weapon: 'staff',
    });
    expect(staff.chance).toBeCloseTo((atLeast(-5) * 35) / 36, 12);
  });

  it('summons show compatibility in their cost; draw, sense, items and reloads have odds too', () => {
    const encounter = start();
    beginRound(encounter);
    const legal = encounter.legalActions();
    const none = ['wait', 'pass', 'flee'];
    for (const action of legal)
      if (!none.includes(action.command.type))
        expect(odds(encounter.state, action.command).summary).not.toBe('');
    const summon = odds(encounter.state, {
      type: 'summon',
      actor: EHLRIC,
      gf: 'infernus',
      target: GIANT,
    });
    expect(summon.cost).toContain('compatibility 4');
    const draw = odds(encounter.state, {
      type: 'draw',
      actor: EHLRIC,
      target: GIANT,
      spell: 'thunder',
    });
    // Sorcery 10 against the higher of Spirit 7 and Magic Evade 1.
    expect(draw.chance).toBeCloseTo(atLeast(-3), 12);
  });
});

/** A dice roller that remembers every purpose asked. */
class Recording implements DiceRoller {
  readonly asked: string[] = [];
  readonly explain = false;
  constructor(private readonly inner: DiceRoller) {}
  roll(...args: Parameters<DiceRoller['roll']>): RollRecord {
    const record = this.inner.roll(...args);
    this.asked.push(record.purpose.replace(/#\d+$/, ''));
    return record;
  }
}

/** decide `n` times from one state at a fixed seed: what sampled play gives. */
function sample(state: FfviiiState, command: FfviiiCommand, target: string, n: number) {
  const stream = seededDice(`odds:${JSON.stringify(command)}`);
  let damage = 0;
  let squares = 0;
  let out = 0;
  let hits = 0;
  let checks = 0;
  for (let i = 0; i < n; i++) {
    const decided = ffviii.decide(state, command, new CommandDice(stream, { explain: false }));
    if (!decided.ok) throw new Error(decided.error.message);
    let after = state;
    let dealt = 0;
    for (const event of decided.value) {
      after = ffviii.evolve(after, event);
      const d = ffviiiSystem.damageOf(event);
      if (d?.target === target) dealt += d.amount;
      if (event.type === 'check-rolled' && event.target === target) {
        checks++;
        if (event.check.success) hits++;
      }
    }
    damage += dealt;
    squares += dealt * dealt;
    if (ffviiiSystem.brief(after).combatants.find((c) => c.id === target)?.out) out++;
  }
  const mean = damage / n;
  return {
    mean,
    sd: Math.sqrt(Math.max(0, squares / n - mean * mean)),
    out: out / n,
    hit: checks === 0 ? undefined : hits / checks,
  };
}

/** States along a fight: the start of a round, an attack waiting on its answer, a hurt Giant. */
function states(): FfviiiEncounter[] {
  const fresh = () => {
    const e = start();
    beginRound(e);
    return e;
  };
  const declared = fresh();
  run(declared, { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'staff' });
  const hurt = fresh();
  run(hurt, { type: 'gm-set', target: GIANT, resource: 'hp', value: 4 });
  const hurtDeclared = fresh();
  run(hurtDeclared, { type: 'gm-set', target: GIANT, resource: 'hp', value: 4 });
  run(hurtDeclared, { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'pet' });
  // The Giant out of shots cannot dodge: the swing rolls at once, and can fell it.
  const cornered = fresh();
  run(cornered, { type: 'gm-set', target: GIANT, resource: 'hp', value: 3 });
  run(cornered, { type: 'gm-clock', target: GIANT, value: 0 });
  // Ehlric hurt, on the Giant's shot: his answer to the sword.
  const giantTurn = fresh();
  run(giantTurn, { type: 'gm-set', target: EHLRIC, resource: 'hp', value: 6 });
  run(giantTurn, { type: 'wait', actor: EHLRIC, shots: 5 });
  run(giantTurn, { type: 'attack', actor: GIANT, target: EHLRIC });
  return [fresh(), declared, hurt, hurtDeclared, cornered, giantTurn];
}

describe('odds against sampled play (fixed seeds)', () => {
  it('mean damage, knock-outs and hit chance of every legal action match what decide gives', () => {
    const n = 3000;
    let compared = 0;
    for (const encounter of states()) {
      for (const action of encounter.legalActions()) {
        const o = ffviiiSystem.odds(encounter.state, action.command);
        if (o?.target === undefined || o.meanDamage === undefined) continue;
        const s = sample(encounter.state, action.command, o.target, n);
        const label = `${action.label}: ${o.summary}`;
        expect(Math.abs(s.mean - o.meanDamage), label).toBeLessThanOrEqual(
          (5 * s.sd) / Math.sqrt(n) + 1e-9,
        );
        const koSe = Math.sqrt(((o.knockOut ?? 0) * (1 - (o.knockOut ?? 0))) / n);
        expect(Math.abs(s.out - (o.knockOut ?? 0)), label).toBeLessThanOrEqual(5 * koSe + 1e-9);
        if (s.hit !== undefined && o.chance !== undefined) {
          const se = Math.sqrt((o.chance * (1 - o.chance)) / n);
          expect(Math.abs(s.hit - o.chance), label).toBeLessThanOrEqual(5 * se + 2e-3);
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('knock-outs are counted: a cornered Giant with 3 HP falls to the pet when the shot ends', () => {
    const cornered = states()[4]!;
    const pet = odds(cornered.state, {
      type: 'attack',
      actor: EHLRIC,
      target: GIANT,
      weapon: 'pet',
    });
    expect(pet.knockOut).toBeGreaterThan(0.1);
    expect(pet.summary).toContain('KO');
  });
});

describe('rolls: every purpose decide asks for is listed', () => {
  it('for random legal actions (and GM commands) at random seeds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.nat(), { minLength: 5, maxLength: 40 }),
        (seed, picks) => {
          const encounter = start(undefined, seed);
          const stream = seededDice(seed);
          let state = encounter.state;
          for (const [i, pick] of picks.entries()) {
            const legal = ffviii.legalActions(state);
            if (legal.length === 0) break;
            let command = legal[pick % legal.length]!.command;
            if (i % 7 === 3)
              command = {
                type: 'gm-damage',
                target: state.order[pick % state.order.length]!,
                amount: '1d6',
                raw: false,
              };
            const listed = new Set(ffviiiSystem.rolls(state, command).map((r) => r.purpose));
            const recording = new Recording(new CommandDice(stream, { explain: false }));
            const decided = ffviii.decide(state, command, recording);
            if (!decided.ok) continue;
            for (const purpose of recording.asked)
              expect(listed, JSON.stringify(command)).toContain(purpose);
            for (const event of decided.value) state = ffviii.evolve(state, event);
          }
        },
      ),
      { numRuns: 60, seed: 11 },
    );
  });
});
