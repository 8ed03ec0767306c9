import { z } from 'zod';
import type { JsonPatch } from '../json-patch/index.js';
import type { ActionOdds, RollSlot } from '../rulesets/system.js';
import type { Role } from '../session/views/role.js';
import type { SeenEntry, SeenView } from '../session/views/seen-types.js';
import type { GmRollRecord, HeldRollRecord, TableEvent } from '../store/types.js';
import { SERVER_LIMITS } from './limits.js';

/** A GM roll outside the log as the GM's screens get it: as the store keeps it. */
export type KeptGmRoll = GmRollRecord;

/** A player's roll held for the command that will roll it, as the store keeps it. */
export type HeldRoll = HeldRollRecord;

/**
 * The WebSocket protocol between the table server and its clients (docs/server.md). Everything
 * a client sends is checked by these schemas before anything reads it; what the server sends is
 * typed here so clients (the web tracker, the tests, the load generator) share one definition.
 */

/**
 * 2: an `entry` carries a patch to the client's state, not the whole state; a change without an
 * entry (a reveal, a finished fight) is a `changed` with a patch.
 */
const PROTOCOL_VERSION = 2;

export type { JsonPatch, PatchOperation } from '../json-patch/index.js';

export type { FfrpgOptions } from '../rulesets/ffrpg/model.js';
export type { FfviiiOptions } from '../rulesets/ffviii/model.js';
export type { ShiningForceOptions } from '../rulesets/shining-force/model.js';
// What else crosses the wire: the balance stream's report, an encounter file's options, a roll
// slot and an action's odds. Named here so a client reads every type it is sent from this file.
export type { ActionOdds, RollSlot } from '../rulesets/system.js';
export type { ZodiacOptions } from '../rulesets/zodiac/model.js';
// What each role sees is the session layer's (src/session/views); clients read it from here.
// From the type files themselves, not the session's index: the web tracker type-checks this
// file and should not pull in the engine's code to do so.
export type { Role } from '../session/views/role.js';
export type {
  HealthBand,
  SeenCombatant,
  SeenEntry,
  SeenView,
} from '../session/views/seen-types.js';
export type { SimReport } from '../sim/report.js';
export { PROTOCOL_VERSION };

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const key = z.string().min(1).max(SERVER_LIMITS.keyLength);
const faces = z.array(z.number().int().min(-1_000_000).max(1_000_000)).min(1).max(1000);
const enteredNumber = z.number().int().min(-1_000_000).max(1_000_000);
/**
 * One roll rolled at the table, as the engine reads it (src/engine/dice.ts, EnteredRoll): an
 * array is the faces, always; `{ sum }` one number read off the dice (a one-die roll's face,
 * several dice added); `{ total }` a total with the modifiers added, marked as one.
 */
const enteredRoll = z.union([
  faces,
  z.strictObject({ sum: enteredNumber }),
  z.strictObject({ total: enteredNumber }),
]);
const purpose = z.string().min(1).max(200);

/** What a submit asks the encounter to do. */
export const actionSchema = z.discriminatedUnion('kind', [
  /** A command as the ruleset's schema reads it: `{ type: 'attack', actor, target, ... }`. */
  z.object({ kind: z.literal('command'), command: z.looseObject({ type: z.string().max(100) }) }),
  /** A GM line as the battle screen reads it, without `gm`: `hp heket 30`, `status hiro +poison`. */
  z.object({ kind: z.literal('gm'), line: z.string().min(1).max(SERVER_LIMITS.lineLength) }),
  z.object({ kind: z.literal('undo'), steps: z.number().int().min(1).max(1000).default(1) }),
  z.object({ kind: z.literal('redo'), steps: z.number().int().min(1).max(1000).default(1) }),
]);
export type SubmitAction = z.infer<typeof actionSchema>;

