import type { CombatantView, EncounterView } from '../../rulesets/system.js';

/** A player's and a spectator's idea of a combatant whose figures are hidden from them. */
export type HealthBand = 'unhurt' | 'wounded' | 'badly wounded' | 'down' | 'fled';

/**
 * A combatant as a client may see it: the GM sees every figure; others see exact HP/MP only
 * for the party and for what the GM revealed, a band for the rest, and no GM notes.
 */
export type SeenCombatant = Omit<CombatantView, 'hp' | 'maxHp' | 'mp' | 'maxMp' | 'items'> & {
  readonly hp: number | null;
  readonly maxHp: number | null;
  readonly mp: number | null;
  readonly maxMp: number | null;
  /** Items a fight uses up that it carries (CombatantView.items); null when hidden. */
  readonly items?: number | null;
  readonly band: HealthBand;
  /** True when `hp`... are null: the figures are the GM's. */
  readonly hidden: boolean;
  /** On the players' side. */
  readonly party: boolean;
};

export type SeenView = Omit<EncounterView, 'combatants'> & {
  readonly combatants: readonly SeenCombatant[];
  /**
   * GM only: GM lines drawn from this fight (its combatants, sides, statuses and content),
   * without the leading `gm`, for the GM screen's examples.
   */
  readonly gmExamples?: readonly string[];
};

/** One log entry as a client may see it. */
export interface SeenEntry {
  readonly seq: number;
  readonly kind: 'command' | 'undo' | 'redo';
  /** The command (GM: exactly as logged; others: the same, it is what the table heard). */
  readonly command?: { readonly type: string } & Readonly<Record<string, unknown>>;
  readonly steps?: number;
  /**
   * Undo and redo: the entries it took back or put back, in the order it did (the last command
   * first, for an undo). Its `lines` name each as this client may see it: `Undid #12: ...`.
   */
  readonly moved?: readonly number[];
  /** What happened, in the system's words; figures hidden from this client read `?`. */
  readonly lines: readonly string[];
  /** GM only: the events and dice, as the engine logged them. */
  readonly events?: readonly unknown[];
}
