import type { SeededDiceState } from '../dice/index.js';
import type { EnteredRoll, LogEntry, Result, SavedEncounter } from '../engine/index.js';
import type { JsonValue } from '../rulesets/campaign.js';

/**
 * The storage layer of the table server: tables, their rosters, their encounters with an
 * append-only log, and access tokens, in SQLite or PostgreSQL behind one interface. It stores
 * what the engine produces and never interprets a rule.
 */

/** Plain JSON, as stored: what a roster entry's state may be. */
export type { JsonValue };

/** A campaign in one system. */
export interface TableRecord {
  readonly id: string;
  /** A `GameSystem` id (`ffrpg`, `ffviii`, ...); the store does not check it. */
  readonly systemId: string;
  readonly name: string;
  /** ISO 8601, UTC. */
  readonly createdAt: string;
}

export interface NewTable {
  readonly systemId: string;
  readonly name: string;
  /** Given by an import or a test; a random UUID otherwise. */
  readonly id?: string;
}

/** One character of a table's party and the state it carries between fights. */
export interface RosterEntry {
  readonly tableId: string;
  readonly characterId: string;
  readonly state: JsonValue;
  readonly updatedAt: string;
}

/** A character's lasting state as a campaign log entry keeps it: part of a whole roster. */
export interface RosterRow {
  readonly characterId: string;
  readonly state: JsonValue;
}

/** What changed a roster between fights: a character joining, a service, a fight's rewards. */
export type CampaignLogKind = 'recruit' | 'service' | 'after-battle';

/** One roster change of the campaign log, as asked for: the store numbers and times it. */
export interface CampaignChange {
  readonly kind: CampaignLogKind;
  /** The fight whose rewards these are (`after-battle`). */
  readonly encounterId?: string;
  /** The service as asked for (`service`) or the recruit (`{ character }`). */
  readonly service?: JsonValue;
  readonly report: readonly string[];
  /** Who did it: the link's role and id (`gm:abc123`), or `cli`. */
  readonly by: string;
  /**
   * The whole roster as the change was worked out from (`getRoster`): refused
   * (`campaign/stale`) when the roster is no longer this, so no change is lost to another.
   */
  readonly before: readonly RosterRow[];
}

/** An entry of a table's campaign log: every roster change between fights, undoable. */
export interface CampaignLogRecord {
  /** 1, 2, 3, ... in the order they were made. */
  readonly n: number;
  readonly kind: CampaignLogKind;
  readonly encounterId: string | null;
  readonly service: JsonValue | null;
  readonly report: readonly string[];
  /** The whole roster before and after, by character id (the party's row included). */
  readonly before: readonly RosterRow[];
  readonly after: readonly RosterRow[];
  readonly by: string;
  readonly at: string;
  /** Undone entries stay in the log, marked. */
  readonly undoneBy: string | null;
  readonly undoneAt: string | null;
}

/** Whether an encounter is still being played; the store does not interpret it further. */
export type EncounterStatus = 'active' | 'finished' | 'abandoned';

export interface EncounterRecord {
  readonly id: string;
  readonly tableId: string;
  readonly name: string;
  /** The engine ruleset id, needed to rebuild the encounter. */
  readonly ruleset: string;
  /** The ruleset's setup, as `Encounter.setup` holds it (plain JSON). */
  readonly setup: unknown;
  /** The seeded dice stream before the first command. */
  readonly initialDice: SeededDiceState;
  readonly status: EncounterStatus;
  readonly createdAt: string;
  /**
   * Combatants whose exact figures the GM has shown the players (a player's view bands the
   * others' HP). The server's to interpret; stored so every process and a restart agree.
   */
  readonly revealed: readonly string[];
}

export interface NewEncounter {
  readonly tableId: string;
  readonly name: string;
  readonly ruleset: string;
  readonly setup: unknown;
  readonly initialDice: SeededDiceState;
  readonly id?: string;
}

/** One row of an encounter's log. */
export interface StoredEntry {
  readonly seq: number;
  readonly idempotencyKey: string;
  /** The engine's entry; its own `seq` equals the row's. */
  readonly entry: LogEntry;
  readonly appendedAt: string;
}

