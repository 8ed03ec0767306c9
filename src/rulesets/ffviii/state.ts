import type { gm, RollRecord } from '../../engine/index.js';
import type { CombatantSheet, Element, FfviiiSetup } from './model.js';

/**
 * An action longer than 4 shots started without the shots for it: it carries into the next
 * round as shot debt and completes when the debt is paid.
 */
export type CarriedAction =
  | { readonly type: 'summon'; readonly gf: string; readonly target: string }
  | { readonly type: 'attack'; readonly weapon: string; readonly target: string }
  | { readonly type: 'reload'; readonly weapon: string };

export interface CombatantState {
  readonly id: string;
  readonly side: string;
  readonly sheet: CombatantSheet;
  readonly hp: number;
  /**
   * The shot it acts on next. 0 when it has no shots left this round: "as soon as the
   * character hits 0 shots, no further actions can be taken, not even dodging".
   */
  readonly shot: number;
  /** This round's initiative, as rolled (after debt). */
  readonly initiative: number;
  /** Shots owed to an action carried over, taken from the next initiative. */
  readonly debt: number;
  readonly carrying: CarriedAction | null;
  /** Out of the fight: fallen at the end of a shot, or fled. */
  readonly down: boolean;
  /** Left the fight: ran away, or taken out by the GM (`dismissed` then says so). */
  readonly fled: boolean;
  readonly dismissed: boolean;
  /**
   * Statuses the GM tracks, with rounds left (null: until ended). The text names status spells
   * but gives no status effects, so these carry no rules of their own (docs/rulings.md).
   */
  readonly statuses: Readonly<Record<string, number | null>>;
  /** Spells in stock in the Spell Matrix. */
  readonly matrix: Readonly<Record<string, number>>;
  readonly items: Readonly<Record<string, number>>;
  /** Rounds left in each gun, by weapon id. */
  readonly ammo: Readonly<Record<string, number>>;
  /** Power uses left this encounter, and this round's initiative bonus from them. */
  readonly powerUses: Readonly<Record<string, number>>;
  readonly initiativeBonus: number;
  /** Monsters it may never draw from again (a critical failure on Draw). */
  readonly drawBarred: readonly string[];
  /** Monsters it cannot sense for a moon cycle (a critical failure on Sense). */
  readonly senseBarred: readonly string[];
  /** Monsters whose Spellshards it has sensed. */
  readonly sensed: readonly string[];
}

/** An attack waiting on its target's choice to dodge: "Whenever a character or monster is attacked, they have the option to dodge." */
export type PendingAttack = {
  readonly actor: string;
  readonly target: string;
  readonly shots: number;
} & (
  | { readonly type: 'attack'; readonly weapon: string }
  | { readonly type: 'cast'; readonly spell: string }
  | { readonly type: 'use-item'; readonly item: string; readonly skill: string }
  | { readonly type: 'summon'; readonly gf: string; readonly carried: boolean }
);

export type Phase = 'initiative' | 'shots' | 'dodge' | 'ended';

export interface FfviiiState {
  readonly setup: FfviiiSetup;
  readonly round: number;
  /** The shot the GM has called; 0 before the first round. */
  readonly shot: number;
  /** The round's shot count: its highest initiative. */
  readonly shots: number;
  readonly phase: Phase;
  readonly order: readonly string[];
  readonly combatants: Readonly<Record<string, CombatantState>>;
  readonly pending: PendingAttack | null;
  readonly result: { readonly winner: string | null; readonly reason: string } | null;
  /** The GM's notes on combatants, by id. */
  readonly notes: gm.Notes;
}

export type { RollRecord };

/** Still in the fight: not fallen and not fled. */
export function inFight(c: CombatantState): boolean {
  return !c.down && !c.fled;
}

/** Standing: in the fight with HP left (one at 0 HP still finishes its action this shot). */
export function standing(c: CombatantState): boolean {
  return !c.down && !c.fled && c.hp > 0;
}

/**
 * An Action Value by Skill: Attribute + points, or a monster's plain value. A Skill the sheet
 * lacks is rolled on its Attribute alone when it names one the rules know, otherwise 0.
 */
