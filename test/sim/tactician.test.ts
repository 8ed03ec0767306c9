import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeededDice } from '../../src/dice/index.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import type { CommandBase, LegalAction } from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { FastDice } from '../../src/sim/fast-dice.js';
import { DEFAULT_POLICY, policyNamed } from '../../src/sim/policies.js';
import { runBattles } from '../../src/sim/runner.js';
import { atLeast, cappedMean } from '../../src/sim/tactician/core.js';
import { tactician } from '../../src/sim/tactician/index.js';

const EXAMPLES = [
  'examples/ffrpg-wind-cave.yaml',
  'examples/ffviii-iron-giant.yaml',
  'examples/shining-force-gate.yaml',
  'examples/zodiac-keef-and-the-ogre.yaml',
];

function encounter(file: string) {
  const read = readEncounterFile(file, SYSTEMS);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.encounter;
}

/** Plays a battle under the tactician, handing every decision with a choice to `see`. */
function play(
  file: string,
  seed: string,
  see: (
    state: unknown,
    actions: readonly LegalAction<CommandBase>[],
    chosen: LegalAction<CommandBase>,
  ) => void,
): void {
  const { system, setup } = encounter(file);
  const { ruleset } = system;
  const dice = new FastDice(SeededDice.fromSeed(seed));
  const choices = SeededDice.fromSeed(`${seed}:policy`);
  let state = ruleset.initialState(setup);
  for (let i = 0; i < 2000 && !ruleset.outcome(state).over; i++) {
    const actions = ruleset.legalActions(state);
    const chosen = tactician(system, state, actions, choices);
    see(state, actions, chosen);
    const decided = ruleset.decide(state, chosen.command, dice);
    if (!decided.ok) throw new Error(decided.error.message);
    for (const e of decided.value) state = ruleset.evolve(state, e);
  }
}

describe('the tactician', () => {
  it('is the default policy', () => {
    expect(DEFAULT_POLICY).toBe('tactician');
    expect(policyNamed('tactician')).toBe(tactician);
  });

  it('casts Thunder on the Iron Giant: its expected 11.7 HP beat the staff and the claws', () => {
    let thunder = 0;
    let staff = 0;
    play('examples/ffviii-iron-giant.yaml', 'thunder', (_s, _a, chosen) => {
      const c = chosen.command as { type: string; spell?: string; weapon?: string };
      if (c.type === 'cast' && c.spell === 'thunder') thunder++;
      if (c.type === 'attack' && c.weapon === 'staff') staff++;
    });
    expect(thunder).toBeGreaterThan(0);
    expect(staff).toBe(0);
  });

  it('beats the Iron Giant more often than every naive policy (fixed seed)', () => {
    const { system, setup } = encounter('examples/ffviii-iron-giant.yaml');
    const rate = (name: string) => {
      const agg = runBattles(system, setup, policyNamed(name)!, {
        seed: 'giant',
        from: 0,
        to: 300,
      });
      return (agg.wins.ehlric ?? 0) / agg.battles;
    };
    const mine = rate('tactician');
    for (const naive of ['focus-weakest', 'random', 'attacker', 'first'])
      expect(mine, naive).toBeGreaterThan(rate(naive));
  });

  it.each(EXAMPLES)('%s: the same battle for the same seed', (file) => {
    const { system, setup } = encounter(file);
    const a = runBattles(system, setup, tactician, { seed: 'same', from: 0, to: 20 });
    const b = runBattles(system, setup, tactician, { seed: 'same', from: 0, to: 20 });
    expect(b).toEqual(a);
  });

  it.each(EXAMPLES)('%s: always returns one of the legal actions it was given', (file) => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (n) => {
        play(file, `legal:${n}`, (_s, actions, chosen) => {
          expect(actions).toContain(chosen);
        });
      }),
      { numRuns: 5, seed: 15 },
    );
  });

  it('Shining Force: a unit with nobody in reach moves toward the enemy rather than stand still', () => {
    let stood = 0;
    let moved = 0;
    play('examples/shining-force-gate.yaml', 'advance', (_s, actions, chosen) => {
      const canAttack = actions.some((a) => a.command.type === 'attack');
      const canMove = actions.some((a) => a.command.type === 'move');
      if (canAttack || !canMove) return;
      if (chosen.command.type === 'stay') stood++;
      if (chosen.command.type === 'move') moved++;
    });
    expect(moved).toBeGreaterThan(stood);
  });
});

describe('damage known by its min, mean and max', () => {
  it('a fixed amount is exact: Thunder for 12 knocks out a 12-HP target, not a 13-HP one', () => {
    const thunder = { min: 12, mean: 12, max: 12 };
    expect(atLeast(thunder, 12)).toBe(1);
    expect(atLeast(thunder, 13)).toBe(0);
    expect(cappedMean(thunder, 5)).toBe(5);
    expect(cappedMean(thunder, 40)).toBe(12);
  });

  it('chances fall and capped means rise with the HP, within their bounds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 100 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 200 }),
        (min, width, at, hp) => {
          const max = min + width;
          const d = { min, mean: min + at * width, max };
          expect(atLeast(d, hp + 1)).toBeLessThanOrEqual(atLeast(d, hp) + 1e-12);
          expect(cappedMean(d, hp)).toBeLessThanOrEqual(Math.min(hp, d.mean) + 1e-9);
          expect(cappedMean(d, hp + 1)).toBeGreaterThanOrEqual(cappedMean(d, hp) - 1e-9);
          expect(cappedMean(d, max + 1)).toBeCloseTo(d.mean, 6);
        },
      ),
      { seed: 15 },
    );
  });
});
