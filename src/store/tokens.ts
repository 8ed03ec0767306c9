import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Access tokens are `<tokenId>.<secret>`. The id (72 random bits) is public and finds the row;
 * the secret (256 random bits) is stored only as its SHA-256 and compared in constant time, so
 * neither a stolen database nor response timing gives a working token. A plain hash lookup would
 * need no comparison at all, but splitting lets a GM list and revoke tokens by id without the
 * secret ever being kept.
 */
const ID_BYTES = 9;
const SECRET_BYTES = 32;
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{43})$/;

export interface NewTokenParts {
  readonly tokenId: string;
  readonly token: string;
  readonly hash: string;
}

export function newToken(): NewTokenParts {
  // An id that begins with '-' reads as an option on a command line (`moogle table revoke`):
  // one in 64 did. Ids made before this still work; the first character loses a sliver of its
  // six bits, the id keeps over 71 of its 72.
  const tokenId = randomBytes(ID_BYTES).toString('base64url').replace(/^-/, 'A');
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { tokenId, token: `${tokenId}.${secret}`, hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The two parts of a well-formed token, or undefined: nothing else reaches the database. */
export function splitToken(token: string): { tokenId: string; secret: string } | undefined {
  const match = TOKEN_SHAPE.exec(token);
  if (match === null) return undefined;
  return { tokenId: match[1]!, secret: match[2]! };
}

/** Whether `secret` hashes to `storedHash`, taking the same time wherever they differ. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  // Both are SHA-256 digests, so equal lengths unless the row is damaged.
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * The owner credential (the lobby API): `moogle-owner.` and 256 random bits when the server
 * makes it (the shape of a link, so the logs' redaction of tokens hides it too), or whatever an
 * operator gives (`ownerTokenShape`). Kept as the SHA-256 of the whole text: it is the one row
 * of its kind, so there is no id to find it by.
 */
export function newOwnerToken(): string {
  return `moogle-owner.${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/** A given owner credential: long enough not to be guessed, short and plain enough for a header. */
const OWNER_TOKEN_SHAPE = /^[A-Za-z0-9._~+/=-]{32,200}$/;

export function ownerTokenShape(token: string): boolean {
  return OWNER_TOKEN_SHAPE.test(token);
}

/** Whether `token` is the owner credential whose hash is `storedHash`, in constant time. */
export function ownerTokenMatches(token: string, storedHash: string): boolean {
  if (!ownerTokenShape(token)) return false;
  return secretMatches(token, storedHash);
}

/**
 * A session (a browser's cookie, made from a link) and a ticket (one WebSocket of a session)
 * are 256 random bits after a prefix that names what they are: in the shape of a link, so the
 * logs' redaction of tokens hides them too. Kept as the SHA-256 of the whole value, which is
 * what finds the row: there is no public id to list them by, and none is needed.
 */
const CREDENTIAL_SHAPES = {
  session: /^moogle-session\.[A-Za-z0-9_-]{43}$/,
  ticket: /^moogle-ticket\.[A-Za-z0-9_-]{43}$/,
} as const;

export type Credential = keyof typeof CREDENTIAL_SHAPES;

export function newCredential(kind: Credential): { value: string; hash: string } {
  const value = `moogle-${kind}.${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { value, hash: hashSecret(value) };
}

/** The hash a well-formed session or ticket is kept by, or undefined: nothing else is looked up. */
export function credentialHash(kind: Credential, value: unknown): string | undefined {
  return typeof value === 'string' && CREDENTIAL_SHAPES[kind].test(value)
    ? hashSecret(value)
    : undefined;
}
