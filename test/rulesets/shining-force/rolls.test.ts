/** `rolls`: every purpose a command asks for is listed before it is decided. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommandDice, type DiceRoller } from '../../../src/engine/index.js';
import { seededDice } from '../../../src/index.js';
import {
  type ShiningForceCommand,
  type ShiningForceState,
  shiningForce,
  shiningForceNewcomer,
  shiningForceSystem,
} from '../../../src/rulesets/shining-force/index.js';
import { gateSetup, library } from './helpers.js';

function recording(seed: number): { dice: DiceRoller; asked: string[] } {
  const inner = new CommandDice(seededDice(seed), { explain: false });
  const asked: string[] = [];
  return {
    asked,
    dice: {
      explain: false,
      roll(purpose, notation, variables, needs) {
        asked.push(purpose.replace(/#\d+$/, ''));
        return inner.roll(purpose, notation, variables, needs);
      },
    },
  };
}

const goblin = (() => {
  const sheet = shiningForceNewcomer(library(), 'giant-bat');
  if (!sheet.ok) throw new Error(sheet.error.message);
  return sheet.value;
})();

/** GM commands thrown in now and then, so their rolls (and the turns they start) are checked too. */
function gmCommand(state: ShiningForceState, pick: number): ShiningForceCommand {
  const ids = state.combatants.filter((c) => !c.defeated).map((c) => c.id);
  const target = ids[pick % ids.length]!;
  const commands: ShiningForceCommand[] = [
    { type: 'gm-damage', target, amount: '1d8', raw: false },
    { type: 'gm-status', target, status: 'confused', timer: 2, remove: false },
    { type: 'gm-status', target, status: 'paralysed', remove: false },
    { type: 'gm-add', side: 'runefaust', newcomer: goblin },
    { type: 'gm-skip', target },
    { type: 'gm-set', target, resource: 'hp', value: 0, relative: false },
  ];
  return commands[pick % commands.length]!;
}

describe('rolls', () => {
  it('lists every purpose decide asks for, for random legal actions and GM commands', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.nat(1000), { minLength: 5, maxLength: 40 }),
        (seed, picks) => {
          let state = shiningForce.initialState(gateSetup({ maxRounds: 8 }));
          for (const [i, pick] of picks.entries()) {
            if (shiningForce.outcome(state).over) break;
            const actions = shiningForce.legalActions(state);
            const command =
              state.round > 0 && pick % 5 === 0
                ? gmCommand(state, pick)
                : actions[pick % actions.length]!.command;
            const listed = new Set(shiningForceSystem.rolls(state, command).map((s) => s.purpose));
            const { dice, asked } = recording(seed + i);
            const resolved = shiningForce.resolve!(state, command, dice);
            if (!resolved.ok) continue;
            for (const purpose of asked)
              expect(listed, `${JSON.stringify(command)} asked ${purpose}`).toContain(purpose);
            state = resolved.value.state;
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('gives each roll its notation', () => {
    const state = shiningForce.initialState(gateSetup());
    const slots = shiningForceSystem.rolls(state, { type: 'begin-battle' });
    expect(slots).toContainEqual({ purpose: 'turn-order:max', notation: 'd101' });
  });
});
