import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';
import type { StoreKind } from './types.js';

/** The channel PostgreSQL notifies on for every appended entry (see `changes.ts`). */
export const ENTRY_CHANNEL = 'moogle_entry_appended';
/** The channel PostgreSQL notifies on when a token is revoked (see `changes.ts`). */
export const TOKEN_CHANNEL = 'moogle_token_revoked';
/** The channel presence notices go on (see `changes.ts`); sent by the servers, no trigger. */
export const PRESENCE_CHANNEL = 'moogle_presence';

/**
 * Versioned migrations, run in order at open. Never edit one that has shipped: add the next.
 * Names sort in the order they run. `Kysely<unknown>` because a migration must not depend on
 * today's schema type, which describes the end state.
 */
function migrations(kind: StoreKind): Record<string, Migration> {
  return {
    '0001-tables-roster-encounters-entries-tokens': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('moogle_tables')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('system_id', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('moogle_roster')
          .addColumn('table_id', 'text', (c) =>
            c.notNull().references('moogle_tables.id').onDelete('cascade'),
          )
          .addColumn('character_id', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('moogle_roster_pk', ['table_id', 'character_id'])
          .execute();
        await db.schema
          .createTable('moogle_encounters')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('table_id', 'text', (c) =>
            c.notNull().references('moogle_tables.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('ruleset', 'text', (c) => c.notNull())
          .addColumn('setup', 'text', (c) => c.notNull())
          .addColumn('initial_dice', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('moogle_encounters_by_table')
          .on('moogle_encounters')
          .columns(['table_id', 'created_at'])
          .execute();
        // The log. The primary key makes two rows with one number impossible, whoever writes
        // them; the unique key makes a retried submit land once.
        await db.schema
          .createTable('moogle_entries')
          .addColumn('encounter_id', 'text', (c) =>
            c.notNull().references('moogle_encounters.id').onDelete('cascade'),
          )
          .addColumn('seq', 'integer', (c) => c.notNull().check(sql`seq >= 1`))
          .addColumn('idempotency_key', 'text', (c) => c.notNull())
          .addColumn('entry', 'text', (c) => c.notNull())
          .addColumn('appended_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('moogle_entries_pk', ['encounter_id', 'seq'])
          .addUniqueConstraint('moogle_entries_idempotency', ['encounter_id', 'idempotency_key'])
          .execute();
        await db.schema
          .createTable('moogle_tokens')
          .addColumn('token_id', 'text', (c) => c.primaryKey())
          .addColumn('table_id', 'text', (c) =>
            c.notNull().references('moogle_tables.id').onDelete('cascade'),
          )
          .addColumn('hash', 'text', (c) => c.notNull())
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('character_id', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .execute();
        await db.schema
          .createIndex('moogle_tokens_by_table')
          .on('moogle_tokens')
          .column('table_id')
          .execute();
        if (kind === 'postgres') {
          // A trigger, not a NOTIFY sent by the appending code: it is part of the inserting
          // transaction, so a notification goes out exactly when a row commits (and never for
          // one rolled back), whichever process or tool inserted it.
          await sql`
            CREATE FUNCTION moogle_notify_entry() RETURNS trigger AS $$
            BEGIN
              PERFORM pg_notify(${sql.lit(ENTRY_CHANNEL)},
                json_build_object('e', NEW.encounter_id, 's', NEW.seq)::text);
              RETURN NULL;
            END;
            $$ LANGUAGE plpgsql`.execute(db);
          await sql`
            CREATE TRIGGER moogle_entries_notify AFTER INSERT ON moogle_entries
            FOR EACH ROW EXECUTE FUNCTION moogle_notify_entry()`.execute(db);
        }
      },
    },
    '0002-encounter-reveals': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('moogle_encounters')
          .addColumn('revealed', 'text', (c) => c.notNull().defaultTo('[]'))
          .execute();
        if (kind === 'postgres') {
          // Number 0 says "not an entry, the encounter itself changed": listeners read it again.
          await sql`
            CREATE FUNCTION moogle_notify_encounter() RETURNS trigger AS $$
            BEGIN
              PERFORM pg_notify(${sql.lit(ENTRY_CHANNEL)},
                json_build_object('e', NEW.id, 's', 0)::text);
              RETURN NULL;
            END;
            $$ LANGUAGE plpgsql`.execute(db);
          await sql`
            CREATE TRIGGER moogle_encounters_notify AFTER UPDATE OF revealed, status
            ON moogle_encounters FOR EACH ROW EXECUTE FUNCTION moogle_notify_encounter()`.execute(
            db,
          );
        }
      },
    },
    '0003-token-revocation-notify': {
      async up(db: Kysely<unknown>) {
        if (kind !== 'postgres') return;
        // A trigger for the same reason as the log's: the notice goes out when the revocation
        // commits, whoever revoked (a server, `moogle table revoke`, psql).
        await sql`
          CREATE FUNCTION moogle_notify_token_revoked() RETURNS trigger AS $$
          BEGIN
            PERFORM pg_notify(${sql.lit(TOKEN_CHANNEL)},
              json_build_object('t', NEW.token_id, 'b', NEW.table_id)::text);
            RETURN NULL;
          END;
          $$ LANGUAGE plpgsql`.execute(db);
        await sql`
          CREATE TRIGGER moogle_tokens_notify_revoked AFTER UPDATE OF revoked_at ON moogle_tokens
          FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
          EXECUTE FUNCTION moogle_notify_token_revoked()`.execute(db);
      },
    },
    '0004-owner-credential': {
      async up(db: Kysely<unknown>) {
        // One row, `id` 'owner': whoever holds the credential runs every table (the lobby API).
        // Only its SHA-256 is kept, as a link's secret is.
        await db.schema
          .createTable('moogle_owner')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('hash', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0005-gm-rolls': {
      async up(db: Kysely<unknown>) {
        // Only the GM ever reads these: a table of their own, never rows of the shared log.
        await db.schema
          .createTable('moogle_gm_rolls')
          .addColumn('encounter_id', 'text', (c) =>
            c.notNull().references('moogle_encounters.id').onDelete('cascade'),
          )
          .addColumn('n', 'integer', (c) => c.notNull().check(sql`n >= 1`))
          .addColumn('after_seq', 'integer', (c) => c.notNull())
          .addColumn('roll', 'text', (c) => c.notNull())
          .addColumn('rolled_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('moogle_gm_rolls_pk', ['encounter_id', 'n'])
          .execute();
      },
    },
    '0006-link-sessions': {
      async up(db: Kysely<unknown>) {
        // A browser's session made from a link (the cookie), and the one-use tickets a session
        // opens a WebSocket with. Both found by the SHA-256 of their whole value, as the owner
        // credential is: the value is never kept. A session names its link, so revoking the
        // link ends it wherever it is checked.
        await db.schema
          .createTable('moogle_sessions')
          .addColumn('hash', 'text', (c) => c.primaryKey())
          .addColumn('token_id', 'text', (c) =>
            c.notNull().references('moogle_tokens.token_id').onDelete('cascade'),
          )
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('moogle_sessions_by_token')
          .on('moogle_sessions')
          .columns(['token_id', 'created_at'])
          .execute();
        await db.schema
          .createIndex('moogle_sessions_by_expiry')
          .on('moogle_sessions')
          .column('expires_at')
          .execute();
        await db.schema
          .createTable('moogle_tickets')
          .addColumn('hash', 'text', (c) => c.primaryKey())
          .addColumn('session_hash', 'text', (c) =>
            c.notNull().references('moogle_sessions.hash').onDelete('cascade'),
          )
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('moogle_tickets_by_expiry')
          .on('moogle_tickets')
          .column('expires_at')
          .execute();
        await db.schema
          .createIndex('moogle_tickets_by_session')
          .on('moogle_tickets')
          .column('session_hash')
          .execute();
      },
    },
    '0007-table-content-library': {
      async up(db: Kysely<unknown>) {
        // A table's own content (docs/content.md, "A table's library"). Seeded from the
        // system's starter content on first use, not here: the store reads no content files,
        // and a table made before this migration is seeded the same way as one made after.
        await db.schema
          .alterTable('moogle_tables')
          .addColumn('library_seeded', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createTable('moogle_library')
          .addColumn('table_id', 'text', (c) =>
            c.notNull().references('moogle_tables.id').onDelete('cascade'),
          )
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('id', 'text', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
          .addColumn('body', 'text')
          .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('moogle_library_pk', ['table_id', 'kind', 'id'])
          .execute();
      },
    },
    '0008-held-rolls': {
      async up(db: Kysely<unknown>) {
        // Held outside the log: a player's Initiative entered ahead of the round is no entry
        // until the command that begins the round uses it, and then the entry carries it.
        await db.schema
          .createTable('moogle_held_rolls')
          .addColumn('encounter_id', 'text', (c) =>
            c.notNull().references('moogle_encounters.id').onDelete('cascade'),
          )
          .addColumn('purpose', 'text', (c) => c.notNull())
          .addColumn('roller', 'text', (c) => c.notNull())
          .addColumn('roll', 'text', (c) => c.notNull())
          .addColumn('after_seq', 'integer', (c) => c.notNull())
          .addColumn('held_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('moogle_held_rolls_pk', ['encounter_id', 'purpose'])
          .execute();
        if (kind === 'postgres') {
          // Number 0, as for a reveal: every process reads the encounter's held rolls again,
          // so a GM's screen on another process shows who has entered theirs.
          await sql`
            CREATE FUNCTION moogle_notify_held_roll() RETURNS trigger AS $$
            BEGIN
              PERFORM pg_notify(${sql.lit(ENTRY_CHANNEL)},
                json_build_object('e', COALESCE(NEW.encounter_id, OLD.encounter_id), 's', 0)::text);
              RETURN NULL;
            END;
            $$ LANGUAGE plpgsql`.execute(db);
          await sql`
            CREATE TRIGGER moogle_held_rolls_notify AFTER INSERT OR UPDATE OR DELETE
            ON moogle_held_rolls FOR EACH ROW EXECUTE FUNCTION moogle_notify_held_roll()`.execute(
            db,
          );
        }
      },
    },
    '0009-campaign-log': {
      async up(db: Kysely<unknown>) {
        // Every change of a table's roster between fights, with the whole roster before and
        // after it: an undo puts `before` back when the roster is still `after`, and nothing
        // else needs to know how a service or a fight changed it.
        await db.schema
          .createTable('moogle_campaign_log')
          .addColumn('table_id', 'text', (c) =>
            c.notNull().references('moogle_tables.id').onDelete('cascade'),
          )
          .addColumn('n', 'integer', (c) => c.notNull().check(sql`n >= 1`))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('encounter_id', 'text')
          .addColumn('service', 'text')
          .addColumn('report', 'text', (c) => c.notNull())
          .addColumn('roster_before', 'text', (c) => c.notNull())
          .addColumn('roster_after', 'text', (c) => c.notNull())
          .addColumn('done_by', 'text', (c) => c.notNull())
          .addColumn('done_at', 'text', (c) => c.notNull())
          .addColumn('undone_by', 'text')
          .addColumn('undone_at', 'text')
          .addPrimaryKeyConstraint('moogle_campaign_log_pk', ['table_id', 'n'])
          .execute();
      },
    },
    '0010-spent-rolls': {
      async up(db: Kysely<unknown>) {
        // A held roll a command spent is kept, marked with that command's entry, so undoing
        // the command holds it again as entered; moved with the entry's append, in one
        // transaction. Keyed by the entry too: one player's Initiative spent round after round.
        await db.schema
          .createTable('moogle_spent_rolls')
          .addColumn('encounter_id', 'text', (c) =>
            c.notNull().references('moogle_encounters.id').onDelete('cascade'),
          )
          .addColumn('spent_seq', 'integer', (c) => c.notNull())
          .addColumn('purpose', 'text', (c) => c.notNull())
          .addColumn('roller', 'text', (c) => c.notNull())
          .addColumn('roll', 'text', (c) => c.notNull())
          .addColumn('after_seq', 'integer', (c) => c.notNull())
          .addColumn('held_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('moogle_spent_rolls_pk', [
            'encounter_id',
            'spent_seq',
            'purpose',
          ])
          .execute();
      },
    },
  };
}

export function migrationProvider(kind: StoreKind): MigrationProvider {
  return { getMigrations: async () => migrations(kind) };
}
