import type { LogEntry } from './log.js';
import type { AnyRuleset, CommandBase, EventBase } from './ruleset.js';

/**
 * The state right after each entry of a log, so an entry can be described (for any client, at
 * any later time) against the state it left. States are immutable and share structure, so
 * keeping one per entry costs what changed, not a copy each. It also keeps which commands each
 * undo took back and each redo put back, so an undo can say what it undid.
 */
export class StatesAfterEntries {
  /** `after[i]` follows entry number i + 1. */
  private readonly after: unknown[] = [];
  /** `moved[i]`: the commands entry number i + 1 took back or put back (none for a command). */
  private readonly moved: (readonly number[])[] = [];
  private readonly applied: { readonly seq: number; readonly state: unknown }[] = [];
  private readonly undone: { readonly seq: number; readonly state: unknown }[] = [];

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
    const moved: number[] = [];
    if (entry.type === 'command') {
      let state = this.current;
      for (const event of entry.events) state = this.ruleset.evolve(state, event);
      this.applied.push({ seq: entry.seq, state });
      this.undone.length = 0;
    } else if (entry.type === 'undo') {
      for (let i = 0; i < entry.steps && this.applied.length > 0; i++) {
        const taken = this.applied.pop()!;
        this.undone.push(taken);
        moved.push(taken.seq);
      }
    } else {
      for (let i = 0; i < entry.steps && this.undone.length > 0; i++) {
        const back = this.undone.pop()!;
        this.applied.push(back);
        moved.push(back.seq);
      }
    }
    this.after.push(this.current);
    this.moved.push(moved);
    return this.current;
  }

  /** The state after entry `seq` (1 for the first). */
  afterEntry(seq: number): unknown {
    return seq === 0 ? this.initial : this.after[seq - 1];
  }

  /** The commands undo or redo entry `seq` took back or put back, in the order it did. */
  movedBy(seq: number): readonly number[] {
    return this.moved[seq - 1] ?? [];
  }
}
