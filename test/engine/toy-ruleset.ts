/**
 * A tiny system for testing the engine alone: two duellists take turns; an attack rolls d6
 * damage; the GM can heal. Small enough to check every engine guarantee by hand.
 */
import { z } from 'zod';
import { err, ok, type Result, type RollRecord, type Ruleset } from '../../src/engine/index.js';

export interface DuelSetup {
  readonly fighters: readonly { readonly id: string; readonly hp: number }[];
}
export interface DuelState {
  readonly hp: Readonly<Record<string, number>>;
  readonly order: readonly string[];
  readonly turn: number;
}
export type DuelCommand =
  | { readonly type: 'attack'; readonly actor: string; readonly target: string }
  | { readonly type: 'heal'; readonly target: string; readonly amount: number };
export type DuelEvent =
  | {
      readonly type: 'attacked';
      readonly actor: string;
      readonly target: string;
      readonly damage: RollRecord;
    }
  | { readonly type: 'healed'; readonly target: string; readonly amount: number }
  | { readonly type: 'turn-passed'; readonly next: number };

const setupSchema = z.object({
  fighters: z.array(z.object({ id: z.string(), hp: z.number().int().min(1) })).min(2),
});
const commandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('attack'), actor: z.string(), target: z.string() }),
  z.object({ type: z.literal('heal'), target: z.string(), amount: z.number().int().min(1) }),
]);

export const duel: Ruleset<DuelSetup, DuelState, DuelCommand, DuelEvent> = {
  id: 'duel',
  name: 'Duel (test ruleset)',
  parseSetup(input): Result<DuelSetup> {
    const parsed = setupSchema.safeParse(input);
    return parsed.success ? ok(parsed.data) : err('setup/invalid', parsed.error.issues[0]!.message);
  },
  initialState(setup) {
    return {
      hp: Object.fromEntries(setup.fighters.map((f) => [f.id, f.hp])),
      order: setup.fighters.map((f) => f.id),
      turn: 0,
    };
  },
  parseCommand(input) {
    const parsed = commandSchema.safeParse(input);
    return parsed.success
      ? ok(parsed.data)
      : err('command/invalid', parsed.error.issues[0]!.message);
  },
  decide(state, command, dice) {
    if (command.type === 'heal') {
      if (!(command.target in state.hp))
        return err('action/unknown-target', `no fighter ${command.target}`);
      return ok([{ type: 'healed', target: command.target, amount: command.amount }]);
    }
    const current = state.order[state.turn % state.order.length];
    if (command.actor !== current) return err('action/not-your-turn', `it is ${current}'s turn`);
    if (!(command.target in state.hp))
      return err('action/unknown-target', `no fighter ${command.target}`);
    if ((state.hp[command.target] ?? 0) <= 0)
      return err('action/target-down', `${command.target} is down`);
    const damage = dice.roll(`damage:${command.target}`, '1d6');
    return ok([
      { type: 'attacked', actor: command.actor, target: command.target, damage },
      { type: 'turn-passed', next: state.turn + 1 },
    ]);
  },
  evolve(state, event) {
    switch (event.type) {
      case 'attacked':
        return {
          ...state,
          hp: {
            ...state.hp,
            [event.target]: Math.max(0, (state.hp[event.target] ?? 0) - event.damage.total),
          },
        };
      case 'healed':
        return {
          ...state,
          hp: { ...state.hp, [event.target]: (state.hp[event.target] ?? 0) + event.amount },
        };
      case 'turn-passed':
        return { ...state, turn: event.next };
    }
  },
  legalActions(state) {
    const actor = state.order[state.turn % state.order.length]!;
    return state.order
      .filter((id) => id !== actor && (state.hp[id] ?? 0) > 0)
      .map((target) => ({
        label: `${actor} attacks ${target}`,
        command: { type: 'attack', actor, target } as const,
      }));
  },
  outcome(state) {
    const standing = state.order.filter((id) => (state.hp[id] ?? 0) > 0);
    if (standing.length > 1) return { over: false };
    return { over: true, winner: standing[0] ?? null, reason: 'one fighter left' };
  },
};
