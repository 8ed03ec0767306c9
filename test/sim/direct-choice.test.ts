import { describe, expect, it } from 'vitest';
import { SeededDice } from '../../src/dice/index.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import type { CommandBase, EventBase, LegalAction } from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { FastDice } from '../../src/sim/fast-dice.js';
import { POLICIES, type Policy } from '../../src/sim/policies.js';
import { runBattles } from '../../src/sim/runner.js';
import { tactician } from '../../src/sim/tactician/index.js';

const EXAMPLES = [
  'examples/ffrpg-wind-cave.yaml',
  'examples/ffviii-iron-giant.yaml',
  'examples/zodiac-keef-and-the-ogre.yaml',
  'examples/shining-force-gate.yaml',
];

function encounter(file: string) {
  const read = readEncounterFile(file, SYSTEMS);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.encounter;
}

/** The tactician as it was before its direct path: always handed the list. */
const listed: Policy = (system, state, actions, random) =>
  tactician(system, state, actions, random);

describe("the tactician's direct choice (without the legal actions listed)", () => {
  for (const file of EXAMPLES) {
    it(`is the choice it makes of the list, in every state of 40 battles of ${file}`, () => {
      const { system, setup } = encounter(file);
      const { ruleset } = system;
      const direct = tactician.direct;
      if (direct === undefined) throw new Error('the tactician has no direct path');
      let compared = 0;
      // Half the battles played by the tactician, half at random: states it would not reach.
      for (let seed = 0; seed < 40; seed++) {
        const dice = new FastDice(SeededDice.fromSeed(`direct:${seed}`));
        const choices = SeededDice.fromSeed(`direct:${seed}:policy`);
        const driver = seed % 2 === 0 ? tactician : POLICIES.random!;
        let state = ruleset.initialState(setup);
        for (let i = 0; i < 1000 && !ruleset.outcome(state).over; i++) {
          const actions: readonly LegalAction<CommandBase>[] = ruleset.legalActions(state);
          const fromList = tactician(system, state, actions, choices).command;
          const chosen = direct(system, state, choices);
          if (chosen !== undefined) {
            expect(chosen).toEqual(fromList);
            compared++;
          }
          const command = driver(system, state, actions, choices).command;
          const decided = ruleset.decide(state, command, dice);
          if (!decided.ok) throw new Error(decided.error.message);
          for (const e of decided.value) state = ruleset.evolve(state, e);
        }
      }
      if (system.ruleset.id === 'shining-force') expect(compared).toBeGreaterThan(1000);
    });

    it(`plays the same battles as the list does in the simulator (${file})`, () => {
      const { system, setup } = encounter(file);
      const played = (policy: Policy): string[] => {
        const log: string[] = [];
        runBattles(
          system,
          setup,
          policy,
          { seed: 'direct', from: 0, to: 20 },
          {
            observe: (command: CommandBase, events: readonly EventBase[]) =>
              log.push(JSON.stringify(command), JSON.stringify(events)),
          },
        );
        return log;
      };
      const direct = played(tactician);
      expect(direct.length).toBeGreaterThan(100);
      expect(direct).toEqual(played(listed));
    });
  }
});
