import type { Variables } from '../../dice/index.js';
import { type DiceRoller, Resolution as EngineResolution } from '../../engine/index.js';
import { judgePercentileRoll } from './checks/index.js';
import type { CheckRecord, FfrpgEvent } from './events.js';
import { evolve } from './evolve.js';
import type { Ability, PassiveEffect, ReactionTrigger, StatusDefinition } from './model.js';
import { type CombatantState, type FfrpgState, isActive } from './state.js';

/** The engine's Resolution, with this ruleset's lookups. */
export class Resolution extends EngineResolution<FfrpgState, FfrpgEvent> {
  constructor(state: FfrpgState, dice: DiceRoller) {
    super(state, dice, evolve);
  }

  combatant(id: string): CombatantState {
    const c = this.state.combatants[id];
    if (c === undefined) throw new Error(`no combatant ${id}`);
    return c;
  }

  ability(id: string): Ability {
    const a = this.state.setup.abilities[id];
    if (a === undefined) throw new Error(`no ability ${id}`);
    return a;
  }

  status(id: string): StatusDefinition {
    const s = this.state.setup.statuses[id];
    if (s === undefined) throw new Error(`no status ${id}`);
    return s;
  }

  /** Rolls d% for a check and judges it; attacks and effects always roll, so Criticals stay possible. */
  check(purpose: string, cos: number, formula: string, impossible = false): CheckRecord {
    const roll = this.dice.roll(purpose, 'd%');
    const { botchAlwaysFails, ruleOf10Reading } = this.state.setup.options;
    const judged = judgePercentileRoll(cos, roll.total, {
      botchAlwaysFails,
      ruleOf10Reading,
      impossible,
    });
    return {
      cos,
      formula,
      roll,
      success: judged.success,
      critical: judged.critical,
      botch: judged.botch,
      ruleOf10: judged.ruleOf10,
      automatic: false,
    };
  }
}

export const AUTOMATIC: CheckRecord = {
  cos: 100,
  formula: 'automatic',
  roll: null,
  success: true,
  critical: false,
  botch: false,
  ruleOf10: false,
  automatic: true,
};

/** Support abilities and Status Conditions in effect on a combatant. */
export function passives(state: FfrpgState, c: CombatantState): readonly Passive[] {
  const support = supportPassives(state, c);
  if (c.statuses.length === 0) return support;
  const out: Passive[] = [...support];
  for (const s of c.statuses) {
    const status = state.setup.statuses[s.status];
    if (status !== undefined)
      for (const effect of status.effects) out.push({ source: status.name, effect });
  }
  return out;
}

type Passive = { readonly source: string; readonly effect: PassiveEffect };

/**
 * A sheet's Support abilities never change during a fight: worked out once per sheet, as
 * damage and checks ask for them on every roll.
 */
const SUPPORT = new WeakMap<object, readonly Passive[]>();

function supportPassives(state: FfrpgState, c: CombatantState): readonly Passive[] {
  let found = SUPPORT.get(c.sheet);
  if (found === undefined) {
    const list: Passive[] = [];
    for (const id of c.sheet.abilities) {
      const ability = state.setup.abilities[id];
      if (ability?.type === 'support')
        for (const effect of ability.passive) list.push({ source: ability.name, effect });
    }
    found = list;
    SUPPORT.set(c.sheet, found);
  }
  return found;
}

export function hasEffect(
  state: FfrpgState,
  c: CombatantState,
  kind: PassiveEffect['kind'],
): string | undefined {
  // A loop, not find(): this runs for every combatant at every step of a simulated battle.
  for (const p of passives(state, c)) if (p.effect.kind === kind) return p.source;
  return undefined;
}

export type StatName = 'acc' | 'macc' | 'eva' | 'meva' | 'arm' | 'marm';

/** A Combatant Statistic with Support and Status bonuses. */
export function stat(state: FfrpgState, c: CombatantState, name: StatName): number {
  let value = c.sheet.stats[name];
  for (const { effect } of passives(state, c)) {
    if (effect.kind === 'stat-bonus' && effect.stat === name) value += effect.amount;
  }
  return Math.max(0, value);
}

/** The names a damage code or CoS formula may use: the Attributes, level and statistics. */
export function variablesOf(state: FfrpgState, c: CombatantState, skill?: string): Variables {
  const a = c.sheet.attributes;
  return {
    STR: a.STR,
    VIT: a.VIT,
    AGI: a.AGI,
    SPD: a.SPD,
    MAG: a.MAG,
    SPR: a.SPR,
    LVL: c.level,
    ACC: stat(state, c, 'acc'),
    MACC: stat(state, c, 'macc'),
    SKILL: skill === undefined ? 0 : (c.sheet.skills[skill] ?? 0),
  };
}

/** No Reaction led here: the chain every action starts with (never changed, so shared). */
export const NO_TRIGGERS: ReadonlySet<ReactionTrigger> = new Set();

export function isEnemy(a: CombatantState, b: CombatantState): boolean {
  return a.side !== b.side;
}

/** Neither down, fled, nor held by a Status Condition such as Sleep. */
export function canAct(state: FfrpgState, c: CombatantState): boolean {
  return isActive(c) && hasEffect(state, c, 'cannot-act') === undefined;
}
