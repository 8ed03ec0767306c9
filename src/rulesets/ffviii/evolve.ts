import { combatantById, gm } from '../../engine/index.js';
import type { FfviiiEvent } from './events.js';
import type { CombatantSheet, FfviiiSetup } from './model.js';
import type { CombatantState, FfviiiState } from './state.js';

export function initialState(setup: FfviiiSetup): FfviiiState {
  const combatants: Record<string, CombatantState> = {};
  const order: string[] = [];
  for (const side of setup.sides) {
    for (const sheet of side.combatants) {
      combatants[sheet.id] = combatantFrom(setup, side.id, sheet);
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
    notes: {},
  };
}

/**
 * A combatant as it enters the fight, from its sheet: the same for the encounter's own and for
 * a newcomer the GM adds. Its HP start at the encounter's `hp:` where given, else the sheet's;
 * guns hold the rounds and statuses it comes with (a campaign's), else full guns and none.
 */
export function combatantFrom(
  setup: FfviiiSetup,
  side: string,
  sheet: CombatantSheet,
): CombatantState {
  const ammo: Record<string, number> = {};
  for (const w of sheet.weapons)
    if (w.gun !== undefined)
      ammo[w.id] = Math.min(w.gun.capacity, sheet.startAmmo?.[w.id] ?? w.gun.capacity);
  const statuses: Record<string, null> = {};
  for (const status of sheet.startStatuses ?? []) statuses[status] = null;
  const hp = sheet.startHp ?? sheet.hp;
  const powerUses: Record<string, number> = {};
  for (const p of sheet.powers) powerUses[p] = setup.powers[p]?.uses ?? 0;
  return {
    id: sheet.id,
    side,
    sheet,
    hp,
    shot: 0,
    initiative: 0,
    debt: 0,
    carrying: null,
    // Only a campaign starts someone at 0 HP: one who fell in an earlier fight and was not healed.
    down: hp <= 0,
    fled: false,
    dismissed: false,
    statuses,
    matrix: sheet.spellMatrix,
    items: sheet.items,
    ammo,
    powerUses,
    initiativeBonus: 0,
    drawBarred: [],
    senseBarred: [],
    sensed: [],
  };
}

/** Every timed status one round shorter; those at their last round were ended already. */
function tick(statuses: CombatantState['statuses']): CombatantState['statuses'] {
  const next: Record<string, number | null> = {};
  for (const [name, rounds] of Object.entries(statuses))
    if (rounds === null) next[name] = null;
    else if (rounds > 1) next[name] = rounds - 1;
  return next;
}

/**
 * A copy with some fields changed, every field written out: one shape for every state and
 * combatant, and cheaper than a spread in a simulation's hot loop.
 */
function withState(s: FfviiiState, changes: Partial<FfviiiState>): FfviiiState {
  const next: FfviiiState = {
    setup: s.setup,
    round: s.round,
    shot: s.shot,
    shots: s.shots,
    phase: s.phase,
    order: s.order,
    combatants: s.combatants,
    pending: s.pending,
    result: s.result,
    notes: s.notes,
  };
  return Object.assign(next, changes);
}

function withFields(c: CombatantState, changes: Partial<CombatantState>): CombatantState {
  const next: CombatantState = {
    id: c.id,
    side: c.side,
    sheet: c.sheet,
    hp: c.hp,
    shot: c.shot,
    initiative: c.initiative,
    debt: c.debt,
    carrying: c.carrying,
    down: c.down,
    fled: c.fled,
    dismissed: c.dismissed,
    statuses: c.statuses,
    matrix: c.matrix,
    items: c.items,
    ammo: c.ammo,
    powerUses: c.powerUses,
    initiativeBonus: c.initiativeBonus,
    drawBarred: c.drawBarred,
    senseBarred: c.senseBarred,
    sensed: c.sensed,
  };
  return Object.assign(next, changes);
}

function withCombatant(
  state: FfviiiState,
  id: string,
  change: (c: CombatantState) => Partial<CombatantState>,
): FfviiiState {
  const c = combatantById(state.combatants, id);
  if (c === undefined) return state;
  const combatants: Record<string, CombatantState> = {};
  for (const key in state.combatants)
    combatants[key] = key === id ? withFields(c, change(c)) : state.combatants[key]!;
  return withState(state, { combatants });
}

/** Applies one event. Events carry the values they set, so this never decides anything. */
export function evolve(state: FfviiiState, event: FfviiiEvent): FfviiiState {
  switch (event.type) {
    case 'round-began': {
      const combatants: Record<string, CombatantState> = { ...state.combatants };
      for (const roll of event.initiative) {
        const c = combatants[roll.id];
        if (c === undefined) continue;
        combatants[roll.id] = withFields(c, {
          initiative: roll.initiative,
          shot: Math.max(0, roll.initiative),
          debt: roll.debtLeft,
          initiativeBonus: 0,
        });
      }
      return withState(state, {
        round: event.round,
        shots: event.shots,
        shot: 0,
        phase: 'shots',
        combatants,
      });
    }
    case 'power-used':
      return withCombatant(state, event.actor, (c) => {
        const power = state.setup.powers[event.power];
        return {
          powerUses: { ...c.powerUses, [event.power]: (c.powerUses[event.power] ?? 1) - 1 },
          initiativeBonus: c.initiativeBonus + (power?.initiative ?? 0),
        };
      });
    case 'shot-called':
      return withState(state, { shot: event.shot, phase: 'shots' });
    case 'round-ended': {
      // Status timers count rounds: one that ran out was ended (status-ended) just before.
      const combatants: Record<string, CombatantState> = {};
      for (const id of state.order) {
        const c = state.combatants[id]!;
        const timed = Object.values(c.statuses).some((r) => r !== null);
        combatants[id] = timed ? withFields(c, { statuses: tick(c.statuses) }) : c;
      }
      return withState(state, { phase: 'initiative', shot: 0, combatants });
    }
    case 'attack-declared':
      return withState(state, { pending: event.pending, phase: 'dodge' });
    case 'dodge-chosen':
      return withCombatant(
        withState(state, { pending: null, phase: 'shots' }),
        event.actor,
        () => ({
          shot: event.shot,
        }),
      );
    case 'action-taken':
      return withCombatant(state, event.actor, (c) => ({
        shot: event.shot,
        debt: c.debt + event.debt,
        carrying: event.carrying,
      }));
    case 'check-rolled':
    case 'critical-failure':
      return state;
    case 'damage-dealt':
    case 'healed':
      return withCombatant(state, event.target, () => ({ hp: event.hpAfter }));
    case 'spell-spent':
      return withCombatant(state, event.actor, (c) => ({
        matrix: { ...c.matrix, [event.spell]: event.left },
      }));
    case 'item-spent':
      return withCombatant(state, event.actor, (c) => ({
        items: { ...c.items, [event.item]: event.left },
      }));
    case 'round-fired':
      return withCombatant(state, event.actor, (c) => ({
        ammo: { ...c.ammo, [event.weapon]: event.left },
      }));
    case 'reloaded':
      return withCombatant(state, event.actor, (c) => ({
        ammo: { ...c.ammo, [event.weapon]: event.ammo },
      }));
    case 'shard-drawn':
      return withCombatant(state, event.actor, (c) => ({
        matrix: { ...c.matrix, [event.spell]: event.stock },
      }));
    case 'draw-barred':
      return withCombatant(state, event.actor, (c) => ({
        drawBarred: [...c.drawBarred, event.target],
      }));
    case 'shards-sensed':
      return withCombatant(state, event.actor, (c) =>
        c.sensed.includes(event.target) ? {} : { sensed: [...c.sensed, event.target] },
      );
    case 'sense-barred':
      return withCombatant(state, event.actor, (c) => ({
        senseBarred: [...c.senseBarred, event.target],
      }));
    case 'action-completed':
      return withCombatant(state, event.actor, () => ({ carrying: null }));
    case 'fell':
      return withCombatant(state, event.target, () => ({ down: true, shot: 0 }));
    case 'fled':
      return withCombatant(state, event.actor, () => ({ fled: true, shot: 0 }));
    case 'gm-set':
      return withCombatant(state, event.target, (c) => {
        switch (event.resource) {
          case 'hp':
            return { hp: event.value };
          case 'shots':
            return { shot: event.value };
          case 'debt':
            return { debt: event.value };
          case 'ammo':
            return { ammo: { ...c.ammo, [event.key!]: event.value } };
          case 'shards':
            return { matrix: { ...c.matrix, [event.key!]: event.value } };
          case 'item':
            return { items: { ...c.items, [event.key!]: event.value } };
        }
      });
    case 'gm-amount-rolled':
      return state;
    case 'stood-up':
      return withCombatant(state, event.target, () => ({ down: false }));
    case 'status-set':
      return withCombatant(state, event.target, (c) => ({
        statuses: { ...c.statuses, [event.status]: event.rounds },
      }));
    case 'status-ended':
      return withCombatant(state, event.target, (c) => {
        const statuses = { ...c.statuses };
        delete statuses[event.status];
        return { statuses };
      });
    case 'combatant-joined': {
      const joined: CombatantState = {
        ...combatantFrom(state.setup, event.side, event.sheet),
        shot: event.shot,
        initiative: event.initiative?.initiative ?? 0,
        debt: event.initiative?.debtLeft ?? 0,
      };
      return {
        ...state,
        order: [...state.order, joined.id],
        combatants: { ...state.combatants, [joined.id]: joined },
      };
    }
    case 'combatant-left':
      return withCombatant(state, event.target, () => ({
        fled: true,
        dismissed: event.reason === 'dismissed',
        shot: 0,
        carrying: null,
      }));
    case 'attack-cancelled':
      return withState(state, { pending: null, phase: 'shots' });
    case 'turn-skipped':
      return withCombatant(state, event.target, () => ({ shot: event.shot }));
    case 'note-added':
    case 'notes-cleared':
      return withState(state, { notes: gm.evolveNotes(state.notes, event) });
    case 'battle-ended':
      return withState(state, {
        phase: 'ended',
        pending: null,
        result: { winner: event.winner, reason: event.reason },
      });
  }
}
