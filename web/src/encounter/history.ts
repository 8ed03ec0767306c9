import type { SeenEntry } from '../types.js';

/**
 * What undo and redo would change, from the log alone: the commands in force (oldest first)
 * and those undone and not yet redone (the next redo last), as the engine keeps them.
 */
export function undoStacks(entries: readonly SeenEntry[]): {
  done: SeenEntry[];
  undone: SeenEntry[];
} {
  const done: SeenEntry[] = [];
  let undone: SeenEntry[] = [];
  for (const entry of entries) {
    if (entry.kind === 'command') {
      done.push(entry);
      undone = [];
    } else if (entry.kind === 'undo') {
      for (let i = 0; i < (entry.steps ?? 1) && done.length > 0; i++) undone.push(done.pop()!);
    } else {
      for (let i = 0; i < (entry.steps ?? 1) && undone.length > 0; i++) done.push(undone.pop()!);
    }
  }
  return { done, undone };
}

/**
 * The commands undone and never redone, by entry number: still undone after a later command
 * ends the redo branch, so the log never reads an undone blow as one that landed.
 */
export function undoneSeqs(entries: readonly SeenEntry[]): ReadonlySet<number> {
  const done = new Set(undoStacks(entries).done.map((e) => e.seq));
  return new Set(entries.filter((e) => e.kind === 'command' && !done.has(e.seq)).map((e) => e.seq));
}

/** One line naming an entry: its first line of what happened, or its command. */
export function entrySummary(entry: SeenEntry): string {
  const first = entry.lines.find((l) => l.trim().length > 0)?.trim();
  if (first) return `#${entry.seq}: ${first}`;
  if (entry.command) return `#${entry.seq}: ${entry.command.type}`;
  return `#${entry.seq}`;
}
