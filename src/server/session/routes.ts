import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Result } from '../../engine/index.js';
import type { SessionBounds, Store } from '../../store/index.js';
import { readCookie, sessionCookie, sessionCookieName } from './cookie.js';
import { EXCHANGE_ROUTE, type RequestCredentials } from './credentials.js';

export interface SessionContext {
  readonly store: Store;
  readonly bounds: SessionBounds;
  readonly credentials: RequestCredentials;
  readonly send: <T>(reply: FastifyReply, result: Result<T>, ok?: number) => FastifyReply;
  readonly refuse: (reply: FastifyReply, code: string, message: string) => FastifyReply;
}

/** The address a table's pages are served at once its link has been exchanged: no secret in it. */
export function tableAddress(tableId: string): string {
  return `/table/${encodeURIComponent(tableId)}`;
}

/** A link's page may not be kept, nor its address passed on. */
const EXCHANGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

const REFUSED_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Moogle</title></head>
<body><main><h1>Moogle</h1><p role="alert">This table link is unknown or was revoked: ask your GM for a new one.</p></main></body></html>
`;

/** What a chat's link preview is shown: no session made, nothing said of the link. */
const PREVIEW_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Moogle: a seat at the table</title><meta name="robots" content="noindex">
<meta property="og:title" content="Moogle: a seat at the table">
<meta property="og:description" content="Open this link on your own device to join the game."></head>
<body><main><h1>Moogle</h1><p>Open this link on your own device to join the game.</p></main></body></html>
`;

/**
 * The fetchers that read a link pasted in a chat to show its preview (Discord, Slack,
 * WhatsApp and Signal, Telegram, iMessage, Teams, Mastodon, ...), by the names they send: each
 * would otherwise make a session of the link, and a link keeps `sessionsPerLink` of them, its
 * oldest ended for a new one, so a chat's previews could sign a player's phone out.
 */
const LINK_PREVIEW =
  /facebookexternalhit|facebot|twitterbot|slackbot|discordbot|telegrambot|whatsapp|linkedinbot|skypeuripreview|microsoft teams|mastodon|redditbot|embedly|iframely|pinterestbot|vkshare|viber|googlebot|bingbot|applebot|bot\/|crawler|spider/i;

export function isLinkPreview(request: FastifyRequest): boolean {
  // A HEAD asks whether the page is there, as previews and link checkers do: no browser
  // opens a table with one.
  if (request.method === 'HEAD') return true;
  const agent = request.headers['user-agent'];
  return typeof agent === 'string' && LINK_PREVIEW.test(agent);
}

/**
 * Secrets out of addresses (docs/server.md, Sessions). Opening a link `/t/<token>` checks it,
 * keeps a session for this browser in an HttpOnly cookie, and sends the browser on (303) to
 * `/table/<table id>`: the secret leaves the address bar, and with it history, bookmarks,
 * proxy logs and screenshots. The link itself keeps working, on any number of devices, until
 * it is revoked, which ends its sessions too. A page's WebSocket is opened with the cookie, or
 * with a ticket from `POST /api/session/ticket` (a client that holds a session but sends no
 * cookie on its upgrade).
 */
export function registerSessions(app: FastifyInstance, context: SessionContext): void {
  const { store, bounds, credentials, send, refuse } = context;

  app.get(EXCHANGE_ROUTE, async (request, reply) => {
    if (isLinkPreview(request)) {
      return reply.headers(EXCHANGE_HEADERS).type('text/html; charset=utf-8').send(PREVIEW_PAGE);
    }
    const grant = await credentials.grantOf(request);
    if (!grant.ok) {
      return reply
        .code(grant.error.code === 'auth/missing' ? 400 : 401)
        .headers(EXCHANGE_HEADERS)
        .type('text/html; charset=utf-8')
        .send(REFUSED_PAGE);
    }
    const { tableId, tokenId } = grant.value;
    const name = sessionCookieName(tableId);
    // A later link of the table replaces the session an earlier one made in this browser.
    const previous = readCookie(request, name);
    if (previous !== undefined) await store.endSession(previous);
    const created = await store.createSession(tokenId, bounds);
    if (!created.ok) return send(reply, created);
    return reply
      .headers(EXCHANGE_HEADERS)
      .header(
        'set-cookie',
        sessionCookie(name, created.value.session, bounds.sessionMs, secure(request)),
      )
      .redirect(tableAddress(tableId), 303);
  });

  app.post('/api/session/ticket', async (request, reply) => {
    const auth = await credentials.authOf(request);
    if (!auth.grant.ok) return send(reply, auth.grant);
    if (auth.session === undefined) {
      return refuse(
        reply,
        'session/none',
        'a ticket is made for a session (the cookie a link opened); a token opens a socket itself',
      );
    }
    const ticket = await store.createTicket(auth.session.value, bounds);
    // Ended between the check and now (revoked, replaced): as if it had been so before.
    if (!ticket.ok) return refuse(reply, 'auth/invalid', ticket.error.message);
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send({ ticket: ticket.value, expiresInMs: bounds.ticketMs });
  });

  app.delete('/api/session', async (request, reply) => {
    const auth = await credentials.authOf(request);
    if (!auth.grant.ok) return send(reply, auth.grant);
    if (auth.session === undefined) {
      return refuse(reply, 'session/none', 'this request came with no session to end');
    }
    await store.endSession(auth.session.value);
    return reply
      .header(
        'set-cookie',
        sessionCookie(sessionCookieName(auth.session.tableId), '', 0, secure(request)),
      )
      .send({ ended: true });
  });
}

/** Fastify reads `X-Forwarded-Proto` only from the proxies `--trust-proxy` names. */
function secure(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}
