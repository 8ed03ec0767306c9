import type { SeededDiceState } from '../dice/index.js';
import type { CommandBase, EventBase } from './ruleset.js';

/**
 * The encounter log: every command with the events it produced, and every undo and redo, in the
 * order they happened. Undo is an entry too, so the log is append-only and nothing is lost;
 * the state is whatever the effective history rebuilds to.
 */
export type LogEntry<C extends CommandBase = CommandBase, E extends EventBase = EventBase> =
  | CommandEntry<C, E>
  | { readonly seq: number; readonly type: 'undo'; readonly steps: number }
  | { readonly seq: number; readonly type: 'redo'; readonly steps: number };

export interface CommandEntry<
  C extends CommandBase = CommandBase,
  E extends EventBase = EventBase,
> {
  readonly seq: number;
  readonly type: 'command';
  readonly command: C;
  readonly events: readonly E[];
  /** The seeded dice stream around this command, so undo and redo put it back where it was. */
  readonly diceBefore: SeededDiceState;
  readonly diceAfter: SeededDiceState;
}

/** The commands in force after all undos and redos, and those that could be redone. */
export interface History<C extends CommandBase, E extends EventBase> {
  readonly applied: readonly CommandEntry<C, E>[];
  readonly undone: readonly CommandEntry<C, E>[];
}

export function effectiveHistory<C extends CommandBase, E extends EventBase>(
  log: readonly LogEntry<C, E>[],
): History<C, E> {
  const applied: CommandEntry<C, E>[] = [];
  const undone: CommandEntry<C, E>[] = [];
  for (const entry of log) {
    if (entry.type === 'command') {
      applied.push(entry);
      undone.length = 0; // a new command ends the redo branch
    } else if (entry.type === 'undo') {
      for (let i = 0; i < entry.steps && applied.length > 0; i++) undone.push(applied.pop()!);
    } else {
      for (let i = 0; i < entry.steps && undone.length > 0; i++) applied.push(undone.pop()!);
    }
  }
  return { applied, undone };
}

/**
 * The commands an undo took back and no redo put back, by entry number: undone for good once a
 * later command ends the redo branch, and undone still while they could be redone. What a log
 * marks as undone, however long after.
 */
export function undoneSeqs(log: readonly LogEntry[]): ReadonlySet<number> {
  const applied = new Set(effectiveHistory(log).applied.map((entry) => entry.seq));
  const undone = new Set<number>();
  for (const entry of log)
    if (entry.type === 'command' && !applied.has(entry.seq)) undone.add(entry.seq);
  return undone;
}
