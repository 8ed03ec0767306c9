import type { DiceRoller } from '../../engine/index.js';
import type { ZodiacEvent } from './events.js';
import { evolve } from './evolve.js';
import type { Item, Tech } from './model.js';
import type { CombatantState, ZodiacState } from './state.js';

/**
 * One command being resolved: the state as the events so far leave it, and the events. Each event
 * is applied as it is emitted, so later steps (the next turn, the tick's Poison, the end of the
 * battle) see what earlier ones did, and the events alone still rebuild the same state.
 */
export class Resolution {
  readonly events: ZodiacEvent[] = [];

  /** Build the text a table reads (damage breakdowns); a simulation does not. */
  readonly explain: boolean;

  constructor(
    public state: ZodiacState,
    readonly dice: DiceRoller,
  ) {
    this.explain = dice.explain !== false;
  }

  resolved(): { events: readonly ZodiacEvent[]; state: ZodiacState } {
    return { events: this.events, state: this.state };
  }

  emit(event: ZodiacEvent): void {
    this.events.push(event);
    this.state = evolve(this.state, event);
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