export function actionValue(sheet: CombatantSheet, skill: string): number {
  const s = sheet.skills[skill];
  if (s === undefined) return 0;
  if (s.actionValue !== undefined) return s.actionValue;
  return (sheet.attributes[s.attribute ?? ''] ?? 0) + (s.bonus ?? 0);
}

/** The best of several Skills (a weapon usable with Martial Arts or Weapon Focus). */
export function bestSkill(
  sheet: CombatantSheet,
  skills: readonly string[],
): { skill: string; actionValue: number } {
  let best = { skill: skills[0] ?? 'none', actionValue: -1 };
  for (const skill of skills) {
    const av = actionValue(sheet, skill);
    if (av > best.actionValue) best = { skill, actionValue: av };
  }
  return { skill: best.skill, actionValue: Math.max(0, best.actionValue) };
}

/** The Dodge rating, before any dodging, by the table's formula (see docs/rulings.md). */
export function dodgeRating(state: FfviiiState, c: CombatantState): number {
  const sheet = c.sheet;
  if (sheet.dodge !== undefined) return sheet.dodge;
  if (state.setup.options.dodgeFormula === 'evade') return sheet.attributes.evade;
  let best = 0;
  for (const skill of Object.values(sheet.skills))
    if (skill.combat) best = Math.max(best, skill.bonus ?? 0);
  return best + sheet.attributes.evade;
}

export function spiritAgainst(c: CombatantState, element: Element | undefined): number {
  const own = c.sheet.attributes.spirit;
  if (element === undefined) return own;
  return c.sheet.elementalSpirit[element] ?? own;
}

/** "A mage can hit any target within his Sorcery AV x 3, measured in yards." */
export function spellRange(c: CombatantState): number {
  return actionValue(c.sheet, 'sorcery') * 3;
}

export function distance(a: CombatantState, b: CombatantState): number | undefined {
  const p = a.sheet.position;
  const q = b.sheet.position;
  if (p === undefined || q === undefined) return undefined;
  return Math.hypot(p.x - q.x, p.y - q.y);
}

/** Who acts on the called shot: everyone in the fight whose shot it is, in encounter order. */
export function actorNow(state: FfviiiState): CombatantState | undefined {
  if (state.phase === 'dodge' && state.pending !== null)
    return state.combatants[state.pending.target];
  if (state.phase !== 'shots') return undefined;
  for (const id of state.order) {
    const c = state.combatants[id]!;
    if (inFight(c) && c.shot === state.shot && state.shot > 0) return c;
  }
  return undefined;
}

export function weaponOf(
  c: CombatantState,
  id: string | undefined,
): CombatantState['sheet']['weapons'][number] | undefined {
  return id === undefined ? c.sheet.weapons[0] : c.sheet.weapons.find((w) => w.id === id);
}

export function gunToReload(
  c: CombatantState,
  id: string | undefined,
): CombatantState['sheet']['weapons'][number] | undefined {
  if (id !== undefined) return c.sheet.weapons.find((w) => w.id === id && w.gun !== undefined);
  return c.sheet.weapons.find((w) => w.gun !== undefined && (c.ammo[w.id] ?? 0) < w.gun.capacity);
}

/** Using an item costs 3 shots, like the text's other quick actions. */
export const USE_ITEM_SHOTS = 3;

/**
 * An item used on someone, as an attack waiting to resolve: thrown with the Skill named, or the
 * best of Guns, Weapon Focus and Martial Arts. Deciding it and its odds read this one.
 */
export function itemUse(
  actor: CombatantState,
  command: { readonly target: string; readonly item: string; readonly skill?: string | undefined },
): Extract<PendingAttack, { type: 'use-item' }> {
  return {
    type: 'use-item',
    actor: actor.id,
    target: command.target,
    shots: USE_ITEM_SHOTS,
    item: command.item,
    skill: command.skill ?? bestSkill(actor.sheet, ['guns', 'weapon-focus', 'martial-arts']).skill,
  };
}
