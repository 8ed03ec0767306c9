import type { SeededDice } from '../../dice/index.js';
import type { AnySystem, CombatantView } from '../../rulesets/system.js';
import type { CombatantTally } from '../aggregate.js';
import type { Policy } from '../policies.js';

/**
 * A system's own player of whole simulated battles: the same battle the runner's loop plays
 * (the same commands chosen, the same dice drawn in the same order, the same state at the end,
 * the same blows tallied) without events, records or a new state per event. Only the
 * simulator uses one, and only where it has nothing to observe; every battle it plays is
 * checked against the runner's loop over the rules in the tests (test/sim/kernels/).
 */
export interface BattleKernel {
  /**
   * Plays one battle from the kernel's start state with `dice` (the battle's rules stream) to
   * its end or `maxCommands` commands, adding each blow's HP lost and overkill to `tallies`
   * (by the combatant's place in the start state) as the runner does. Returns the state it
   * ended in, as the rules would hold it, the commands played, and each combatant's end as the
   * system's view would show it (by place), so the runner need not draw the whole view.
   */
  play(
    dice: SeededDice,
    maxCommands: number,
    tallies: readonly CombatantTally[],
  ): {
    readonly state: unknown;
    readonly commands: number;
    readonly standing: readonly Standing[];
  };
}

/** What the runner reads of each combatant's view at the end of a battle. */
export type Standing = Pick<CombatantView, 'hp' | 'maxHp' | 'mp' | 'maxMp' | 'out' | 'items'>;

/**
 * A kernel for battles of `system` from `start` under `policy`, or undefined when it cannot
 * play them exactly as the runner would (another policy, a state it does not model).
 */
export type KernelFactory = (
  system: AnySystem,
  start: unknown,
  policy: Policy,
) => BattleKernel | undefined;
