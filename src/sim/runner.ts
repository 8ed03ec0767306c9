import { SeededDice } from '../dice/index.js';
import type { CommandBase, EventBase, Result } from '../engine/index.js';
import type { AnySystem } from '../rulesets/system.js';
import { type Aggregate, emptyAggregate } from './aggregate.js';
import { FastDice } from './fast-dice.js';
import type { Policy } from './policies.js';

function mapDecided(
  decided: Result<readonly EventBase[]>,
  state: unknown,
  evolve: (state: unknown, event: EventBase) => unknown,
): Result<{ events: readonly EventBase[]; state: unknown }> {
  if (!decided.ok) return decided;
  return { ok: true, value: { events: decided.value, state: decided.value.reduce(evolve, state) } };
}

/** A battle that has not ended after this many commands is counted as unfinished. */
export const MAX_COMMANDS_PER_BATTLE = 10_000;

export interface BattleRange {
  readonly seed: string;
  /** Battles `from` to `to - 1`; battle i's dice come from `${seed}:${i}`, whoever runs it. */
  readonly from: number;
  readonly to: number;
}

/** The seeds of battle i: one stream for the rules' dice, one for the policy's choices. */
export function battleSeeds(seed: string, i: number): { dice: SeededDice; choices: SeededDice } {
  return {
    dice: SeededDice.fromSeed(`${seed}:${i}`),
    choices: SeededDice.fromSeed(`${seed}:${i}:policy`),
  };
}

/**
 * Plays battles straight on the ruleset's decide and evolve: no log, no undo, no explanations.
 * `shouldStop` is asked between battles (Ctrl-C); `progress` is told after each.
 */
export function runBattles(
  system: AnySystem,
  setup: unknown,
  policy: Policy,
  range: BattleRange,
  hooks: { shouldStop?: () => boolean; progress?: (done: number) => void } = {},
): Aggregate {
  const { ruleset } = system;
  const aggregate = emptyAggregate();
  const initial = ruleset.initialState(setup);
  const names = new Map(system.view(initial).combatants.map((c) => [c.id, c]));
  for (const c of names.values()) {
    aggregate.combatants[c.id] = {
      id: c.id,
      name: c.name,
      side: c.side,
      survived: 0,
      damageDealt: 0,
      damageTaken: 0,
    };
  }
  for (let i = range.from; i < range.to; i++) {
    if (hooks.shouldStop?.()) break;
    const seeds = battleSeeds(range.seed, i);
    const dice = new FastDice(seeds.dice);
    let state = initial;
    let commands = 0;
    for (; commands < MAX_COMMANDS_PER_BATTLE; commands++) {
      if (ruleset.outcome(state).over) break;
      const actions = ruleset.legalActions(state);
      if (actions.length === 0) break;
      const choice = policy(system, state, actions, seeds.choices);
      const command = choice.command as CommandBase;
      // resolve (when the ruleset has it) hands back the state too: no second pass of evolve.
      const resolved =
        ruleset.resolve?.(state, command, dice) ??
        mapDecided(ruleset.decide(state, command, dice), state, ruleset.evolve);
      if (!resolved.ok)
        throw new Error(
          `the policy chose a refused action (${choice.label}): ${resolved.error.message}`,
        );
      state = resolved.value.state;
      for (const event of resolved.value.events as readonly EventBase[]) {
        const damage = system.damageOf(event);
        if (damage !== undefined) {
          const source = aggregate.combatants[damage.source];
          const target = aggregate.combatants[damage.target];
          if (source !== undefined) source.damageDealt += damage.amount;
          if (target !== undefined) target.damageTaken += damage.amount;
        }
      }
    }
    const outcome = ruleset.outcome(state);
    aggregate.battles++;
    if (!outcome.over) aggregate.unfinished++;
    else if (outcome.winner === null) aggregate.draws++;
    else aggregate.wins[outcome.winner] = (aggregate.wins[outcome.winner] ?? 0) + 1;
    const rounds = system.rounds(state);
    aggregate.roundsSum += rounds;
    aggregate.rounds[rounds] = (aggregate.rounds[rounds] ?? 0) + 1;
    for (const c of system.brief(state).combatants) {
      const tally = aggregate.combatants[c.id];
      if (tally !== undefined && !c.out) tally.survived++;
    }
    hooks.progress?.(i - range.from + 1);
  }
  return aggregate;
}