/**
 * What an append did. `stale`: the log has moved on (or the expected number skips ahead), so
 * nothing was written; `current` is the last number in the log (0 when empty). `duplicate`:
 * this idempotency key was already appended, as `seq`; nothing new was written. `closed`: the
 * encounter is finished or abandoned and takes no more entries.
 */
/**
 * A roll the GM made outside the log (the socket's `roll`: a secret Perception check, a random
 * encounter), kept with its encounter so the GM finds it in the fight's history again, on any
 * device and after reconnecting. Only the GM is ever shown it.
 */
/**
 * A roll a player entered ahead of the command that rolls it (its character's Initiative, Speed
 * Points, turn order), held with the encounter until that command is submitted: not an entry of
 * the log, which records it only once a command uses it. One per purpose.
 */
export interface HeldRollRecord {
  /** The roll's purpose, as the command will ask for it: `initiative:hiro`. */
  readonly purpose: string;
  /** The character whose player entered it. */
  readonly roller: string;
  /** As entered: the faces, `{ sum }` or `{ total }`. */
  readonly roll: EnteredRoll;
  /** The log's last entry number when it was entered: a command after it that rolls its purpose spends it. */
  readonly afterSeq: number;
  /** When it was entered, ISO 8601. */
  readonly at: string;
}

/**
 * What an entry does to the held rolls, written in the same transaction as the entry, so an
 * append that fails changes neither. A command (or a redo) spends the held rolls of the
 * purposes it rolled: they are kept aside, marked with the command's entry number. An undo
 * holds again what the commands it takes back spent, as of the undo's entry (for a purpose
 * spent by several of them, the earliest's roll: the one held before them all).
 */
export interface HeldRollMoves {
  /** In order: the held rolls of these purposes are spent by entry `seq`. */
  readonly spend?: readonly { readonly seq: number; readonly purposes: readonly string[] }[];
  /** The entry numbers of the commands undone: what they spent is held again. */
  readonly restore?: readonly number[];
}

export interface GmRollRecord {
  readonly notation: string;
  readonly label?: string;
  readonly secret: boolean;
  readonly total: number;
  /** `d20 [14] = 14`. */
  readonly text: string;
  /** The log's last entry number when it was rolled (0 before the first): its place in the fight. */
  readonly afterSeq: number;
  /** When it was rolled, ISO 8601. */
  readonly at: string;
}

export interface AppendOptions {
  /** The held rolls the entry spends or gives back, moved in the same transaction. */
  readonly held?: HeldRollMoves;
  /**
   * The link (token id) the entry comes through: it goes in only while the link is not revoked,
   * checked in the same statement, so a revocation committed first always wins.
   */
  readonly link?: string;
}

export type AppendResult =
  | { readonly ok: true; readonly seq: number; readonly duplicate?: false }
  | { readonly ok: true; readonly seq: number; readonly duplicate: true }
  | { readonly ok: false; readonly code: 'stale'; readonly current: number }
  | {
      readonly ok: false;
      readonly code: 'not-found' | 'invalid' | 'closed' | 'revoked';
      readonly message: string;
    };

/** An encounter as stored, and the save the engine rebuilds it from (`loadEncounter`). */
export interface LoadedEncounter {
  readonly record: EncounterRecord;
  readonly saved: SavedEncounter;
  /** The last entry's number: what the next append expects plus one. */
  readonly lastSeq: number;
}

/** Who a token lets in. */
export type TokenRole =
  | { readonly role: 'gm' }
  | { readonly role: 'player'; readonly characterId: string }
  | { readonly role: 'spectator' };

/** A token as listed: never the secret, which is shown once when created. */
export type TokenInfo = TokenRole & {
  /** Public: names the token to revoke it; the first part of the token itself. */
  readonly tokenId: string;
  readonly tableId: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
};

export interface CreatedToken {
  /** The secret to put in a link; stored only as a hash, so it cannot be shown again. */
  readonly token: string;
  readonly info: TokenInfo;
}

