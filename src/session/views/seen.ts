import type { CommandBase, EventBase, LogEntry } from '../../engine/index.js';
import type { AnySystem, CombatantView, EncounterView } from '../../rulesets/system.js';
import type { Role } from './role.js';
import type { HealthBand, SeenCombatant, SeenEntry, SeenView } from './seen-types.js';

/**
 * What each client may see of an encounter: the filtering done per role (the server does it per
 * socket). The GM
 * sees everything; a player or a spectator sees what the table would: the party's figures,
 * a band for everyone else's HP unless the GM revealed them, no GM notes, no GM rolls'
 * figures on hidden combatants.
 */

/** Which combatants' figures a client does not see. Empty for the GM. */
export interface Secrecy {
  readonly hidden: ReadonlySet<string>;
}

export const NOTHING_HIDDEN: Secrecy = { hidden: new Set() };

/**
 * Everyone not on the players' side, except those the GM revealed. Newcomers added by the GM
 * mid-fight are hidden by the same rule, as soon as they appear.
 */
export function secrecyFor(
  role: Role,
  view: EncounterView,
  partySide: string | undefined,
  revealed: ReadonlySet<string>,
): Secrecy {
  if (role.role === 'gm') return NOTHING_HIDDEN;
  const hidden = new Set<string>();
  for (const c of view.combatants) {
    if (c.side !== partySide && !revealed.has(c.id)) hidden.add(c.id);
  }
  return { hidden };
}

/** The table's words for how hurt a combatant looks, from its HP. */
export function healthBand(c: Pick<CombatantView, 'hp' | 'maxHp' | 'out' | 'fled'>): HealthBand {
  // Fled before down: one who ran off is gone, not beaten, whatever HP it left with.
  if (c.fled) return 'fled';
  if (c.out || c.hp <= 0) return 'down';
  if (c.hp >= c.maxHp) return 'unhurt';
  return c.hp * 2 > c.maxHp ? 'wounded' : 'badly wounded';
}

export function seenView(
  view: EncounterView,
  role: Role,
  partySide: string | undefined,
  secrecy: Secrecy,
): SeenView {
  const gm = role.role === 'gm';
  const combatants = view.combatants.map((c): SeenCombatant => {
    const hidden = secrecy.hidden.has(c.id);
    return {
      ...c,
      hp: hidden ? null : c.hp,
      maxHp: hidden ? null : c.maxHp,
      mp: hidden ? null : c.mp,
      maxMp: hidden ? null : c.maxMp,
      ...(c.items === undefined ? {} : { items: hidden ? null : c.items }),
      notes: gm ? c.notes : [],
      band: healthBand(c),
      hidden,
      party: c.side === partySide,
    };
  });
  return { ...view, combatants };
}

/**
 * Figures an event records about its subject afterwards (`hpAfter`), or that a GM set on it
 * (`value`, `before`, `after`), or what it has left (`left`): hidden for a hidden subject.
 */
const FIGURES = ['hpAfter', 'mpAfter', 'value', 'before', 'after', 'left'] as const;

const NOTE_EVENTS = new Set(['note-added', 'notes-cleared']);

/** Masked figures are NaN so the system's own describe runs unchanged; NaN then reads `?`. */
function masked(event: EventBase, secrecy: Secrecy): EventBase {
  const { target, actor } = event as { target?: unknown; actor?: unknown };
  const subject = typeof target === 'string' ? target : actor;
  if (typeof subject !== 'string' || !secrecy.hidden.has(subject)) return event;
  const copy: Record<string, unknown> & EventBase = { ...event };
  for (const field of FIGURES) if (typeof copy[field] === 'number') copy[field] = Number.NaN;
  return copy;
}

/**
 * One line naming an entry as a client sees it: its first line of what happened, else its
 * command, else what any GM change is to the table.
 */
export function entrySummary(entry: SeenEntry): string {
  const first = entry.lines.find((line) => line.trim().length > 0)?.trim();
  return `#${entry.seq}: ${first ?? entry.command?.type ?? 'a GM change'}`;
}

/**
 * A log entry for one client, described against the state right after it. For anyone but the
 * GM: no events or dice, no GM notes, hidden figures as `?`, and GM commands only as the lines
 * the table hears (a GM command's fields can carry a hidden figure or a note's text).
 *
 * An undo or a redo names the commands it `moved`, each as this client sees that command, so
 * a hidden figure stays hidden there too. What it moved is fixed when it is logged, so its text
 * never changes after, like any other entry's.
 */
export function seenEntry(
  system: AnySystem,
  entry: LogEntry<CommandBase, EventBase>,
  after: unknown,
  role: Role,
  secrecy: Secrecy,
  moved: readonly SeenEntry[] = [],
): SeenEntry {
  if (entry.type !== 'command') {
    const verb = entry.type === 'undo' ? 'Undid' : 'Redid';
    return {
      seq: entry.seq,
      kind: entry.type,
      steps: entry.steps,
      moved: moved.map((m) => m.seq),
      lines: moved.map((m) => `${verb} ${entrySummary(m)}`),
    };
  }
  if (role.role === 'gm') {
    return {
      seq: entry.seq,
      kind: 'command',
      command: entry.command as SeenEntry['command'],
      lines: describeSafely(system, entry.events, after),
      events: entry.events,
    };
  }
  const events = entry.events
    .filter((e) => !NOTE_EVENTS.has(e.type))
    .map((e) => masked(e, secrecy));
  const lines = describeSafely(system, events, after).map((line) => line.replace(/\bNaN\b/g, '?'));
  const gmCommand = entry.command.type.startsWith('gm-');
  return {
    seq: entry.seq,
    kind: 'command',
    ...(gmCommand ? {} : { command: entry.command as SeenEntry['command'] }),
    lines,
  };
}

function describeSafely(system: AnySystem, events: readonly EventBase[], after: unknown): string[] {
  if (events.length === 0) return [];
  return system.describe(events, after);
}
