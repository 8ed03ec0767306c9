import type { DiceRoller, RollRecord } from '../../engine/index.js';
import type { ShiningForceEvent } from './events.js';
import { evolve } from './evolve.js';
import type { CombatantState, ShiningForceState } from './state.js';

/**
 * One command being resolved: the state as the events so far leave it, and the events. Each
 * event is applied as it is emitted, so later steps (a counter, the next turn, the end of the
 * battle) see what earlier ones did, and the events alone still rebuild the same state.
 */
export class Resolution {
  readonly events: ShiningForceEvent[] = [];
  /** Build the text a table reads; a simulation does not. */
  readonly explain: boolean;

  constructor(
    public state: ShiningForceState,
    readonly dice: DiceRoller,
  ) {
    this.explain = dice.explain !== false;
  }

  resolved(): { events: readonly ShiningForceEvent[]; state: ShiningForceState } {
    return { events: this.events, state: this.state };
  }

  emit(event: ShiningForceEvent): void {
    this.events.push(event);
    this.state = evolve(this.state, event);
  }

  combatant(id: string): CombatantState {
    const c = this.state.combatants[id];
    if (c === undefined) throw new Error(`no combatant ${id}`);
    return c;
  }

  d100(purpose: string): RollRecord {
    return this.dice.roll(purpose, 'd100');
  }
}
