/**
 * The tables as Kysely sees them. JSON is kept as text in both dialects (not PostgreSQL's
 * jsonb, which reorders keys and drops duplicates), so what is read back is byte for byte what
 * was written and an export round-trips exactly between SQLite and PostgreSQL. Times are ISO
 * 8601 text for the same reason.
 */
export interface StoreDatabase {
  moogle_tables: {
    id: string;
    system_id: string;
    name: string;
    created_at: string;
    /** 1 once the table's content library was seeded (or imported): it is the table's now. */
    library_seeded: number;
  };
  /**
   * A table's content library: one row per entry, the entity as its file holds it. A deleted
   * entry keeps its row (`deleted` 1, `body` null), so its version keeps rising if it returns.
   */
  moogle_library: {
    table_id: string;
    kind: string;
    id: string;
    version: number;
    body: string | null;
    deleted: number;
    updated_at: string;
  };
  moogle_roster: {
    table_id: string;
    character_id: string;
    state: string;
    updated_at: string;
  };
  moogle_encounters: {
    id: string;
    table_id: string;
    name: string;
    ruleset: string;
    setup: string;
    initial_dice: string;
    status: string;
    created_at: string;
    /** JSON array of combatant ids whose exact figures the GM has shown the players. */
    revealed: string;
  };
  moogle_entries: {
    encounter_id: string;
    seq: number;
    idempotency_key: string;
    entry: string;
    appended_at: string;
  };
  /** GM rolls outside the log, numbered `n` from 1 in each encounter. */
  moogle_gm_rolls: {
    encounter_id: string;
    n: number;
    after_seq: number;
    /** The GmRollRecord's notation, label, secret, total and text, as JSON. */
    roll: string;
    rolled_at: string;
  };
  /** Players' rolls held ahead of the command that rolls them, one per purpose. */
  moogle_held_rolls: {
    encounter_id: string;
    purpose: string;
    roller: string;
    /** The entered roll as JSON: faces, `{ sum }` or `{ total }`. */
    roll: string;
    after_seq: number;
    held_at: string;
  };
  /**
   * Held rolls a command spent, by the command's entry number: held again (moved back to
   * `moogle_held_rolls`) when that command is undone.
   */
  moogle_spent_rolls: {
    encounter_id: string;
    spent_seq: number;
    purpose: string;
    roller: string;
    roll: string;
    after_seq: number;
    held_at: string;
  };
  /** A table's roster changes between fights, numbered `n` from 1: the campaign log. */
  moogle_campaign_log: {
    table_id: string;
    n: number;
    /** `recruit`, `service` or `after-battle`. */
    kind: string;
    /** The fight whose rewards these are (`after-battle`). */
    encounter_id: string | null;
    /** The service as the GM asked for it, JSON (`service`). */
    service: string | null;
    /** JSON array of the report's lines. */
    report: string;
    /** JSON `[{ characterId, state }]` by character id: the whole roster before the change. */
    roster_before: string;
    roster_after: string;
    done_by: string;
    done_at: string;
    undone_by: string | null;
    undone_at: string | null;
  };
  moogle_tokens: {
    token_id: string;
    table_id: string;
    /** SHA-256 of the secret part, hex. */
    hash: string;
    role: string;
    character_id: string | null;
    created_at: string;
    revoked_at: string | null;
  };
  /** A browser's session made from a link: found by the SHA-256 of the cookie's value. */
  moogle_sessions: {
    hash: string;
    token_id: string;
    created_at: string;
    expires_at: string;
  };
  /** A one-use ticket a session opens a WebSocket with: found by its SHA-256. */
  moogle_tickets: {
    hash: string;
    session_hash: string;
    expires_at: string;
  };
  /** The owner credential (the lobby API): one row, `id` 'owner'. */
  moogle_owner: {
    id: string;
    /** SHA-256 of the whole credential, hex. */
    hash: string;
    created_at: string;
  };
}
