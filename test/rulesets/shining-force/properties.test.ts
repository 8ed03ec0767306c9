/** Random legal play always ends; the log rebuilds the state; save and load round-trip. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AnyRuleset, loadEncounter } from '../../../src/engine/index.js';
import { shiningForce } from '../../../src/rulesets/shining-force/index.js';
import { gateSetup, type SfEncounter, start } from './helpers.js';

const rulesets = [shiningForce as unknown as AnyRuleset];

/** Plays the Gate battle, choosing each legal action by the given picks (cycled). */
function playRandomly(
  seed: number,
  picks: readonly number[],
  options: Record<string, unknown> = {},
): SfEncounter {
  const e = start(gateSetup(options), seed);
  for (let i = 0; i < 5000 && !e.outcome().over; i++) {
    const actions = e.legalActions();
    expect(actions.length).toBeGreaterThan(0);
    const action = actions[picks[i % picks.length]! % actions.length]!;
    const result = e.submit(action.command);
    if (!result.ok) throw new Error(`${action.label}: ${result.error.message}`);
  }
  return e;
}

describe('properties of Shining Force battles', () => {
  it('random legal play always ends, and every legal action is accepted', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 30 }),
        (seed, picks) => {
          const e = playRandomly(seed, picks, { maxRounds: 20 });
          expect(e.outcome().over).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('replaying the log rebuilds the same state, and a save loads to the same battle', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 10 }),
        (seed, picks) => {
          const e = playRandomly(seed, picks, { maxRounds: 6 });
          let state = shiningForce.initialState(e.setup);
          for (const entry of e.log) {
            if (entry.type !== 'command') continue;
            for (const event of entry.events) state = shiningForce.evolve(state, event);
          }
          expect(JSON.stringify(state)).toBe(JSON.stringify(e.state));
          const loaded = loadEncounter(JSON.parse(JSON.stringify(e.save())), rulesets);
          if (!loaded.ok) throw new Error(loaded.error.message);
          expect(JSON.stringify(loaded.value.state)).toBe(JSON.stringify(e.state));
        },
      ),
      { numRuns: 10 },
    );
  });

  it('the same seed and commands give the same events, byte for byte', () => {
    const a = playRandomly(7, [3, 1, 4, 1, 5, 9, 2, 6]);
    const b = playRandomly(7, [3, 1, 4, 1, 5, 9, 2, 6]);
    expect(JSON.stringify(a.log)).toBe(JSON.stringify(b.log));
  });

  it('undo puts the battle back, and the same command rolls the same dice again', () => {
    const e = playRandomly(3, [0], { maxRounds: 50 });
    const fresh = start(gateSetup(), 3);
    fresh.submit({ type: 'begin-battle' });
    const first = fresh.legalActions()[0]!;
    const once = fresh.submit(first.command);
    fresh.undo(1);
    const again = fresh.submit(first.command);
    expect(JSON.stringify(again)).toBe(JSON.stringify(once));
    expect(e.outcome().over).toBe(true);
  });
});
