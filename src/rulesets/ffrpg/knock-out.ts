import type { Resolution } from './resolution.js';

/** A combatant at 0 HP is out; the Status Conditions on them end with them. */
export function knockOut(r: Resolution, id: string): void {
  r.emit({ type: 'knocked-out', target: id });
  for (const s of r.combatant(id).statuses) {
    r.emit({ type: 'status-ended', target: id, status: s.status, reason: 'knocked-out' });
  }
}