/** What a valid token grants. */
export type TokenGrant = TokenRole & { readonly tokenId: string; readonly tableId: string };

/** How long sessions and tickets last, and how many sessions one link keeps (the server's limits). */
export interface SessionBounds {
  readonly sessionMs: number;
  /** A link's newest sessions kept: making one more ends its oldest. */
  readonly sessionsPerLink: number;
  readonly ticketMs: number;
}

/** A session made from a link: the value to keep in a cookie, shown only now. */
export interface CreatedSession {
  /** `moogle-session.<secret>`: stored only as its SHA-256. */
  readonly session: string;
  readonly expiresAt: string;
  readonly grant: TokenGrant;
}

/**
 * A change notification: entry `seq` was appended to encounter `encounterId`, by any process;
 * `seq` 0 when the encounter's record changed instead (its status or what is revealed).
 */
export interface EntryAppended {
  readonly encounterId: string;
  readonly seq: number;
}

/** A link was revoked, by any process: sockets that came in with it close at once. */
export interface TokenRevoked {
  readonly tokenId: string;
  readonly tableId: string;
}

/**
 * Called for each append. Notifications can arrive out of order and, after a lost connection,
 * be missed (`resync` is then called): the listener reads rows with `entriesSince` from the
 * last number it has, never trusting the notification to carry the data.
 */
export interface ChangeListener {
  readonly appended: (change: EntryAppended) => void;
  /** Notifications may have been missed (the listening connection was lost and restored). */
  readonly resync?: () => void;
  /**
   * A token was revoked (heard by every listener, whatever encounter it listens to). Like an
   * append's, a notice can be missed: whoever acts for a token checks it with `tokenLive` too.
   */
  readonly revoked?: (change: TokenRevoked) => void;
  /** A presence notice from any process, this one's own included (heard by every listener). */
  readonly presence?: (notice: PresenceNotice) => void;
}

/**
 * Who is connected where, between the processes on one database (docs/server.md, "Presence"):
 * a notice carries no secret and changes nothing stored, so it is never written, only sent.
 * `link`: process `process` now holds `sockets` sockets of link `link` in an encounter (0: none
 * left); `beat`: the process is alive, its notices stand; `ask`: a process opened the
 * encounter and wants every other one's links in it; `gone`: the process is stopping; `table`:
 * something happened at a table (`TableEvent`). A table's own presence (its channel's sockets
 * and its encounters' together) travels as `link` and `ask` notices whose `encounterId` is
 * `table:<tableId>`.
 */
export type PresenceNotice =
  | {
      readonly kind: 'link';
      readonly process: string;
      readonly encounterId: string;
      readonly link: string;
      readonly role: 'gm' | 'player' | 'spectator';
      readonly character?: string;
      readonly sockets: number;
    }
  | { readonly kind: 'beat'; readonly process: string }
  | { readonly kind: 'ask'; readonly process: string; readonly encounterId: string }
  | { readonly kind: 'gone'; readonly process: string }
  | {
      readonly kind: 'table';
      readonly process: string;
      readonly tableId: string;
      readonly event: TableEvent;
    };

/**
 * What happened at a table that every open screen of it hears at once (the table channel,
 * docs/server.md): sent as a `table` presence notice, so other processes' screens hear it too.
 */
export type TableEvent =
  | { readonly type: 'encounter-started'; readonly id: string; readonly name: string }
  | {
      readonly type: 'encounter-ended';
      readonly id: string;
      readonly status: 'finished' | 'abandoned';
    }
  | { readonly type: 'roster-changed' }
  | { readonly type: 'invites-changed' };

export type Unsubscribe = () => void;

/** What one table holds, for the server's quotas on it. */
export interface TableUsage {
  readonly encounters: number;
  /** Roster rows, the row of what the party shares included. */
  readonly rosterRows: number;
  /** Links not revoked. */
  readonly liveLinks: number;
  /** Links ever made, revoked ones included: their rows stay. */
  readonly links: number;
  /** Bytes of its encounters' setups and its roster's states as stored (UTF-8). */
  readonly contentBytes: number;
  /** Entries of its content library, deleted ones not counted. */
  readonly libraryEntries: number;
  /** Bytes of its library's entries as stored. */
  readonly libraryBytes: number;
}

