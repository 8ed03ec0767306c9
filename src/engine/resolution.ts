import type { z } from 'zod';
import type { DiceRoller } from './dice.js';
import { err, ok, type Result } from './result.js';
import type { EventBase } from './ruleset.js';
import { describeIssue } from './schema-error.js';

/**
 * One command being resolved: the state as the events so far leave it, and the events. Each
 * event is applied as it is emitted, so later steps (a counter, the next turn, the end of the
 * battle) see what earlier ones did, and the events alone still rebuild the same state. Rulesets
 * extend it with lookups of their own (a combatant, an ability).
 */
export class Resolution<State, Event extends EventBase> {
  readonly events: Event[] = [];
  /** Build the text a table reads (formulas, damage breakdowns); a simulation does not. */
  readonly explain: boolean;

  constructor(
    public state: State,
    readonly dice: DiceRoller,
    private readonly apply: (state: State, event: Event) => State,
  ) {
    this.explain = dice.explain !== false;
  }

  emit(event: Event): void {
    this.events.push(event);
    this.state = this.apply(this.state, event);
  }

  resolved(): Resolved<State, Event> {
    return { events: this.events, state: this.state };
  }
}

/** What a command comes to: its events and the state they lead to. */
export interface Resolved<State, Event> {
  readonly events: readonly Event[];
  readonly state: State;
}

/** Ruleset.decide out of Ruleset.resolve: the events alone. */
export function decideByResolving<State, Command, Event>(
  resolve: (state: State, command: Command, dice: DiceRoller) => Result<Resolved<State, Event>>,
): (state: State, command: Command, dice: DiceRoller) => Result<readonly Event[]> {
  return (state, command, dice) => {
    const resolved = resolve(state, command, dice);
    return resolved.ok ? ok(resolved.value.events) : resolved;
  };
}

/**
 * A Ruleset's parseSetup or parseCommand: the schema, and on failure one error with the code and
 * the first problem's path (`command/invalid`: `not an FFRPG command: target: ...`).
 */
export function parserOf<T>(
  schema: z.ZodType<T>,
  code: string,
  what: string,
): (input: unknown) => Result<T> {
  return (input) => {
    const parsed = schema.safeParse(input);
    return parsed.success ? ok(parsed.data) : err(code, `${what}: ${describeIssue(parsed.error)}`);
  };
}
