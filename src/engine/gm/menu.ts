/**
 * What the GM's touch controls offer in a system, from its rules and its encounter's content:
 * the statuses a picker lists (with how each is timed) and what `gm clock` moves. A screen
 * builds its choices from this, never from a list of its own.
 */

/** One status the GM may put on a combatant, by the id `gm status <who> +<id>` takes. */
export interface GmStatusChoice {
  readonly id: string;
  /** As the rules name it: `Poison`, `Death Sentence`. */
  readonly name: string;
  /**
   * How a timer goes with it: `required` (ZODIAC's Temporary effects), `optional` (its usual
   * length, or `usual`, when none is given), or `none` (it takes none: Stun, Unconscious).
   */
  readonly timer: 'required' | 'optional' | 'none';
  /** Its length when the GM gives none: a count, infinite, or null for "until cured". */
  readonly usual: number | 'infinite' | null;
  /** What its timer counts when not the menu's `timerUnit` (ZODIAC's Death Sentence: rounds). */
  readonly unit?: string;
}

export interface GmMenu {
  readonly statuses: readonly GmStatusChoice[];
  /** Any status name is taken, listed or not (FFVIII: its text names no statuses). */
  readonly freeStatuses: boolean;
  /** What a status timer counts, in the system's words: `turns`, `ticks`, `rounds`. */
  readonly timerUnit: string;
  /**
   * What `gm clock` moves: the key of a combatant view's `clock` it reads from (`initiative`,
   * `shot`, `sp`, `turn`), its label, and its bounds where the rules give them.
   */
  readonly clock: { readonly key: string; readonly label: string; readonly min: number };
  /**
   * Other figures of a combatant's clock the GM sets by `gm <resource>` (FFVIII's shot debt): the
   * view's `clock` key it reads from, its label, the resource `gm-set` names, its least value.
   */
  readonly counters: readonly {
    readonly key: string;
    readonly label: string;
    readonly resource: string;
    readonly min: number;
  }[];
  /** Whether units stand on a grid the GM puts them on with `gm move <who> <cell>`. */
  readonly grid: boolean;
}
