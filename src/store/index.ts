/** The table server's storage: SQLite or PostgreSQL behind one `Store` (docs/store.md). */

export { STORE_LIMITS } from './kysely-store.js';
export { DEFAULT_SQLITE_PATH, type OpenStoreOptions, openStore } from './open.js';
export type {
  AppendResult,
  ChangeListener,
  CreatedToken,
  EncounterRecord,
  EncounterStatus,
  EntryAppended,
  JsonValue,
  LoadedEncounter,
  NewEncounter,
  NewTable,
  RosterEntry,
  Store,
  StoredEntry,
  StoreKind,
  TableExport,
  TableRecord,
  TokenGrant,
  TokenInfo,
  TokenRevoked,
  TokenRole,
  Unsubscribe,
  WithoutTableId,
} from './types.js';
