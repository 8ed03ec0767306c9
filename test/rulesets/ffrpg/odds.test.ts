/**
 * Odds for every action the legal list offers, checked against the rules: exact where the dice
 * allow, and against sampled play at a fixed seed (so they never flake).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededDice } from '../../../src/dice/index.js';
import {
  CommandDice,
  type DiceRoller,
  Encounter,
  type RollRecord,
} from '../../../src/engine/index.js';
import { type FfrpgCommand, type FfrpgState, ffrpg } from '../../../src/rulesets/ffrpg/index.js';
import { checkOdds } from '../../../src/rulesets/ffrpg/odds.js';
import { ffrpgSystem } from '../../../src/rulesets/ffrpg/system.js';
import {
  beginRound,
  type FfrpgEncounter,
  run,
  sheet,
  start,
  starterSetup,
  whoseTurn,
  windCaveSpec,
  windCaveWith,
} from './battle-helpers.js';
import { windCave } from './fixtures.js';

const SAMPLES = 4000;

/** Decides the command SAMPLES times on one seeded stream; what the events did. */
function sampled(state: FfrpgState, command: FfrpgCommand, seed: string) {
  const stream = seededDice(seed);
  let hits = 0;
  let criticals = 0;
  let statuses = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const decided = ffrpg.decide(state, command, new CommandDice(stream, { explain: false }));
    if (!decided.ok) throw new Error(decided.error.message);
    for (const e of decided.value) {
      if (e.type === 'attack-made' && e.check.success) hits++;
      if (e.type === 'attack-made' && e.check.critical) criticals++;
      if (e.type === 'status-inflicted') statuses++;
    }
  }
  return { hit: hits / SAMPLES, critical: criticals / SAMPLES, status: statuses / SAMPLES };
}

/** Five standard errors of a proportion, and a little for rounding. */
function close(p: number, observed: number): void {
  expect(Math.abs(p - observed)).toBeLessThanOrEqual(
    5 * Math.sqrt((p * (1 - p)) / SAMPLES) + 0.005,
  );
}

describe('attack odds', () => {
  it('"92 minus 22 would give Rob a CoS of 70": hit 70%, Critical 10%, exact and as sampled', () => {
    const encounter = start(starterSetup());
    beginRound(encounter);
    const attack: FfrpgCommand = { type: 'attack', actor: 'hiro', target: 'heket' };
    const odds = ffrpgSystem.odds(encounter.state, attack)!;
    expect(odds).toMatchObject({ target: 'heket', chance: 0.7, exact: true });
    expect(odds.summary).toBe('hit 70% · 11-54 · KO 0%');
    const seen = sampled(encounter.state, attack, 'odds:attack');
    close(0.7, seen.hit);
    close(0.1, seen.critical);
  });

  it('under the floors-the-cos Rule of 10 a roll of 1-10 below CoS 10 is no Critical', () => {
    const low = (reading: string) => {
      const setup = windCave({ options: { ruleOf10Reading: reading } as never });
      // ACC 42 + Guns 50 - EVA 87 = CoS 5.
      sheet(setup, 'heket').stats = { hp: 300, acc: 70, eva: 87, arm: 10, marm: 5 };
      const encounter = start(setup);
      beginRound(encounter);
      return encounter;
    };
    const attack: FfrpgCommand = { type: 'attack', actor: 'hiro', target: 'heket' };
    const floors = low('floors-the-cos');
    expect(checkOdds(floors.state, 5)).toEqual({ success: 0.1, critical: 0, automatic: false });
    expect(ffrpgSystem.odds(floors.state, attack)!.lines[1]).toBe(
      '  hits 10.0% (Critical Hit 0.0%), misses 90.0%',
    );
    expect(sampled(floors.state, attack, 'odds:floors').critical).toBe(0);
    // The chapter's reading: rolls at or under the CoS stay Critical Successes.
    const saves = low('saves-the-roll');
    expect(checkOdds(saves.state, 5)).toEqual({ success: 0.1, critical: 0.05, automatic: false });
    close(0.05, sampled(saves.state, attack, 'odds:saves').critical);
  });
});

