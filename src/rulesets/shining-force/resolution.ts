import {
  type DiceRoller,
  Resolution as EngineResolution,
  type RollRecord,
} from '../../engine/index.js';
import type { ShiningForceEvent } from './events.js';
import { evolve } from './evolve.js';
import { type CombatantState, combatantOf, type ShiningForceState } from './state.js';

/** The engine's Resolution, with this ruleset's lookups. */
export class Resolution extends EngineResolution<ShiningForceState, ShiningForceEvent> {
  constructor(state: ShiningForceState, dice: DiceRoller) {
    super(state, dice, evolve);
  }

  combatant(id: string): CombatantState {
    const c = combatantOf(this.state, id);
    if (c === undefined) throw new Error(`no combatant ${id}`);
    return c;
  }

  d100(purpose: string): RollRecord {
    return this.dice.roll(purpose, 'd100');
  }
}