/**
 * One entry of a table's content library: the entity as its content file holds it (`format`,
 * `kind`, `id` and the kind's fields), checked by the server before it is stored; the store
 * checks only its size. `version` rises by one with every change, a deletion included.
 */
export interface LibraryRecord {
  readonly kind: string;
  readonly id: string;
  readonly version: number;
  readonly body: JsonValue;
  readonly updatedAt: string;
}

/** A table's library as stored: whether it was seeded yet, and its entries by kind and id. */
export interface LibraryListing {
  /** False until the starter content is copied in (or a library imported): then it is the table's. */
  readonly seeded: boolean;
  readonly entries: readonly LibraryRecord[];
}

/** An entry to write: its body, and the version the writer last read (0: it must not exist). */
export interface LibraryWrite {
  readonly kind: string;
  readonly id: string;
  readonly body: JsonValue;
  readonly expectedVersion?: number;
}

/** Which backend a store is on. */
export type StoreKind = 'sqlite' | 'postgres';

/** `Omit` that keeps a union a union, so a token's role still tells its fields apart. */
export type WithoutTableId<T> = T extends unknown ? Omit<T, 'tableId'> : never;

/** A whole table, for backup and for moving between stores: `exportTable` / `importTable`. */
export interface TableExport {
  readonly format: 'moogle-table';
  readonly version: 1;
  readonly table: TableRecord;
  readonly roster: readonly Omit<RosterEntry, 'tableId'>[];
  readonly encounters: readonly (Omit<EncounterRecord, 'tableId' | 'revealed'> & {
    /** Absent in exports written before reveals were stored: none revealed. */
    readonly revealed?: readonly string[];
    readonly entries: readonly StoredEntry[];
    /** Its GM rolls, oldest first; absent in exports written before they were kept: none. */
    readonly gmRolls?: readonly GmRollRecord[];
  })[];
  /** The campaign log, oldest first; absent in exports written before it was kept: none. */
  readonly campaignLog?: readonly CampaignLogRecord[];
  /**
   * Its content library; absent in exports written before tables had one (the table is then
   * seeded with its system's starter content when first used). Deleted entries are kept as
   * `deleted` with no body, so versions keep rising after an import.
   */
  readonly library?: {
    readonly entries: readonly (Omit<LibraryRecord, 'body'> & {
      readonly body: JsonValue | null;
      readonly deleted?: true;
    })[];
  };
  /** Hashes only, so a restored table keeps its links working without any secret in the file. */
  readonly tokens: readonly (WithoutTableId<TokenInfo> & { readonly hash: string })[];
}

export interface Store {
  readonly kind: StoreKind;

  createTable(table: NewTable): Promise<Result<TableRecord>>;
  getTable(id: string): Promise<TableRecord | undefined>;
  /** Oldest first. */
  listTables(): Promise<readonly TableRecord[]>;
  /**
   * Removes the table with its roster, encounters, their logs and its links, in one
   * transaction; false when there was none. Revoke its links first to close their sockets.
   */
  deleteTable(id: string): Promise<boolean>;

  /** The owner credential's hash (the lobby API), if one was ever set. */
  ownerHash(): Promise<string | undefined>;
  /**
   * Keeps `hash` as the owner credential's. `replace` false: only if there is none yet, and
   * says whether it was kept (two processes starting at once: one wins).
   */
  setOwnerHash(hash: string, replace: boolean): Promise<boolean>;
  /** What a table holds, counted by the database: what the server's quotas are checked against. */
  tableUsage(tableId: string): Promise<TableUsage>;