describe('odds for every ability kind: Sleep, Cure, Protect, Darkside', () => {
  function starterAt(actor: string): FfrpgEncounter {
    const encounter = start(starterSetup());
    beginRound(encounter);
    while (whoseTurn(encounter) !== actor)
      run(encounter, { type: 'pass', actor: whoseTurn(encounter)! });
    return encounter;
  }

  it('every legal action that rolls has odds, with a short summary', () => {
    for (const actor of ['hiro', 'haze', 'mint', 'heket']) {
      const encounter = starterAt(actor);
      for (const action of encounter.legalActions()) {
        const rolls = ffrpgSystem.rolls(encounter.state, action.command);
        const odds = ffrpgSystem.odds(encounter.state, action.command);
        if (action.command.type === 'pass' || action.command.type === 'flee') {
          expect(odds, action.label).toBeUndefined();
          continue;
        }
        expect(odds, action.label).toBeDefined();
        expect(odds!.summary.length, action.label).toBeLessThanOrEqual(48);
        expect(rolls.length + (odds!.cost === undefined ? 0 : 1), action.label).toBeGreaterThan(0);
      }
    }
  });

  it('Darkside: its HP cost, +100% Shadow and the CoS of an Attack', () => {
    const encounter = starterAt('haze');
    const odds = ffrpgSystem.odds(encounter.state, {
      type: 'use-ability',
      actor: 'haze',
      ability: 'darkside',
      target: 'heket',
    })!;
    // ACC 40 + Swords 48 - EVA 22 = 66; 25% of 96 HP = 24.
    expect(odds).toMatchObject({ chance: 0.66, cost: '24 HP', target: 'heket', exact: true });
    // 2 x STR 9 + d10 = 19..28, +100% = 38..56, - ARM 10 = 28..46.
    expect(odds.damage).toMatchObject({ min: 28 });
    expect(odds.summary).toMatch(/^66% · 28-\d+ · 24 HP$/);
  });

  it('Cure heals 2 x MAG + d8 for 6 MP; Protect lands for 8 MP', () => {
    const encounter = starterAt('mint');
    const cure = ffrpgSystem.odds(encounter.state, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'cure',
      target: 'hiro',
    })!;
    // 2 x MAG 10 + d8
    expect(cure).toMatchObject({ chance: 1, cost: '6 MP', damage: { min: 21, max: 28 } });
    expect(cure.summary).toBe('heals 21-28 · 6 MP');
    const protect = ffrpgSystem.odds(encounter.state, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'protect-spell',
      target: 'haze',
    })!;
    expect(protect).toMatchObject({ status: 1, cost: '8 MP' });
    expect(protect.summary).toBe('Protect 100% · 8 MP');
  });

  it('Sleep: "(M. ACC - 50), M. Evasion" and its Charge Time; the chance as sampled when it goes off', () => {
    const encounter = starterAt('mint');
    const sleep: FfrpgCommand = {
      type: 'use-ability',
      actor: 'mint',
      ability: 'sleep-spell',
      target: 'heket',
    };
    const odds = ffrpgSystem.odds(encounter.state, sleep)!;
    // M. ACC 62 - 50 - M. EVA 10 = 2: the Rule of 10 makes it 10%.
    expect(odds).toMatchObject({ chance: 0.1, status: 0.1, cost: '10 MP', meanDamage: 0 });
    expect(odds.summary).toBe('10% · Sleep 10% · 10 MP · CT 2');
    // The same spell, not Slow, sampled.
    const setup = windCaveWith(
      {
        'sleep-now': {
          name: 'Sleep',
          type: 'magic',
          target: 'single',
          cos: { kind: 'formula', formula: 'MACC - 20', guard: 'meva' },
          inflicts: [{ status: 'sleep', timer: 6 }],
        },
      },
      { mint: ['sleep-now'] },
    );
    const fast = start(setup);
    beginRound(fast, {
      'initiative:mint': [10],
      'initiative:hiro': [1],
      'initiative:haze': [1],
      'initiative:heket': [1],
    });
    const now: FfrpgCommand = {
      type: 'use-ability',
      actor: 'mint',
      ability: 'sleep-now',
      target: 'heket',
    };
    const fastOdds = ffrpgSystem.odds(fast.state, now)!;
    // M. ACC 60 - 20 - M. EVA 0 = 40.
    expect(fastOdds.status).toBeCloseTo(0.4, 10);
    close(fastOdds.status!, sampled(fast.state, now, 'odds:sleep').status);
  });

  it('damage read from the target is exact: 50% of the HP left, the Cap on it', () => {
    const setup = windCaveWith(
      {
        gravity: {
          name: 'Gravity',
          type: 'magic',
          target: 'single',
          damage: { share: { percent: 50, of: 'hp' }, damageType: 'magical', ignoresArmor: true },
        },
      },
      { mint: ['gravity'] },
    );
    sheet(setup, 'heket').stats = { hp: 5000, acc: 70, eva: 22, arm: 10, marm: 5 };
    const encounter = start(setup);
    beginRound(encounter, {
      'initiative:mint': [10],
      'initiative:hiro': [1],
      'initiative:haze': [1],
      'initiative:heket': [1],
    });
    const odds = ffrpgSystem.odds(encounter.state, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'gravity',
      target: 'heket',
    })!;
    expect(odds).toMatchObject({ meanDamage: 999, damage: { min: 999, max: 999 }, knockOut: 0 });
  });

  it('a Task Check: its CoS with the Conditional Modifier, exact', () => {
    const encounter = starterAt('hiro');
    const odds = ffrpgSystem.odds(encounter.state, {
      type: 'task-check',
      actor: 'hiro',
      skill: 'Awareness',
      modifier: -20,
      impossible: false,
      called: true,
    })!;
    expect(odds).toMatchObject({ chance: 0.3, summary: 'success 30%', exact: true });
  });
});