export const clientMessageSchema = z.discriminatedUnion('type', [
  /**
   * The first message on a socket: the last entry number the client holds (0 for none). The
   * server answers with every entry after it, then `state`.
   */
  z.object({ type: z.literal('hello'), since: seq }),
  /**
   * `expect`: the number this entry would get (the last the client saw plus one); `key`: chosen
   * by the client, the same on a retry. `dice`: rolled at the table, by roll purpose: the faces
   * (`[10]` on `2*AGI + d12` is the d12's 10), `{ sum: 9 }` for dice added up, or
   * `{ total: 32 }` for a total with modifiers (as the battle screen reads `damage:heket=total:32`).
   */
  z.object({
    type: z.literal('submit'),
    expect: seq.min(1),
    key,
    action: actionSchema,
    dice: z.record(purpose, enteredRoll).optional(),
  }),
  /** GM only: a roll outside the encounter's log, shown to the GM alone when `secret`. */
  z.object({
    type: z.literal('roll'),
    notation: z.string().min(1).max(200),
    label: z.string().max(200).optional(),
    secret: z.boolean().default(true),
  }),
  /** GM only: show (or hide again) a combatant's exact figures to the players. */
  z.object({
    type: z.literal('reveal'),
    combatant: z.string().min(1).max(200),
    revealed: z.boolean(),
  }),
  /**
   * Player only, when the encounter's option gives the players the rolls that order a round
   * (`playersRollInitiative`, `playersRollSpeedPoints`, `playersRollTurnOrder`): its own
   * character's roll (`initiative:hiro`), entered ahead of the GM's command that rolls it and held
   * with the encounter until then; entered again, it replaces the one held; `null` takes it back.
   */
  z.object({ type: z.literal('hold'), purpose, roll: enteredRoll.nullable() }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** Who a link speaks for, as presence names it: a role, and a player's character. */
export type Who =
  | { readonly role: 'gm' }
  | { readonly role: 'player'; readonly character: string }
  | { readonly role: 'spectator' };

/**
 * One link connected to the encounter (through any process): its sockets, or 0 while it is
 * `reconnecting` (its last socket closed within the grace). `link`, the token id, is the GM's
 * alone: players and spectators see roles and characters only.
 */
export type Connected = Who & {
  readonly link?: string;
  readonly sockets: number;
  readonly status: 'connected' | 'reconnecting';
};

/** An action the client may submit now, with its odds and the dice it may ask for. */
export interface OfferedAction {
  readonly label: string;
  readonly group?: string;
  readonly command: { readonly type: string } & Readonly<Record<string, unknown>>;
  readonly odds?: ActionOdds;
  readonly rolls: readonly RollSlot[];
}

export interface Outcome {
  readonly over: boolean;
  readonly winner: string | null;
  readonly reason: string;
}

export type { GmMenu, GmStatusChoice } from '../engine/gm/menu.js';

/**
 * GET /api/encounters/:id/gm-kit, the GM's alone: what the touch controls offer (the system's
 * statuses with their timers, its clock) and the sheets `gm add <content-id>` takes.
 */
export interface GmKit {
  readonly menu: import('../engine/gm/menu.js').GmMenu;
  readonly newcomers: readonly {
    readonly kind: string;
    readonly id: string;
    readonly name: string;
  }[];
}

/** What every message about the encounter's present carries. */
export interface StatePayload {
  /** The last entry number: a submit expects this plus one. */
  readonly seq: number;
  readonly view: SeenView;
  readonly outcome: Outcome;
  /** What this client may submit now (nothing for a spectator, or a player whose turn it isn't). */
  readonly actions: readonly OfferedAction[];
  readonly undoable: number;
  readonly redoable: number;
  readonly status: 'active' | 'finished' | 'abandoned';
  /** GM only: the combatants whose figures the players see (empty for others). */
  readonly revealed: readonly string[];
  /** Who is connected now, every process counted; link ids for the GM only. */
  readonly connected: readonly Connected[];
  /**
   * The rolls that order the next round, when the encounter's option gives them to the players
   * and one is ahead (absent otherwise): the slots of the party's characters (a player's own
   * only), and the rolls their players hold now (a player's own only). The GM's command that
   * rolls them uses what is held; the rest it rolls, or the GM enters, as ever.
   */
  readonly orderRolls?: {
    /** What the table calls them: `Initiative`, `Speed Points`, `turn order`. */
    readonly name: string;
    readonly slots: readonly RollSlot[];
    readonly held: readonly HeldRoll[];
  };
}

export type ServerMessage =
  | {
      readonly type: 'welcome';
      readonly protocol: number;
      readonly role: Role;
      readonly encounter: { readonly id: string; readonly name: string; readonly system: string };
    }
  /** Entries the client missed, oldest first; `state` follows the last batch. */
  | { readonly type: 'entries'; readonly entries: readonly SeenEntry[] }
  /** The whole present, as the client's role sees it: after a `hello`, and only then. */
  | ({ readonly type: 'state' } & StatePayload)
  /**
   * A new entry, in order, and what it changed of the client's state: `patch` (RFC 6902) turns
   * the state the client holds at entry `base` into the state at `seq` (the entry's number).
   * A client holding another state asks for the whole one again (`hello`).
   */
  | {
      readonly type: 'entry';
      readonly entry: SeenEntry;
      readonly seq: number;
      readonly base: number;
      readonly patch: JsonPatch;
    }
  /**
   * The present changed without a new entry (a reveal, the fight finished or abandoned):
   * `patch` turns the state the client holds at `base` into the one at `seq` (the same number).
   */
  | {
      readonly type: 'changed';
      readonly seq: number;
      readonly base: number;
      readonly patch: JsonPatch;
    }
  /** The client's own submit was committed as `seq` (`duplicate`: a retry of an earlier one). */
  | {
      readonly type: 'accepted';
      readonly key: string;
      readonly seq: number;
      readonly duplicate: boolean;
    }
  /**
   * Nothing was applied. `current`: the last entry number, when the submit was stale;
   * `retryMs`: how long to wait before asking again, when a hello came too often.
   */
  | {
      readonly type: 'refused';
      readonly key?: string;
      readonly code: string;
      readonly message: string;
      readonly current?: number;
      readonly retryMs?: number;
      /** The entered roll that did not fit (`damage:heket`, `hit:heket#2`), for a dice refusal. */
      readonly purpose?: string;
    }
  /** A GM roll, to the GM's socket alone; kept with the encounter (`afterSeq`: its place). */
  | ({ readonly type: 'rolled' } & KeptGmRoll)
  /** The GM rolls kept with the encounter, oldest first: to the GM alone, after each `state` of a hello. */
  | { readonly type: 'gm-rolls'; readonly rolls: readonly KeptGmRoll[] }
  | { readonly type: 'pong' }
  /**
   * A link's first socket arrived (`joined`), its last one closed (`reconnecting`), or it did
   * not come back within the grace (`left`); `link` for the GM only; `connected` the list after.
   */
  | {
      readonly type: 'joined' | 'reconnecting' | 'left';
      readonly who: Who;
      readonly link?: string;
      readonly connected: readonly Connected[];
    }
  /** The server is going away: connect again (to it or another process) and say hello. */
  | { readonly type: 'reconnect'; readonly reason: string };

/** What the table channel (`GET /api/table/live`) sends: docs/server.md, "The table channel". */
export type TableMessage =
  | {
      readonly type: 'welcome';
      readonly protocol: number;
      readonly role: Role;
      readonly table: { readonly id: string; readonly name: string };
    }
  /** The answer to `hello`: who is at the table now. */
  | { readonly type: 'connected'; readonly connected: readonly Connected[] }
  | TableEvent
  | {
      readonly type: 'joined' | 'reconnecting' | 'left';
      readonly who: Who;
      readonly link?: string;
      readonly connected: readonly Connected[];
    }
  | {
      readonly type: 'refused';
      readonly code: string;
      readonly message: string;
    }
  | { readonly type: 'pong' }
  | { readonly type: 'reconnect'; readonly reason: string };

export type { TableEvent } from '../store/types.js';
