import type { z } from 'zod';
import type { ContentLibrary } from '../content/index.js';
import type { DiceRoller, Result } from '../engine/index.js';

/**
 * A campaign's lasting state: what a table keeps between fights. The table server stores it
 * (one row per character, one for the party) and never interprets it; the system's campaign
 * rules read and write it, as the rule text says.
 */

/** Plain JSON, as a database gives it back. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/**
 * A table's party between fights. Each character's lasting state (current HP/MP where the
 * system carries them over, XP or EXP, level, money, items and their cracked state, lasting
 * statuses) by the character's content id; and what the party holds together (Shining Force's
 * gold), or null where the system keeps nothing shared.
 */
export interface CampaignRoster {
  readonly characters: Readonly<Record<string, JsonValue>>;
  readonly party: JsonValue;
}

/** What a step of the campaign did: the roster after it and the lines a table reads aloud. */
export interface CampaignStep {
  readonly roster: CampaignRoster;
  /** `Hiro gains 520 XP and reaches Level 2`, `The Force receives 120 gold`. */
  readonly report: readonly string[];
}

/**
 * The rules between fights, for one system. Pure functions over plain data; randomness (a
 * level's stat gains) only through the DiceRoller, so a server seeds it and replays agree.
 */
export interface CampaignRules<Setup, State, Spec> {
  /** The lasting state of a character joining the table, read from its content sheet. */
  recruit(library: ContentLibrary, characterId: string): Result<JsonValue>;
  /** The party's shared state at the start of a campaign. */
  readonly emptyParty: JsonValue;
  /**
   * Checks a roster read back from storage or an import, like any other input: a bad one
   * names the character and the field.
   */
  parseRoster(value: unknown): Result<CampaignRoster>;
  /**
   * The content entries a roster's lasting state names (an item carried, a class, a spell in
   * stock, the party's level table), each with who holds it and where: a table's library keeps
   * each while the roster does, so the roster never names content that is gone.
   */
  references(roster: CampaignRoster): Result<readonly RosterReference[]>;
  /**
   * The setup of an encounter (the system's encounter spec, as an encounter file holds it),
   * where every character the roster holds starts from its lasting state instead of its
   * sheet's; characters not on the roster start from their sheets.
   */
  setupFrom(library: ContentLibrary, spec: Spec, roster: CampaignRoster): Result<Setup>;
  /**
   * A finished encounter's results applied to the roster, as the text gives them (XP or EXP
   * and levels, money, items used or found, HP/MP carried or restored, lasting statuses,
   * knocked-out characters). Refused while the encounter is not over.
   */
  afterBattle(
    library: ContentLibrary,
    setup: Setup,
    final: State,
    roster: CampaignRoster,
    dice: DiceRoller,
  ): Result<CampaignStep>;
  /**
   * What a table may do between fights by the text (Shining Force's priest and store, rest,
   * promotion), as commands validated by `services`.
   */
  readonly services: z.ZodType<CampaignService>;
  /**
   * The system's money, where its text has one (FFRPG's Gil, Shining Force's gold): what the
   * party holds in all, so a service's cost is shown before it is bought. Absent: no money.
   */
  readonly money?: CampaignMoney;
  applyService(
    library: ContentLibrary,
    roster: CampaignRoster,
    service: CampaignService,
    dice: DiceRoller,
  ): Result<CampaignStep>;
}

/**
 * One content entry a roster's lasting state names: `{ kind: 'shining-force/item', id:
 * 'medical-herb', holder: 'max', where: 'carried' }`.
 */
export interface RosterReference {
  readonly kind: string;
  readonly id: string;
  /** The character whose lasting state names it; null: what the party holds together. */
  readonly holder: string | null;
  /** Where in that state, in the table's words: `carried`, `equipped`, `class`, `Spell Matrix`. */
  readonly where: string;
}

/** A between-fights command: `{ type: 'raise', character: 'max' }`; each system its own. */
export interface CampaignService {
  readonly type: string;
}

/** A system's money: its name as the text gives it, and all of it the party holds. */
export interface CampaignMoney {
  /** `Gil`, `gold`. */
  readonly unit: string;
  purse(roster: CampaignRoster): number;
}

/** A whole number field of a roster state, 0 where there is none. */
export function moneyField(state: JsonValue, field: string): number {
  if (state === null || typeof state !== 'object' || Array.isArray(state)) return 0;
  const value = (state as { readonly [key: string]: JsonValue })[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