/** Records every purpose a command asks for. */
class Recording implements DiceRoller {
  readonly purposes: string[] = [];
  constructor(private readonly inner: DiceRoller) {}
  roll(...args: Parameters<DiceRoller['roll']>): RollRecord {
    const record = this.inner.roll(...args);
    this.purposes.push(record.purpose.replace(/#\d+$/, ''));
    return record;
  }
}

describe('rolls(): every roll a command may ask for', () => {
  it('lists every purpose decide asks, for random legal actions at random seeds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e6 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (seed, picks) => {
          const created = Encounter.create(ffrpg, starterSetup(windCaveSpec()), seed);
          if (!created.ok) throw new Error(created.error.message);
          const encounter = created.value;
          const stream = seededDice(`rolls:${seed}`);
          for (const pick of picks) {
            const actions = encounter.legalActions();
            if (actions.length === 0) break;
            const command = actions[pick % actions.length]!.command;
            const listed = new Set(
              ffrpgSystem.rolls(encounter.state, command).map((r) => r.purpose),
            );
            const recording = new Recording(new CommandDice(stream));
            const decided = ffrpg.decide(encounter.state, command, recording);
            expect(decided.ok).toBe(true);
            for (const purpose of recording.purposes)
              expect(listed, JSON.stringify(command)).toContain(purpose);
            encounter.submit(command);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a Slow ability's dice are asked when its Charge Time runs out, by the command that gets there", () => {
    const encounter = start(starterSetup());
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    const sleep: FfrpgCommand = {
      type: 'use-ability',
      actor: 'mint',
      ability: 'sleep-spell',
      target: 'heket',
    };
    expect(ffrpgSystem.rolls(encounter.state, sleep)).toEqual([]);
    const declared = encounter.submit(sleep, { enterAll: true });
    expect(declared.ok).toBe(true);
    // The Heket acts at 12; Sleep goes off at 10, when the Heket's turn ends: Mint's roll still.
    const pass: FfrpgCommand = { type: 'pass', actor: 'heket' };
    expect(ffrpgSystem.rolls(encounter.state, pass)).toMatchObject([
      { purpose: 'effect:heket', notation: 'd%', roller: 'mint', label: 'd% (tens, units)' },
    ]);
    const asked = encounter.submit(pass, { enterAll: true });
    expect(asked).toMatchObject({ ok: false, error: { code: 'dice/needs-entry' } });
    const resolved = encounter.submit(pass, { entered: { 'effect:heket': [0, 5] } });
    if (!resolved.ok) throw new Error(resolved.error.message);
    expect(resolved.value.map((e) => e.type)).toContain('status-inflicted');
  });
});
