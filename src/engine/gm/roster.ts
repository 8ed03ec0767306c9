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
  const wanted = who.trim().toLowerCase();
  if (wanted === '') return err('gm/unknown-combatant', 'name a combatant by id or name');
  const exact = roster.filter(
    (c) => c.id.toLowerCase() === wanted || c.name.toLowerCase() === wanted,
  );
  if (exact.length === 1) return ok(exact[0]!.id);
  const starts = exact.length > 1 ? exact : roster.filter((c) => startsWith(c, wanted));
  if (starts.length === 1) return ok(starts[0]!.id);
  const shown = who.length > 40 ? `${who.slice(0, 40)}...` : who;
  if (starts.length > 1) {
    const names = starts.map((c) => `${c.name} (${c.id})`).join(', ');
    return err('gm/ambiguous-combatant', `'${shown}' could be ${names}: use the id`);
  }
  const known = roster.map((c) => c.id).join(', ');
  return err('gm/unknown-combatant', `there is no combatant '${shown}' (here: ${known})`);
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
