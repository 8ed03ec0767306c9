import type { LegalAction } from '../../engine/index.js';
import type { ZodiacCommand } from './commands.js';
import type { Item, Tech } from './model.js';
import {
  type CombatantState,
  currentActor,
  hasStatus,
  isBeyondRevival,
  isStanding,
  type ZodiacState,
} from './state.js';
import { STATUSES } from './statuses.js';

/**
 * Labels name only sheets, techs and items, which never change in a fight: each is made once per
 * pair of objects, as simulations ask for the legal actions before every command.
 */
const LABELS = new WeakMap<object, WeakMap<object, string>>();

function labelOnce(first: object, second: object, make: () => string): string {
  let bySecond = LABELS.get(first);
  if (bySecond === undefined) {
    bySecond = new WeakMap();
    LABELS.set(first, bySecond);
  }
  let label = bySecond.get(second);
  if (label === undefined) {
    label = make();
    bySecond.set(second, label);
  }
  return label;
}

type Aim = 'enemy' | 'ally' | 'fallen' | 'any';

/**
 * Whom a Tech or Potion is meant for, as the table would offer it: damage and negative effects at
 * enemies, healing, cures and positive effects at allies, revival at the fallen. A command may
 * still aim anything anywhere ("may be used on any target"); this only orders what is offered.
 */
const AIMS = new WeakMap<Tech | Item, Aim>();

function aimOf(what: Tech | Item): Aim {
  let aim = AIMS.get(what);
  if (aim === undefined) {
    if (what.revive !== undefined) aim = 'fallen';
    else if ('type' in what) {
      const polarity = what.inflicts.map((x) => STATUSES[x.status].polarity);
      if (what.damage !== undefined || polarity.includes('negative') || what.dispel === 'positive')
        aim = 'enemy';
      else if (
        what.heal !== undefined ||
        what.cures.length > 0 ||
        polarity.includes('positive') ||
        what.dispel !== undefined
      )
        aim = 'ally';
      else aim = 'any';
    } else aim = 'ally';
    AIMS.set(what, aim);
  }
  return aim;
}

const FREE_ACTIONS = new Map<string, LegalAction<ZodiacCommand>>();

function freeAction(actor: string): LegalAction<ZodiacCommand> {
  let action = FREE_ACTIONS.get(actor);
  if (action === undefined) {
    action = {
      label: 'Free Action (no SP; one a turn)',
      command: { type: 'free-action', actor, action: 'a Free Action' },
    };
    FREE_ACTIONS.set(actor, action);
  }
  return action;
}

const BEGIN: LegalAction<ZodiacCommand> = {
  label: 'Begin the battle (everyone rolls 1d8 Speed Points)',
  command: { type: 'begin-battle' },
};

/**
 * What can be done now: begin the battle, or the current combatant's actions. Charmed and
 * Confused combatants act as the GM decides ("This is up to the Master to enforce"): their actions
 * are offered with any target and labelled so; a simulation's policy simply picks one.
 */