  getRoster(tableId: string): Promise<readonly RosterEntry[]>;
  getRosterEntry(tableId: string, characterId: string): Promise<RosterEntry | undefined>;
  /** Creates or replaces a character's lasting state. */
  putRosterEntry(
    tableId: string,
    characterId: string,
    state: JsonValue,
  ): Promise<Result<RosterEntry>>;
  /** Creates or replaces several characters' lasting state in one transaction: all or none. */
  putRoster(
    tableId: string,
    roster: readonly { readonly characterId: string; readonly state: JsonValue }[],
  ): Promise<Result<readonly RosterEntry[]>>;
  removeRosterEntry(tableId: string, characterId: string): Promise<boolean>;

  /**
   * Writes a roster change between fights with its campaign log entry, in one transaction:
   * the roster becomes `roster` (rows not in it removed), the entry keeps the roster before
   * and after. Refused (`campaign/stale`) when the roster is no longer `change.before`.
   */
  changeRoster(
    tableId: string,
    change: CampaignChange,
    roster: readonly RosterRow[],
  ): Promise<Result<CampaignLogRecord>>;
  /** The campaign log, newest first, at most `limit` entries (`STORE_LIMITS.campaignLogShown`). */
  campaignLog(tableId: string, limit?: number): Promise<readonly CampaignLogRecord[]>;
  /**
   * Undoes the newest entry not undone (`expected`: only if it is that one), in one
   * transaction: the roster goes back to the entry's `before` and the entry is marked undone.
   * Refused (`campaign/changed`) when the roster is no longer the entry's `after`, and
   * (`campaign/nothing-to-undo`) when every entry is undone.
   */
  undoCampaignEntry(
    tableId: string,
    by: string,
    expected?: number,
  ): Promise<Result<CampaignLogRecord>>;

  createEncounter(encounter: NewEncounter): Promise<Result<EncounterRecord>>;
  getEncounter(id: string): Promise<EncounterRecord | undefined>;
  /** Oldest first. */
  listEncounters(tableId: string): Promise<readonly EncounterRecord[]>;
  setEncounterStatus(id: string, status: EncounterStatus): Promise<Result<EncounterRecord>>;
  /**
   * Ends an active encounter and writes the roster it leaves (each character's lasting state,
   * created or replaced), in one transaction: refused (`encounter/closed`) once it is not
   * active, so a fight's results reach the roster exactly once.
   */
  finishEncounter(
    encounterId: string,
    roster: readonly { readonly characterId: string; readonly state: JsonValue }[],
    /** The campaign log's entry for the rewards, written in the same transaction. */
    log?: Omit<CampaignChange, 'kind' | 'encounterId'>,
  ): Promise<Result<EncounterRecord>>;
  /** Replaces the combatants revealed to the players; subscribers hear it as number 0. */
  setRevealed(id: string, combatantIds: readonly string[]): Promise<Result<EncounterRecord>>;

