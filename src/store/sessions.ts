import type { Kysely } from 'kysely';
import { err, ok, type Result } from '../engine/index.js';
import type { StoreDatabase } from './schema.js';
import { credentialHash, newCredential } from './tokens.js';
import type { CreatedSession, SessionBounds, TokenGrant } from './types.js';

/**
 * Sessions and tickets (docs/server.md, Sessions): rows that stand for a link on one device,
 * so the link's secret leaves the address bar after one visit. Each is checked against its
 * link as it is now, every time: revoking the link ends them all at once, in every process.
 */

type KyselyDb = Kysely<StoreDatabase>;
type GrantOf = (row: StoreDatabase['moogle_tokens']) => TokenGrant;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export async function createSession(
  db: KyselyDb,
  grantOf: GrantOf,
  tokenId: string,
  bounds: SessionBounds,
): Promise<Result<CreatedSession>> {
  const now = Date.now();
  // Expired rows go first, wherever they are: no sweeper is needed, and none can be forgotten.
  await db.deleteFrom('moogle_tickets').where('expires_at', '<=', iso(now)).execute();
  await db.deleteFrom('moogle_sessions').where('expires_at', '<=', iso(now)).execute();
  const link = await db
    .selectFrom('moogle_tokens')
    .selectAll()
    .where('token_id', '=', tokenId)
    .executeTakeFirst();
  if (link === undefined) return err('token/unknown', 'this token is not valid');
  if (link.revoked_at !== null) return err('token/revoked', 'this token was revoked');
  const { value, hash } = newCredential('session');
  const expiresAt = iso(now + bounds.sessionMs);
  await db
    .insertInto('moogle_sessions')
    .values({ hash, token_id: tokenId, created_at: iso(now), expires_at: expiresAt })
    .execute();
  // The link's newest sessions stay; a link opened on more devices than that (or fetched by a
  // chat's link preview again and again) ends its oldest instead of growing without bound.
  // The one just made always stays, whatever the clock says of the others.
  const kept = db
    .selectFrom('moogle_sessions')
    .select('hash')
    .where('token_id', '=', tokenId)
    .where('hash', '!=', hash)
    .orderBy('created_at', 'desc')
    .orderBy('hash')
    .limit(Math.max(0, bounds.sessionsPerLink - 1));
  const stale = db
    .selectFrom('moogle_sessions')
    .select('hash')
    .where('token_id', '=', tokenId)
    .where('hash', '!=', hash)
    .where('hash', 'not in', kept);
  await db.deleteFrom('moogle_tickets').where('session_hash', 'in', stale).execute();
  await db
    .deleteFrom('moogle_sessions')
    .where('token_id', '=', tokenId)
    .where('hash', '!=', hash)
    .where('hash', 'not in', kept)
    .execute();
  return ok({ session: value, expiresAt, grant: grantOf(link) });
}

async function grantOfSession(
  db: KyselyDb,
  grantOf: GrantOf,
  hash: string,
): Promise<Result<TokenGrant>> {
  const row = await db
    .selectFrom('moogle_sessions as s')
    .innerJoin('moogle_tokens as t', 't.token_id', 's.token_id')
    .select([
      's.expires_at as session_expires_at',
      't.token_id',
      't.table_id',
      't.hash',
      't.role',
      't.character_id',
      't.created_at',
      't.revoked_at',
    ])
    .where('s.hash', '=', hash)
    .executeTakeFirst();
  if (row === undefined) return err('session/unknown', 'this session is not valid');
  if (row.session_expires_at <= iso(Date.now())) {
    return err('session/expired', 'this session has expired: open the table link again');
  }
  if (row.revoked_at !== null) return err('token/revoked', 'the link of this session was revoked');
  const { session_expires_at: _, ...link } = row;
  return ok(grantOf(link));
}

export function checkSession(
  db: KyselyDb,
  grantOf: GrantOf,
  session: string,
): Promise<Result<TokenGrant>> {
  const hash = credentialHash('session', session);
  if (hash === undefined) {
    return Promise.resolve(err('session/malformed', 'not a Moogle session'));
  }
  return grantOfSession(db, grantOf, hash);
}

export async function endSession(db: KyselyDb, session: string): Promise<boolean> {
  const hash = credentialHash('session', session);
  if (hash === undefined) return false;
  await db.deleteFrom('moogle_tickets').where('session_hash', '=', hash).execute();
  const ended = await db.deleteFrom('moogle_sessions').where('hash', '=', hash).executeTakeFirst();
  return ended.numDeletedRows > 0n;
}

export async function createTicket(
  db: KyselyDb,
  grantOf: GrantOf,
  session: string,
  bounds: SessionBounds,
): Promise<Result<string>> {
  const hash = credentialHash('session', session);
  if (hash === undefined) return err('session/malformed', 'not a Moogle session');
  const grant = await grantOfSession(db, grantOf, hash);
  if (!grant.ok) return grant;
  const now = Date.now();
  await db.deleteFrom('moogle_tickets').where('expires_at', '<=', iso(now)).execute();
  const ticket = newCredential('ticket');
  await db
    .insertInto('moogle_tickets')
    .values({ hash: ticket.hash, session_hash: hash, expires_at: iso(now + bounds.ticketMs) })
    .execute();
  return ok(ticket.value);
}

export async function takeTicket(
  db: KyselyDb,
  grantOf: GrantOf,
  ticket: string,
): Promise<Result<TokenGrant>> {
  const hash = credentialHash('ticket', ticket);
  if (hash === undefined) return err('ticket/malformed', 'not a Moogle ticket');
  // One statement takes it: of two processes handed the same ticket, one deletes the row and
  // the other finds none.
  const taken = await db
    .deleteFrom('moogle_tickets')
    .where('hash', '=', hash)
    .returning(['session_hash', 'expires_at'])
    .executeTakeFirst();
  if (taken === undefined) return err('ticket/unknown', 'this ticket is unknown or was used');
  if (taken.expires_at <= iso(Date.now())) return err('ticket/expired', 'this ticket has expired');
  return grantOfSession(db, grantOf, taken.session_hash);
}
