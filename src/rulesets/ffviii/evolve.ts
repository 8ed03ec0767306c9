import type { FfviiiEvent } from './events.js';
import type { FfviiiSetup } from './model.js';
import type { CombatantState, FfviiiState } from './state.js';

export function initialState(setup: FfviiiSetup): FfviiiState {
  const combatants: Record<string, CombatantState> = {};
  const order: string[] = [];
  for (const side of setup.sides) {
    for (const sheet of side.combatants) {
      const ammo: Record<string, number> = {};
      for (const w of sheet.weapons) if (w.gun !== undefined) ammo[w.id] = w.gun.capacity;
      const powerUses: Record<string, number> = {};
      for (const p of sheet.powers) powerUses[p] = setup.powers[p]?.uses ?? 0;
      combatants[sheet.id] = {
        id: sheet.id,
        side: side.id,
        sheet,
        hp: sheet.hp,
        shot: 0,
        initiative: 0,
        debt: 0,
        carrying: null,
        down: false,
        fled: false,
        matrix: sheet.spellMatrix,
        items: sheet.items,
        ammo,
        powerUses,
        initiativeBonus: 0,
        drawBarred: [],
        senseBarred: [],
        sensed: [],
      };
      order.push(sheet.id);
    }
  }
  return {
    setup,
    round: 0,
    shot: 0,
    shots: 0,
    phase: 'initiative',
    order,
    combatants,
    pending: null,
    result: null,
  };
}

function withCombatant(
  state: FfviiiState,
  id: string,
  change: (c: CombatantState) => CombatantState,
): FfviiiState {
  const c = state.combatants[id];
  if (c === undefined) return state;
  return { ...state, combatants: { ...state.combatants, [id]: change(c) } };
}

/** Applies one event. Events carry the values they set, so this never decides anything. */
export function evolve(state: FfviiiState, event: FfviiiEvent): FfviiiState {
  switch (event.type) {
    case 'round-began': {
      const combatants: Record<string, CombatantState> = { ...state.combatants };
      for (const roll of event.initiative) {
        const c = combatants[roll.id];
        if (c === undefined) continue;
        combatants[roll.id] = {
          ...c,
          initiative: roll.initiative,
          shot: Math.max(0, roll.initiative),
          debt: roll.debtLeft,
          initiativeBonus: 0,
        };
      }
      return {
        ...state,
        round: event.round,
        shots: event.shots,
        shot: 0,
        phase: 'shots',
        combatants,
      };
    }
    case 'power-used':
      return withCombatant(state, event.actor, (c) => {
        const power = state.setup.powers[event.power];
        return {
          ...c,
          powerUses: { ...c.powerUses, [event.power]: (c.powerUses[event.power] ?? 1) - 1 },
          initiativeBonus: c.initiativeBonus + (power?.initiative ?? 0),
        };
      });
    case 'shot-called':
      return { ...state, shot: event.shot, phase: 'shots' };
    case 'round-ended':
      return { ...state, phase: 'initiative', shot: 0 };
    case 'attack-declared':
      return { ...state, pending: event.pending, phase: 'dodge' };
    case 'dodge-chosen':
      return withCombatant({ ...state, pending: null, phase: 'shots' }, event.actor, (c) => ({
        ...c,
        shot: event.shot,
      }));
    case 'action-taken':
      return withCombatant(state, event.actor, (c) => ({
        ...c,
        shot: event.shot,
        debt: c.debt + event.debt,
        carrying: event.carrying,
      }));
    case 'check-rolled':
    case 'critical-failure':
      return state;
    case 'damage-dealt':
    case 'healed':
      return withCombatant(state, event.target, (c) => ({ ...c, hp: event.hpAfter }));
    case 'spell-spent':
      return withCombatant(state, event.actor, (c) => ({
        ...c,
        matrix: { ...c.matrix, [event.spell]: event.left },
      }));
    case 'item-spent':
      return withCombatant(state, event.actor, (c) => ({
        ...c,
        items: { ...c.items, [event.item]: event.left },
      }));
    case 'round-fired':
      return withCombatant(state, event.actor, (c) => ({
        ...c,
        ammo: { ...c.ammo, [event.weapon]: event.left },
      }));
    case 'reloaded':
      return withCombatant(state, event.actor, (c) => ({
        ...c,
        ammo: { ...c.ammo, [event.weapon]: event.ammo },
      }));
    case 'shard-drawn':
      return withCombatant(state, event.actor, (c) => ({
        ...c,
        matrix: { ...c.matrix, [event.spell]: event.stock },
      }));
    case 'draw-barred':
      return withCombatant(state, event.actor, (c) => ({
        ...c,
        drawBarred: [...c.drawBarred, event.target],
      }));
    case 'shards-sensed':
      return withCombatant(state, event.actor, (c) =>
        c.sensed.includes(event.target) ? c : { ...c, sensed: [...c.sensed, event.target] },
      );
    case 'sense-barred':
      return withCombatant(state, event.actor, (c) => ({
        ...c,
        senseBarred: [...c.senseBarred, event.target],
      }));
    case 'action-completed':
      return withCombatant(state, event.actor, (c) => ({ ...c, carrying: null }));
    case 'fell':
      return withCombatant(state, event.target, (c) => ({ ...c, down: true, shot: 0 }));
    case 'fled':
      return withCombatant(state, event.actor, (c) => ({ ...c, fled: true, shot: 0 }));
    case 'gm-adjusted':
      return withCombatant(state, event.target, (c) => ({
        ...c,
        ...(event.hp === undefined ? {} : { hp: event.hp }),
        // HP given back to the fallen brings them back into the fight (from the next round).
        ...(event.hp !== undefined && event.hp > 0 && c.down && !c.fled ? { down: false } : {}),
        ...(event.shot === undefined ? {} : { shot: event.shot }),
        ...(event.debt === undefined ? {} : { debt: event.debt }),
      }));
    case 'battle-ended':
      return {
        ...state,
        phase: 'ended',
        pending: null,
        result: { winner: event.winner, reason: event.reason },
      };
  }
}
