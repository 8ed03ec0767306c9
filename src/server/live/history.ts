import type { AnyRuleset, CommandBase, EventBase, LogEntry } from '../../engine/index.js';

/**
 * The state right after each entry of a log, so an entry can be described (for any client, at
 * any later time) against the state it left. States are immutable and share structure, so
 * keeping one per entry costs what changed, not a copy each.
 */
export class StatesAfterEntries {
  /** `after[i]` follows entry number i + 1. */
  private readonly after: unknown[] = [];
  private readonly applied: { readonly state: unknown }[] = [];
  private readonly undone: { readonly state: unknown }[] = [];

  constructor(
    private readonly ruleset: AnyRuleset,
    private readonly initial: unknown,
  ) {}

  static of(
    ruleset: AnyRuleset,
    setup: unknown,
    log: readonly LogEntry<CommandBase, EventBase>[],
  ): StatesAfterEntries {
    const states = new StatesAfterEntries(ruleset, ruleset.initialState(setup));
    for (const entry of log) states.push(entry);
    return states;
  }

  get current(): unknown {
    return this.applied.at(-1)?.state ?? this.initial;
  }

  /** The same walk as `effectiveHistory`, keeping each command's resulting state. */
  push(entry: LogEntry<CommandBase, EventBase>): unknown {
    if (entry.type === 'command') {
      let state = this.current;
      for (const event of entry.events) state = this.ruleset.evolve(state, event);
      this.applied.push({ state });
      this.undone.length = 0;
    } else if (entry.type === 'undo') {
      for (let i = 0; i < entry.steps && this.applied.length > 0; i++) {
        this.undone.push(this.applied.pop()!);
      }
    } else {
      for (let i = 0; i < entry.steps && this.undone.length > 0; i++) {
        this.applied.push(this.undone.pop()!);
      }
    }
    this.after.push(this.current);
    return this.current;
  }

  /** The state after entry `seq` (1 for the first). */
  afterEntry(seq: number): unknown {
    return seq === 0 ? this.initial : this.after[seq - 1];
  }
}
