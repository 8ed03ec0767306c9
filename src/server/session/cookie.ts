import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * The session cookies: one a table, so one browser holds sessions of several tables at once,
 * and a later link of a table (the GM's, then a player's) replaces the earlier one's. Named
 * by a hash of the table id: an id may hold any character, a cookie's name may not.
 */
export function sessionCookieName(tableId: string): string {
  return `moogle-${createHash('sha256').update(tableId, 'utf8').digest('hex').slice(0, 24)}`;
}

/** The header a browser's request names its table in: what a cross-site form cannot send. */
export const TABLE_HEADER = 'x-moogle-table';

/** A cookie's value from the request's `Cookie` header, or undefined. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * `HttpOnly`: no script reads it, so no injected one takes it away. `SameSite=Strict`: no
 * request another site starts carries it, a link followed from a chat included; the page it
 * lands on needs none (it is the same for everyone), and the page's own calls are same-site.
 * `Secure` where the request came over HTTPS (behind `--trust-proxy`, as the proxy says).
 */
export function sessionCookie(
  name: string,
  value: string,
  maxAgeMs: number,
  secure: boolean,
): string {
  return [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/**
 * The table a request made with a session names: the `x-moogle-table` header, or for a GET
 * (an `EventSource`, a WebSocket upgrade: neither sends headers of the page's choosing) a
 * `table` query. A request that changes something must carry the header: SameSite already
 * keeps other sites' requests from carrying the cookie, and a header no form can set keeps
 * even a sibling subdomain's from acting with it.
 */
export function tableNamed(request: FastifyRequest): string | undefined {
  const header = request.headers[TABLE_HEADER];
  if (typeof header === 'string' && header.length > 0 && header.length <= 600) {
    try {
      return decodeURIComponent(header);
    } catch {
      return undefined;
    }
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const query = (request.query as { table?: unknown } | undefined)?.table;
  return typeof query === 'string' && query.length > 0 && query.length <= 200 ? query : undefined;
}

/**
 * Whether the page that sent the request is this server's own: a browser names it in
 * `Origin` on every WebSocket upgrade and on most requests; no header is a client that is
 * no browser page. A cookie sent from another origin's page is never used.
 */
export function fromOwnPage(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  if (host === request.host) return true;
  if (publicUrl === undefined) return false;
  try {
    return new URL(publicUrl).host === host;
  } catch {
    return false;
  }
}
