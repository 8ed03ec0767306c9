import type { LegalAction } from '../../engine/index.js';
import type { FfrpgCommand } from './commands.js';
import { canAct } from './decide.js';
import { type Ability, ATTRIBUTES } from './model.js';
import { type CombatantState, currentActor, type FfrpgState, isActive } from './state.js';

/**
 * Labels name only sheets, sides and abilities, which never change in a fight: each is made once
 * per pair of objects, as simulations ask for the legal actions before every command.
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

/**
 * Whom an ability is meant for, as the table would offer it: healing, cures and positive
 * statuses at allies, damage and negative statuses at enemies. The GM may still aim any
 * ability anywhere with a command; this only orders what is offered.
 */
const AIMS = new WeakMap<Ability, 'ally' | 'enemy' | 'any'>();

function aimOf(state: FfrpgState, ability: Ability): 'ally' | 'enemy' | 'any' {
  let aim = AIMS.get(ability);
  if (aim === undefined) {
    const polarity = ability.inflicts.map((x) => state.setup.statuses[x.status]?.polarity);
    if (ability.damage !== undefined || polarity.includes('negative')) aim = 'enemy';
    else if (
      ability.heal !== undefined ||
      ability.cures.length > 0 ||
      polarity.includes('positive')
    )
      aim = 'ally';
    else aim = 'any';
    AIMS.set(ability, aim);
  }
  return aim;
}

const END_SCENE: LegalAction<FfrpgCommand> = {
  label: 'End the Scene',
  command: { type: 'end-scene' },
};

/** What can be done now: begin the next round, or the current combatant's actions and targets. */
export function legalActions(state: FfrpgState): LegalAction<FfrpgCommand>[] {
  if (state.phase === 'ended') return [];
  const scene = state.setup.mode === 'scene';
  if (state.phase === 'initiative') {
    const begin: LegalAction<FfrpgCommand> = {
      label: `Begin round ${state.round + 1} (roll Initiative)`,
      command: { type: 'begin-round' },
    };
    return scene ? [begin, END_SCENE] : [begin];
  }
  const actor = currentActor(state);
  if (actor === undefined || !canAct(state, actor)) return [];
  const actions: LegalAction<FfrpgCommand>[] = [];
  // Built once and reused below; simulations ask for legal actions before every command.
  const others: CombatantState[] = [];
  for (const id of state.order) {
    const c = state.combatants[id]!;
    if (isActive(c)) others.push(c);
  }
  const weapon = actor.sheet.weapon?.name ?? 'bare hands';
  for (const target of others) {
    if (target.side === actor.side) continue;
    actions.push({
      label: labelOnce(
        actor.sheet,
        target.sheet,
        () => `Attack ${target.sheet.name} with ${weapon}`,
      ),
      command: { type: 'attack', actor: actor.id, target: target.id },
    });
  }
  for (const abilityId of actor.sheet.abilities) {
    const ability = state.setup.abilities[abilityId];
    if (ability === undefined || ability.type === 'reaction' || ability.type === 'support')
      continue;
    if (ability.mpCost > actor.mp) continue;
    if (
      ability.cost.hpPercent > 0 &&
      Math.floor((actor.sheet.stats.hp * ability.cost.hpPercent) / 100) >= actor.hp
    )
      continue;
    const aim = aimOf(state, ability);
    // "cast cure", "use darkside": the verb a table says, so the label can be typed by it.
    const named = `${ability.type === 'magic' ? 'Cast' : 'Use'} ${ability.name}`;
    if (ability.target === 'single') {
      for (const c of others) {
        if (aim !== 'any' && (aim === 'ally') !== (c.side === actor.side)) continue;
        actions.push({
          label: labelOnce(ability, c.sheet, () => `${named} on ${c.sheet.name}`),
          command: { type: 'use-ability', actor: actor.id, ability: abilityId, target: c.id },
        });
      }
    } else if (ability.target === 'group') {
      for (const side of state.setup.sides) {
        actions.push({
          label: labelOnce(ability, side, () => `${named} on ${side.name}`),
          command: { type: 'use-ability', actor: actor.id, ability: abilityId, target: side.id },
        });
      }
    } else {
      actions.push({
        label: named,
        command: { type: 'use-ability', actor: actor.id, ability: abilityId },
      });
    }
  }
  if (state.setup.mode === 'scene') {
    // The GM sets the Conditional Modifier; these list what can be rolled.
    for (const skill of Object.keys(actor.sheet.skills)) {
      actions.push({
        label: `Task Check: ${skill}`,
        command: {
          type: 'task-check',
          actor: actor.id,
          skill,
          modifier: 0,
          impossible: false,
          called: false,
        },
      });
    }
    for (const attribute of ATTRIBUTES) {
      actions.push({
        label: `Task Check: ${attribute}`,
        command: {
          type: 'task-check',
          actor: actor.id,
          attribute,
          modifier: 0,
          impossible: false,
          called: false,
        },
      });
    }
  }
  actions.push({ label: 'Pass', command: { type: 'pass', actor: actor.id } });
  actions.push({ label: 'Flee', command: { type: 'flee', actor: actor.id } });
  if (scene) actions.push(END_SCENE);
  return actions;
}