  /**
   * Appends one log entry as number `expectedSeq` (1 for the first), which must be the last
   * number plus one and equal `entry.seq`. The database refuses a second row with the same
   * number or the same idempotency key for the encounter, so racing appends cannot both win.
   * When this resolves `ok`, the row is committed.
   */
  appendEntry(
    encounterId: string,
    expectedSeq: number,
    idempotencyKey: string,
    entry: LogEntry,
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /** Entries numbered above `afterSeq`, in order, at most `limit` of them. */
  entriesSince(
    encounterId: string,
    afterSeq: number,
    limit?: number,
  ): Promise<readonly StoredEntry[]>;
  lastSeq(encounterId: string): Promise<number>;
  /** Keeps a GM's roll with its encounter: refused past `STORE_LIMITS.gmRolls` of them. */
  addGmRoll(encounterId: string, roll: GmRollRecord): Promise<Result<true>>;
  /** The encounter's latest GM rolls, at most `limit`, oldest first. */
  gmRolls(encounterId: string, limit?: number): Promise<readonly GmRollRecord[]>;
  /**
   * Holds a player's roll for its purpose, replacing one held before: refused past
   * `STORE_LIMITS.heldRolls` of them. Every process's subscribers hear of it (`appended`, seq 0).
   */
  holdRoll(encounterId: string, roll: HeldRollRecord): Promise<Result<true>>;
  /** The rolls held for the encounter, by purpose. */
  heldRolls(encounterId: string): Promise<readonly HeldRollRecord[]>;
  /** Lets go of the held rolls of these purposes (spent by a command, or taken back). */
  dropHeldRolls(encounterId: string, purposes: readonly string[]): Promise<void>;
  /** What `loadEncounter` of the engine needs to rebuild the encounter as it stands. */
  loadEncounter(id: string): Promise<Result<LoadedEncounter>>;

  createToken(tableId: string, role: TokenRole): Promise<Result<CreatedToken>>;
  /** The grant of a token that exists and is not revoked; the secret is compared in constant time. */
  checkToken(token: string): Promise<Result<TokenGrant>>;
  /**
   * True when the token existed and was not yet revoked. Subscribers of every process on the
   * database hear it (`ChangeListener.revoked`) once it is committed.
   */
  revokeToken(tokenId: string): Promise<boolean>;
  /**
   * Whether a token, by id, exists and is not revoked: one read by primary key, for a connection
   * that proved the secret when it opened to re-check its link before it acts.
   */
  tokenLive(tokenId: string): Promise<boolean>;
  listTokens(tableId: string): Promise<readonly TokenInfo[]>;

  /**
   * A session for a live link (a browser's cookie): lasts `bounds.sessionMs`; the link keeps
   * its newest `bounds.sessionsPerLink`, so one more ends its oldest. Expired sessions and
   * tickets of every link are cleared on the way. Refused for a link unknown or revoked.
   */
  createSession(tokenId: string, bounds: SessionBounds): Promise<Result<CreatedSession>>;
  /** The grant of a session not expired whose link is live: its link's grant, read now. */
  checkSession(session: string): Promise<Result<TokenGrant>>;
  /** Ends a session (a later link's session replaced it, or its browser signed out). */
  endSession(session: string): Promise<boolean>;
  /** A ticket for one WebSocket of a live session: used once, within `bounds.ticketMs`. */
  createTicket(session: string, bounds: SessionBounds): Promise<Result<string>>;
  /**
   * Takes a ticket: the first caller gets its session's grant, every later one (in any
   * process) `ticket/unknown`; past its time, `ticket/expired`.
   */
  takeTicket(ticket: string): Promise<Result<TokenGrant>>;
  /** The table's content library (live entries, by kind and id); undefined for no table. */
  getLibrary(tableId: string): Promise<LibraryListing | undefined>;
  getLibraryEntry(tableId: string, kind: string, id: string): Promise<LibraryRecord | undefined>;
  /**
   * Copies `entries` in as the table's library unless it was seeded already (by another
   * process, or an import): true when this call seeded it. One transaction.
   */
  seedLibrary(tableId: string, entries: readonly LibraryWrite[]): Promise<Result<boolean>>;
  /**
   * Creates or replaces entries, and deletes those named in `deletions`, in one transaction:
   * all or none. An entry whose `expectedVersion` is not its version now (0: absent) refuses
   * the whole write with `library/conflict`; an entry whose body is unchanged keeps its version.
   * Marks the library seeded.
   */
  writeLibrary(
    tableId: string,
    entries: readonly LibraryWrite[],
    deletions?: readonly {
      readonly kind: string;
      readonly id: string;
      readonly expectedVersion?: number;
    }[],
  ): Promise<Result<readonly LibraryRecord[]>>;

  exportTable(id: string): Promise<Result<TableExport>>;
  /** Recreates an exported table with the same ids, in one transaction; refused if it exists. */
  importTable(data: unknown): Promise<Result<TableRecord>>;

  /**
   * Calls `listener` for every entry appended to `encounterId` (or to any encounter, for '*')
   * by any process on the same database. Resolves once notifications are flowing.
   */
  subscribe(encounterId: string, listener: ChangeListener): Promise<Unsubscribe>;

  /**
   * Sends a presence notice to the subscribers of every process on the database (PostgreSQL:
   * a NOTIFY outside any transaction; SQLite: this process's). Nothing is stored.
   */
  publishPresence(notice: PresenceNotice): Promise<void>;

  close(): Promise<void>;
}

export type { Result };
