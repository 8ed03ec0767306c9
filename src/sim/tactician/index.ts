import type { SeededDice } from '../../dice/index.js';
import type { CommandBase, LegalAction } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';
import type { Policy } from '../policy.js';
import { type Field, type Fighter, score } from './core.js';
import { ffrpgTactics } from './ffrpg.js';
import { ffviiiTactics } from './ffviii.js';
import { shiningForceTactics } from './shining-force.js';
import { actorOf, type Tactics } from './tactics.js';
import { zodiacTactics } from './zodiac.js';

export { type Estimate, type Field, type Fighter, score, worth } from './core.js';

const TACTICS: Readonly<Record<string, Tactics>> = {
  ffrpg: ffrpgTactics,
  ffviii: ffviiiTactics,
  zodiac: zodiacTactics,
  'shining-force': shiningForceTactics,
};

/**
 * The field as one decision sees it; threats are worked out only when asked for, once. A class,
 * with its two caches made on first use: a decision is made before every simulated command.
 */
class DecisionField implements Field {
  private on: Map<string, number> | undefined;
  private of: Map<string, number> | undefined;

  constructor(
    private readonly system: AnySystem,
    private readonly state: unknown,
    private readonly tactics: Tactics,
    private readonly actorId: string,
    readonly actor: Fighter,
  ) {}

  fighter(id: string): Fighter | undefined {
    return id === this.actorId ? this.actor : this.tactics.fighter(this.state, id);
  }

  threatOn(id: string): number {
    this.on ??= new Map();
    let t = this.on.get(id);
    if (t === undefined) {
      t = this.strongest(id, false);
      this.on.set(id, t);
    }
    return t;
  }

  threatOf(id: string): number {
    this.of ??= new Map();
    let t = this.of.get(id);
    if (t === undefined) {
      t = this.strongest(id, true);
      this.of.set(id, t);
    }
    return t;
  }

  private strongest(id: string, attacking: boolean): number {
    const { system, state, tactics } = this;
    const self = tactics.fighter(state, id);
    if (self === undefined) return 0;
    let best = 0;
    for (const otherId of tactics.ids(state)) {
      const other = tactics.fighter(state, otherId);
      if (other === undefined || other.out || other.side === self.side) continue;
      const t = attacking
        ? tactics.threat(system, state, id, otherId)
        : tactics.threat(system, state, otherId, id);
      if (t > best) best = t;
    }
    return best;
  }
}

function fieldOf(
  system: AnySystem,
  state: unknown,
  tactics: Tactics,
  actorId: string,
): Field | undefined {
  const actor = tactics.fighter(state, actorId);
  return actor === undefined
    ? undefined
    : new DecisionField(system, state, tactics, actorId, actor);
}

/**
 * The same choice from the state alone, where the system's tactics can make it without the
 * legal actions listed (Shining Force: a unit's every cell of movement scored as a number).
 */
function direct(system: AnySystem, state: unknown): CommandBase | undefined {
  const tactics = Object.hasOwn(TACTICS, system.ruleset.id)
    ? TACTICS[system.ruleset.id]
    : undefined;
  if (tactics?.direct === undefined) return undefined;
  return tactics.direct(system, state, (actorId) => fieldOf(system, state, tactics, actorId));
}

function choose(
  system: AnySystem,
  state: unknown,
  actions: readonly LegalAction<CommandBase>[],
  _random: SeededDice,
): LegalAction<CommandBase> {
  if (actions.length === 1) return actions[0]!;
  const tactics = Object.hasOwn(TACTICS, system.ruleset.id)
    ? TACTICS[system.ruleset.id]
    : undefined;
  let actorId: string | undefined;
  for (const action of actions) {
    actorId = actorOf(action.command);
    if (actorId !== undefined) break;
  }
  const field =
    tactics === undefined || actorId === undefined
      ? undefined
      : fieldOf(system, state, tactics, actorId);
  if (tactics === undefined || field === undefined) {
    return actions.find((a) => a.command.type !== 'flee') ?? actions[0]!;
  }
  const special = tactics.choose?.(system, state, actions, field);
  if (special !== undefined) return special;
  let best: LegalAction<CommandBase> | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  const estimate = tactics.estimator(system, state, field);
  for (const action of actions) {
    const command = action.command;
    if (command.type === 'flee') continue;
    const expected = estimate(command);
    const s = expected === undefined ? 0 : score(expected, field);
    if (s > bestScore) {
      best = action;
      bestScore = s;
    }
  }
  return best ?? actions[0]!;
}

/**
 * Plays like a sensible player: every option of the deciding combatant is scored by expected
 * value from the exact odds (core.ts), the best one per unit of time is taken, and ties go to
 * the one listed first. Deterministic: it draws nothing from the dice it is handed.
 */
export const tactician: Policy = Object.assign(choose, { direct });
