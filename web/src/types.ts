/**
 * The server's protocol types, shared with the engine's repository: types only, so nothing of
 * the engine reaches the browser bundle.
 */

export type {
  ActionOdds,
  ClientMessage,
  Connected,
  FfrpgOptions,
  FfviiiOptions,
  GmKit,
  GmMenu,
  GmStatusChoice,
  HealthBand,
  OfferedAction,
  Outcome,
  Role,
  RollSlot,
  SeenCombatant,
  SeenEntry,
  SeenView,
  ServerMessage,
  ShiningForceOptions,
  SimReport,
  StatePayload,
  SubmitAction,
  TableMessage,
  ZodiacOptions,
} from '../../src/server/protocol.js';

/** GET /api/table, as the server answers it. */
export interface TableInfo {
  readonly table: {
    readonly id: string;
    readonly systemId: string;
    readonly name: string;
    readonly createdAt: string;
  };
  readonly role: import('../../src/server/protocol.js').Role;
  /** The link this page's session came from. */
  readonly link: string;
  readonly roster: readonly { readonly character: string; readonly updatedAt: string }[];
  readonly encounters: readonly {
    readonly id: string;
    readonly name: string;
    readonly status: 'active' | 'finished' | 'abandoned';
    readonly createdAt: string;
  }[];
}

export interface ContentItem {
  readonly kind: string;
  readonly id: string;
  readonly name: string;
}

export type SystemId = 'ffrpg' | 'ffviii' | 'zodiac' | 'shining-force';
