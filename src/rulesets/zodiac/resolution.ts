import {
  type DiceRoller,
  Resolution as EngineResolution,
  type Resolved as EngineResolved,
} from '../../engine/index.js';
import type { ZodiacEvent } from './events.js';
import { evolve } from './evolve.js';
import type { Item, Tech } from './model.js';
import type { CombatantState, ZodiacState } from './state.js';

/** A command resolved: its events and the state they lead to (decide's and the GM's answer). */
export type Resolved = EngineResolved<ZodiacState, ZodiacEvent>;

/** The engine's Resolution, with this ruleset's lookups. */
export class Resolution extends EngineResolution<ZodiacState, ZodiacEvent> {
  constructor(state: ZodiacState, dice: DiceRoller) {
    super(state, dice, evolve);
  }

  combatant(id: string): CombatantState {
    const c = this.state.combatants[id];
    if (c === undefined) throw new Error(`no combatant ${id}`);
    return c;
  }

  tech(id: string): Tech {
    const t = this.state.setup.techs[id];
    if (t === undefined) throw new Error(`no tech ${id}`);
    return t;
  }

  item(id: string): Item {
    const i = this.state.setup.items[id];
    if (i === undefined) throw new Error(`no item ${id}`);
    return i;
  }
}