export function legalActions(state: ZodiacState): LegalAction<ZodiacCommand>[] {
  if (state.phase === 'ended') return [];
  if (state.phase === 'start') return [BEGIN];
  const actor = currentActor(state);
  if (actor === undefined) return [];
  const actions: LegalAction<ZodiacCommand>[] = [];
  const charmed = hasStatus(actor, 'charm');
  const confused = hasStatus(actor, 'confusion');
  const prefix = confused
    ? 'Confused (the GM chooses): '
    : charmed
      ? 'Charmed (the GM chooses): '
      : '';
  /** Whom it would treat as an enemy: Charm turns it on its own side. */
  const hostile = (c: CombatantState): boolean =>
    confused
      ? c.id !== actor.id
      : charmed
        ? c.side === actor.side && c.id !== actor.id
        : c.side !== actor.side;
  const friendly = (c: CombatantState): boolean =>
    confused ? true : charmed ? c.side !== actor.side : c.side === actor.side;
  const weapon = actor.sheet.weapon?.name ?? 'bare hands';
  for (const id of state.order) {
    const target = state.combatants[id]!;
    if (!isStanding(target) || !hostile(target)) continue;
    actions.push({
      label:
        prefix === ''
          ? labelOnce(actor.sheet, target.sheet, () => `Attack ${target.sheet.name} with ${weapon}`)
          : `${prefix}Attack ${target.sheet.name} with ${weapon}`,
      command: { type: 'attack', actor: actor.id, target: id },
    });
  }
  if (hasStatus(actor, 'berserk')) {
    if (actions.length > 0) return actions;
    return [
      {
        label: 'Berserk, with nobody to attack: Defend',
        command: { type: 'defend', actor: actor.id },
      },
    ];
  }
  if (!hasStatus(actor, 'seal') && !hasStatus(actor, 'frog')) {
    for (const techId of actor.sheet.techs) {
      const tech = state.setup.techs[techId];
      if (tech === undefined || tech.mpCost > actor.mp) continue;
      // "cast fire" as a table says it: magic is cast, a Weapon Tech is named as it is.
      const verb = tech.type === 'magic' ? `Cast ${tech.name}` : tech.name;
      if (tech.target !== 'single') {
        actions.push({
          label: `${prefix}${verb}`,
          command: { type: 'tech', actor: actor.id, tech: techId },
        });
        continue;
      }
      const aim = aimOf(tech);
      for (const id of state.order) {
        const c = state.combatants[id]!;
        if (!offered(aim, c, hostile, friendly)) continue;
        actions.push({
          label:
            prefix === ''
              ? labelOnce(tech, c.sheet, () => `${verb} on ${c.sheet.name}`)
              : `${prefix}${verb} on ${c.sheet.name}`,
          command: { type: 'tech', actor: actor.id, tech: techId, target: id },
        });
      }
    }
  }
  for (const itemId of Object.keys(actor.items)) {
    const item = state.setup.items[itemId];
    if (item === undefined || (actor.items[itemId] ?? 0) <= 0) continue;
    const aim = aimOf(item);
    // "Potions can be used on any target": the expected ones first, then everyone else it
    // could reach (a Phoenix Down on an undead foe, a Potion thrown to the enemy's healer).
    const label = (c: CombatantState): string =>
      prefix === ''
        ? labelOnce(item, c.sheet, () => `Use ${item.name} on ${c.sheet.name}`)
        : `${prefix}Use ${item.name} on ${c.sheet.name}`;
    for (const id of state.order) {
      const c = state.combatants[id]!;
      if (!offered(aim, c, hostile, friendly)) continue;
      actions.push({
        label: label(c),
        command: { type: 'item', actor: actor.id, item: itemId, target: id },
      });
    }
    // Revival items stay with the fallen: on anyone standing they would do nothing.
    for (const id of aim === 'fallen' ? [] : state.order) {
      const c = state.combatants[id]!;
      if (offered(aim, c, hostile, friendly) || !offered('any', c, hostile, friendly)) continue;
      actions.push({
        label: label(c),
        command: { type: 'item', actor: actor.id, item: itemId, target: id },
      });
    }
  }
  actions.push({ label: `${prefix}Defend`, command: { type: 'defend', actor: actor.id } });
  // The turn's one Free Action, before the action; what it is, the player says (or types).
  if (!state.freeActionUsed) actions.push(freeAction(actor.id));
  return actions;
}

function offered(
  aim: Aim,
  c: CombatantState,
  hostile: (c: CombatantState) => boolean,
  friendly: (c: CombatantState) => boolean,
): boolean {
  switch (aim) {
    case 'fallen':
      return c.unconscious && !isBeyondRevival(c) && friendly(c);
    case 'enemy':
      return isStanding(c) && hostile(c);
    case 'ally':
      return isStanding(c) && friendly(c);
    case 'any':
      return isStanding(c);
  }
}
