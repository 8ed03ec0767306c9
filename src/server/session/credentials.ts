import type { FastifyRequest } from 'fastify';
import type { Result } from '../../engine/index.js';
import type { Store, TokenGrant } from '../../store/index.js';
import { isOwner } from '../lobby/owner.js';
import { fromOwnPage, readCookie, sessionCookieName, tableNamed } from './cookie.js';

/** The routes whose path holds a credential: a link's visit, and a live socket's ticket. */
export const EXCHANGE_ROUTE = '/t/:token';
export const LIVE_ROUTE = '/api/encounters/:id/live';
/** The table's own channel (its events, who is at it): a socket with a ticket too. */
export const TABLE_LIVE_ROUTE = '/api/table/live';

/** How the request proved itself. */
export type Via = 'token' | 'ticket' | 'session';

export interface Auth {
  readonly grant: Result<TokenGrant>;
  /** Absent when the request presented nothing. */
  readonly via?: Via;
  /** The session cookie it came with, and the table it named. */
  readonly session?: { readonly tableId: string; readonly value: string };
}

const missing: Result<TokenGrant> = {
  ok: false,
  error: {
    code: 'auth/missing',
    message: "this needs a table link's token, or a session made by opening the link",
  },
};

/**
 * What a request presents, read once however many times it is asked (the rate limiter asks
 * before the route does, and a ticket can be taken only once): a link's token
 * (`Authorization: Bearer`, `?token=`, or the link's own path), a WebSocket ticket, or the
 * session cookie of the table the request names. The first of these present is the one used.
 */
export class RequestCredentials {
  private readonly tokens = new WeakMap<FastifyRequest, Promise<Result<TokenGrant>>>();
  private readonly owners = new WeakMap<FastifyRequest, Promise<'owner' | 'link' | 'none'>>();
  private readonly auths = new WeakMap<FastifyRequest, Promise<Auth>>();

  constructor(
    private readonly store: Store,
    private readonly publicUrl: string | undefined,
  ) {}

  /** The request's token: `Authorization: Bearer <token>`, `?token=`, or a link's path. */
  tokenOf(request: FastifyRequest): string | undefined {
    // A link's visit is the link's alone: a header beside it does not choose the session.
    if (request.routeOptions.url === EXCHANGE_ROUTE) {
      const path = (request.params as { token?: unknown } | undefined)?.token;
      return typeof path === 'string' && path.length > 0 ? path : undefined;
    }
    const header = request.headers.authorization;
    const query = (request.query as { token?: unknown } | undefined)?.token;
    const token =
      typeof header === 'string' && header.startsWith('Bearer ')
        ? header.slice('Bearer '.length).trim()
        : typeof query === 'string'
          ? query
          : undefined;
    return token === undefined || token.length === 0 ? undefined : token;
  }

  /** The grant of `token`, looked up once a request. */
  checkedToken(request: FastifyRequest, token: string): Promise<Result<TokenGrant>> {
    let grant = this.tokens.get(request);
    if (grant === undefined) {
      grant = this.store.checkToken(token);
      this.tokens.set(request, grant);
    }
    return grant;
  }

  /** The owner's credential, or a live link, or neither: read once a request. */
  credentialOf(request: FastifyRequest, token: string): Promise<'owner' | 'link' | 'none'> {
    let credential = this.owners.get(request);
    if (credential === undefined) {
      credential = this.checkedToken(request, token).then(async (grant) =>
        grant.ok ? 'link' : (await isOwner(this.store, token)) ? 'owner' : 'none',
      );
      this.owners.set(request, credential);
    }
    return credential;
  }

  /** The session cookie of the table the request names, sent from this server's own page. */
  sessionOf(request: FastifyRequest): { tableId: string; value: string } | undefined {
    const tableId = tableNamed(request);
    if (tableId === undefined || !fromOwnPage(request, this.publicUrl)) return undefined;
    const value = readCookie(request, sessionCookieName(tableId));
    return value === undefined || value.length === 0 ? undefined : { tableId, value };
  }

  authOf(request: FastifyRequest): Promise<Auth> {
    let auth = this.auths.get(request);
    if (auth === undefined) {
      auth = this.read(request);
      this.auths.set(request, auth);
    }
    return auth;
  }

  async grantOf(request: FastifyRequest): Promise<Result<TokenGrant>> {
    return (await this.authOf(request)).grant;
  }

  private async read(request: FastifyRequest): Promise<Auth> {
    const token = this.tokenOf(request);
    if (token !== undefined) {
      const grant = await this.checkedToken(request, token);
      return {
        via: 'token',
        grant: grant.ok ? grant : invalid('this token is unknown or revoked'),
      };
    }
    const ticket =
      request.routeOptions.url === LIVE_ROUTE || request.routeOptions.url === TABLE_LIVE_ROUTE
        ? (request.query as { ticket?: unknown } | undefined)?.ticket
        : undefined;
    if (typeof ticket === 'string' && ticket.length > 0) {
      const grant = await this.store.takeTicket(ticket);
      return {
        via: 'ticket',
        grant: grant.ok ? grant : invalid('this ticket is unknown, used or expired'),
      };
    }
    const session = this.sessionOf(request);
    if (session === undefined) return { grant: missing };
    const grant = await this.store.checkSession(session.value);
    return {
      via: 'session',
      session,
      grant:
        grant.ok && grant.value.tableId === session.tableId
          ? grant
          : invalid(
              'this session is unknown or expired, or its link was revoked: open the table link again',
            ),
    };
  }
}

function invalid(message: string): Result<TokenGrant> {
  return { ok: false, error: { code: 'auth/invalid', message } };
}
