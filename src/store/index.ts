/** The table server's storage: SQLite or PostgreSQL behind one `Store` (docs/store.md). */

export { STORE_LIMITS } from './kysely-store.js';
export {
  DEFAULT_SQLITE_PATH,
  type OpenStoreOptions,
  openStore,
  POSTGRES_TIMEOUTS,
} from './open.js';
export type {
  AppendResult,
  ChangeListener,
  CreatedSession,
  CreatedToken,
  EncounterRecord,
  EncounterStatus,
  EntryAppended,
  GmRollRecord,
  HeldRollRecord,
  JsonValue,
  LibraryListing,
  LibraryRecord,
  LibraryWrite,
  LoadedEncounter,
  NewEncounter,
  NewTable,
  PresenceNotice,
  RosterEntry,
  SessionBounds,
  Store,
  StoredEntry,
  StoreKind,
  TableEvent,
  TableExport,
  TableRecord,
  TableUsage,
  TokenGrant,
  TokenInfo,
  TokenRevoked,
  TokenRole,
  Unsubscribe,
  WithoutTableId,
} from './types.js';
export { isUnavailable, StorageError } from './unavailable.js';
