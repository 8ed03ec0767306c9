import { err, ok, type Result } from '../result.js';

/** Who is in the fight, as a person names them. */
export interface RosterEntry {
  readonly id: string;
  readonly name: string;
}

/**
 * The combatant a person means by `who`: an id, or a name, in any case; failing that, the only
 * one whose id or name starts so (`gob` for the only goblin). Never a member of Object.prototype.
 */
export function findCombatant(roster: readonly RosterEntry[], who: string): Result<string> {
  return findNamed(roster, who, 'combatant');
}

/**
 * What a person means by `who` among `entries` (combatants, sides, statuses, content): an id or
 * a name in any case, else the only one whose id or name starts so. Several that fit are refused
 * naming each; none, naming what there is. `noun` names the kind in the refusal, `code` in its
 * error code.
 */
export function findNamed(
  entries: readonly RosterEntry[],
  who: string,
  noun: string,
  code: string = noun,
): Result<string> {
  const wanted = who.trim().toLowerCase();
  if (wanted === '') return err(`gm/unknown-${code}`, `name a ${noun} by id or name`);
  const exact = entries.filter(
    (c) => c.id.toLowerCase() === wanted || c.name.toLowerCase() === wanted,
  );
  if (exact.length === 1) return ok(exact[0]!.id);
  const starts = exact.length > 1 ? exact : entries.filter((c) => startsWith(c, wanted));
  if (starts.length === 1) return ok(starts[0]!.id);
  const shown = who.length > 40 ? `${who.slice(0, 40)}...` : who;
  if (starts.length > 1) {
    const names = starts
      .slice(0, 8)
      .map((c) => `${c.name} (${c.id})`)
      .join(', ');
    const more = starts.length > 8 ? ` and ${starts.length - 8} more` : '';
    return err(`gm/ambiguous-${code}`, `'${shown}' could be ${names}${more}: use the id`);
  }
  const known = entries.slice(0, 30).map((c) => c.id);
  const list = `${known.join(', ')}${entries.length > 30 ? ', ...' : ''}`;
  return err(`gm/unknown-${code}`, `there is no ${noun} '${shown}' (here: ${list || 'none'})`);
}

/** Whether `text` names exactly one entry, by id or name in any case: the longest-match test. */
export function namesExactly(entries: readonly RosterEntry[], text: string): string | undefined {
  const wanted = text.toLowerCase();
  const exact = entries.filter(
    (c) => c.id.toLowerCase() === wanted || c.name.toLowerCase() === wanted,
  );
  return exact.length === 1 ? exact[0]!.id : undefined;
}

function startsWith(c: RosterEntry, wanted: string): boolean {
  return c.id.toLowerCase().startsWith(wanted) || c.name.toLowerCase().startsWith(wanted);
}

/**
 * The id and name a newcomer gets: its content id and sheet name, or the name the GM gave,
 * numbered past any already taken (`goblin-2`, "Goblin 2"), so the same monster can join twice.
 */
export function newcomerIdentity(
  taken: readonly RosterEntry[],
  base: RosterEntry,
  requestedName?: string,
): RosterEntry {
  const ids = new Set(taken.map((c) => c.id));
  const names = new Set(taken.map((c) => c.name.toLowerCase()));
  const baseId = requestedName === undefined ? base.id : slug(requestedName) || base.id;
  const baseName = requestedName ?? base.name;
  for (let n = 1; ; n++) {
    const id = n === 1 ? baseId : `${baseId}-${n}`;
    const name = n === 1 ? baseName : `${baseName} ${n}`;
    if (!ids.has(id) && !names.has(name.toLowerCase()) && !(id in Object.prototype))
      return { id, name };
  }
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
