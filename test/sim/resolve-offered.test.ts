import { describe, expect, it } from 'vitest';
import { SeededDice } from '../../src/dice/index.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import type { CommandBase } from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { FastDice } from '../../src/sim/fast-dice.js';
import { POLICIES } from '../../src/sim/policies.js';

const EXAMPLES = [
  'examples/ffrpg-wind-cave.yaml',
  'examples/ffviii-iron-giant.yaml',
  'examples/zodiac-keef-and-the-ogre.yaml',
  'examples/shining-force-gate.yaml',
];

describe("resolveOffered (the simulator's path, without the checks)", () => {
  for (const file of EXAMPLES) {
    const read = readEncounterFile(file, SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    const { system, setup } = read.encounter;
    const { ruleset } = system;
    // Only the rulesets that have the path (Shining Force so far): the rest resolve as before.
    if (ruleset.resolveOffered === undefined) continue;
    it(`gives the events and state resolve gives, for every action offered in 20 battles of ${file}`, () => {
      let compared = 0;
      for (let seed = 0; seed < 20; seed++) {
        const dice = new FastDice(SeededDice.fromSeed(`offered:${seed}`));
        const choices = SeededDice.fromSeed(`offered:${seed}:policy`);
        let state = ruleset.initialState(setup);
        for (let i = 0; i < 1000 && !ruleset.outcome(state).over; i++) {
          const actions = ruleset.legalActions(state);
          for (const [k, action] of actions.entries()) {
            // The same dice for both: a fresh stream for every action tried.
            const roll = (): FastDice => new FastDice(SeededDice.fromSeed(`${seed}:${i}:${k}`));
            const checked = ruleset.resolve!(state, action.command, roll());
            const offered = ruleset.resolveOffered!(state, action.command, roll());
            expect(offered).toEqual(checked);
            compared++;
          }
          const command = POLICIES.random!(system, state, actions, choices).command;
          const decided = ruleset.decide(state, command, dice);
          if (!decided.ok) throw new Error(decided.error.message);
          for (const e of decided.value) state = ruleset.evolve(state, e);
        }
      }
      expect(compared).toBeGreaterThan(500);
    });
  }

  it('leaves the public path checking: resolve refuses an attack out of reach', () => {
    const read = readEncounterFile('examples/shining-force-gate.yaml', SYSTEMS);
    if (!read.ok) throw new Error('no example');
    const { system, setup } = read.encounter;
    const dice = new FastDice(SeededDice.fromSeed('refused'));
    const begun = system.ruleset.resolve!(
      system.ruleset.initialState(setup),
      { type: 'begin-battle' },
      dice,
    );
    if (!begun.ok) throw new Error(begun.error.message);
    const state = begun.value.state;
    // Whoever's turn it is, on the far side of the field from it (Lowe at A6, the mage at H5).
    const actor = system.brief(state).actor!;
    const far =
      system.brief(state).combatants.find((c) => c.id === actor)!.side === 'force'
        ? 'dark-mage'
        : 'lowe';
    const refused = system.ruleset.resolve!(
      state,
      { type: 'attack', actor, target: far } as CommandBase,
      dice,
    );
    expect(refused.ok).toBe(false);
  });
});
