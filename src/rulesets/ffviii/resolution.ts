import { type DiceRoller, Resolution } from '../../engine/index.js';
import type { FfviiiEvent } from './events.js';
import { evolve } from './evolve.js';
import type { CombatantState, FfviiiState } from './state.js';

/** The engine's Resolution, with combatants looked up by id. */
export class FfviiiResolution extends Resolution<FfviiiState, FfviiiEvent> {
  constructor(state: FfviiiState, dice: DiceRoller) {
    super(state, dice, evolve);
  }
  get(id: string): CombatantState {
    return this.state.combatants[id]!;
  }
}
