import { err, ok, type Result } from '../result.js';

/** The GM's notes on combatants ("concentrating", "behind the pillar"), by combatant id. */
export type Notes = Readonly<Record<string, readonly string[]>>;

export type NoteEvent =
  | { readonly type: 'note-added'; readonly target: string; readonly text: string }
  | { readonly type: 'notes-cleared'; readonly target: string };

/** At most this many notes on one combatant: a note is a reminder, not a diary. */
export const MAX_NOTES = 20;

/** The event a `gm-note` command gives: non-empty text adds a note, empty text clears them. */
export function noteEvent(
  notes: Notes,
  target: string,
  text: string,
  name: string,
): Result<NoteEvent> {
  const trimmed = text.trim();
  const current = notesOf(notes, target);
  if (trimmed === '') {
    if (current.length === 0) return err('gm/no-notes', `${name} has no notes to clear`);
    return ok({ type: 'notes-cleared', target });
  }
  if (current.length >= MAX_NOTES)
    return err('gm/too-many-notes', `${name} has ${MAX_NOTES} notes already: clear them first`);
  return ok({ type: 'note-added', target, text: trimmed });
}

export function notesOf(notes: Notes, id: string): readonly string[] {
  return Object.hasOwn(notes, id) ? notes[id]! : [];
}

/** Applies a note event; pure. */
export function evolveNotes(notes: Notes, event: NoteEvent): Notes {
  const next: Record<string, readonly string[]> = { ...notes };
  if (event.type === 'notes-cleared') delete next[event.target];
  else next[event.target] = [...notesOf(notes, event.target), event.text];
  return next;
}
