import type { CarriedAction, CombatantState, FfviiiState, PendingAttack } from './state.js';
import { weaponOf } from './state.js';

/** What a carried action or a declared attack is called in the log and the menus. */
export function carriedName(
  state: FfviiiState,
  actor: CombatantState,
  carried: CarriedAction,
): string {
  if (carried.type === 'summon')
    return `Summon ${state.setup.guardianForces[carried.gf]?.name ?? carried.gf}`;
  const weapon = weaponOf(actor, carried.weapon)?.name ?? carried.weapon;
  return carried.type === 'reload' ? `Reload ${weapon}` : `Attack with ${weapon}`;
}

export function pendingName(state: FfviiiState, pending: PendingAttack): string {
  switch (pending.type) {
    case 'attack': {
      const weapon = weaponOf(state.combatants[pending.actor]!, pending.weapon);
      return `Attack with ${weapon?.name ?? pending.weapon}`;
    }
    case 'cast':
      return `Cast ${state.setup.spells[pending.spell]?.name ?? pending.spell}`;
    case 'use-item':
      return `Use ${state.setup.items[pending.item]?.name ?? pending.item}`;
    case 'summon':
      return `${state.setup.guardianForces[pending.gf]?.ability.name ?? pending.gf}`;
  }
}
