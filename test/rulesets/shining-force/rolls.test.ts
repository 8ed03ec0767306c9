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
import { begin, gateSetup, library, run } from './helpers.js';

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
    expect(slots).toContainEqual({
      purpose: 'turn-order:max',
      notation: 'd101',
      label: 'd101',
      faces: [{ min: 1, max: 101 }],
      sum: { min: 1, max: 101 },
      total: { min: 1, max: 101 },
      accepts: 'die 1–101',
    });
  });
});

describe('rolls: only what this command can roll', () => {
  it('a move or an item change rolls nothing; an action with turns still to come rolls no turn order', () => {
    const encounter = begin(gateSetup());
    const { state } = encounter;
    const actor = state.order[state.cursor]!;
    const stay = shiningForceSystem.rolls(state, { type: 'stay', actor });
    expect(stay.filter((s) => s.purpose.startsWith('turn-order:'))).toEqual([]);
    const moves = encounter.legalActions().filter((a) => a.command.type === 'move');
    expect(moves.length).toBeGreaterThan(0);
    for (const move of moves) expect(shiningForceSystem.rolls(state, move.command)).toEqual([]);
  });

  it('the last turn of a round lists the next round’s turn order', () => {
    const encounter = begin(gateSetup());
    while (encounter.state.cursor < encounter.state.order.length - 1)
      run(encounter, { type: 'stay', actor: encounter.state.order[encounter.state.cursor]! });
    const { state } = encounter;
    const slots = shiningForceSystem.rolls(state, {
      type: 'stay',
      actor: state.order[state.cursor]!,
    });
    const standing = state.combatants.filter((c) => !c.defeated).length;
    expect(slots.filter((s) => s.purpose.startsWith('turn-order:'))).toHaveLength(standing);
  });
});
