import { randomBytes } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { DiceError, rollDice, seededDice } from '../dice/index.js';
import type { Result } from '../engine/index.js';
import { systemById } from '../rulesets/index.js';
import { StorageError, type Store, type TableRecord, type TokenGrant } from '../store/index.js';
import { BALANCE_LIMITS, type BalanceBounds, registerBalance } from './balance-route.js';
import { keepEarlyMessages } from './bounded-socket.js';
import { describeParty, describeRoster, history, serviceForms } from './campaign-view.js';
import { CLOSE } from './close-codes.js';
import { nestsDeeperThan } from './json-depth.js';
import { tableLibrary } from './library/library.js';
import { registerLibraryPreview } from './library/preview-route.js';
import { type Access, type LibraryContext, registerLibrary } from './library/routes.js';
import { SERVER_LIMITS, type ServerLimits } from './limits.js';
import type { EncounterHost } from './live/encounter-host.js';
import { Hub } from './live/hub.js';
import { ReplayBudget } from './live/replays.js';
import { revokeLink } from './lobby/operations.js';
import { registerLobby } from './lobby/routes.js';
import { PROTOCOL_VERSION, type Role } from './protocol.js';
import { type Addition, withinQuota } from './quotas.js';
import { LIVE_ROUTE, RequestCredentials, TABLE_LIVE_ROUTE } from './session/credentials.js';
import { registerSessions } from './session/routes.js';
import { serveSocket } from './socket.js';
import { serveTableSocket } from './table-socket.js';
import {
  applyService,
  finishEncounter,
  invite,
  readRoster,
  recruit,
  startEncounter,
  systemOfTable,
  undoCampaign,
} from './tables.js';
import { registerTune } from './tune/route.js';
import { registerWeb } from './web.js';

export interface ServerOptions {
  readonly store: Store;
  /** Structured JSON logs to stdout (pino, through Fastify); false in tests that read stdout. */
  readonly logger?: boolean;
  /** Where the logs go instead of stdout: one JSON line a call, tokens already redacted. */
  readonly logStream?: { write(line: string): unknown };
  /** The address links are made with, when it differs from where the server listens. */
  readonly publicUrl?: string;
  /**
   * Behind a reverse proxy: which proxies to believe about the client's address in
   * `X-Forwarded-For` (Fastify's `trustProxy`): `true` for any, a number of hops, or the
   * proxies' addresses and CIDR ranges. Unset, the header is ignored: anyone could write it.
   */
  readonly trustProxy?: boolean | number | string | readonly string[];
  /** Other figures for the quotas and the failed-authentication bound: tests, small hosts. */
  readonly limits?: Partial<
    Pick<
      ServerLimits,
      | 'requestsPerMinute'
      | 'failedAuthsPerMinute'
      | 'entriesPerEncounter'
      | 'tables'
      | 'encountersPerTable'
      | 'rosterPerTable'
      | 'liveLinksPerTable'
      | 'linksPerTable'
      | 'tableContentBytes'
      | 'sessionMs'
      | 'sessionsPerLink'
      | 'ticketMs'
      | 'libraryEntriesPerTable'
      | 'libraryBytesPerTable'
    >
  >;
  /** How long a link whose last socket closed shows as reconnecting (PRESENCE_GRACE_MS). */
  readonly presenceGraceMs?: number;
  /** How often a process holding sockets says it is alive to the others (PRESENCE_BEAT_MS). */
  readonly presenceBeatMs?: number;
  /** The balance runs' bounds where they differ from BALANCE_LIMITS (tests). */
  readonly balance?: Partial<BalanceBounds>;
}

export interface TableServer {
  readonly app: FastifyInstance;
  readonly hub: Hub;
  /** Stops taking work, finishes in-flight submits, tells clients to reconnect, closes. */
  shutdown(reason?: string): Promise<void>;
}

/** A token (`<id>.<secret>`, base64url) wherever it stands, however much surrounds it. */
const TOKEN_ANYWHERE = /[A-Za-z0-9_-]{12,}\.[A-Za-z0-9_-]{43,}/g;

/**
 * A log line with no token (nor WebSocket ticket) in it: what `redactTokens` does to a URL, for
 * whatever else a line carries (a message of Fastify's naming the raw URL, an error's stack).
 */
export function redactLine(line: string): string {
  return line
    .replace(/([?&;](?:token|ticket)=)[^&#"\s]*/gi, '$1…')
    .replace(/(\/t\/)[^?#"\s]*/g, '$1…')
    .replace(TOKEN_ANYWHERE, '…');
}

/**
 * Tokens never reach a log: a link's path (and anything after it: `/t/<token>/`), a `token`
 * query, or a token's shape anywhere else. Percent-escapes are undone first, as the router
 * undoes them: `/%74/<token>` is a link too.
 */
export function redactTokens(url: string): string {
  const decoded = url.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escaped) => {
    try {
      return decodeURIComponent(escaped);
    } catch {
      return escaped;
    }
  });
  return redactLine(decoded);
}

/** Fastify's `trustProxy` from the option; its type has no hop count, its runtime does. */
function proxiesTrusted(
  trust: NonNullable<ServerOptions['trustProxy']>,
): boolean | string | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return typeof trust === 'object' ? [...trust] : trust;
}

/** A refusal made outside a route (a body, the rate limiter): the error handler answers it. */
class HttpRefusal extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function roleOf(grant: TokenGrant): Role {
  return grant.role === 'player'
    ? { role: 'player', characterId: grant.characterId }
    : { role: grant.role };
}

const HTTP_STATUS: Readonly<Record<string, number>> = {
  'auth/missing': 401,
  'auth/invalid': 401,
  'role/gm-only': 403,
  'role/owner-only': 403,
  'role/forbidden': 403,
  'table/not-found': 404,
  'encounter/not-found': 404,
  'encounter/closed': 409,
  'encounter/not-over': 409,
  'invite/own-link': 409,
  'roster/exists': 409,
  'campaign/stale': 409,
  'campaign/changed': 409,
  'campaign/not-newest': 409,
  'campaign/undo-missing-content': 409,
  'campaign/nothing-to-undo': 409,
  'campaign/log-full': 409,
  'library/not-found': 404,
  'library/conflict': 409,
  'library/in-use': 409,
  'content/too-large': 413,
  'table/exists': 409,
  'server/storage': 503,
  'http/not-found': 404,
  'http/url-too-long': 414,
};

function statusOf(code: string): number {
  return (
    HTTP_STATUS[code] ?? (code.startsWith('server/') ? 500 : code.startsWith('quota/') ? 409 : 400)
  );
}

/** A request whose body, declared long, the server may read to its end to answer it. */
function drainable(request: FastifyRequest): boolean {
  const declared = Number(request.headers['content-length']);
  return Number.isSafeInteger(declared) && declared <= SERVER_LIMITS.refusedBodyDrainBytes;
}

/** What Fastify's own errors (and the rate limiter's) are, in this API's codes. */
function refusalOf(error: FastifyError | HttpRefusal): HttpRefusal | undefined {
  if (error instanceof HttpRefusal) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpRefusal(
        413,
        'http/body-too-large',
        `a body is at most ${SERVER_LIMITS.httpBodyBytes / 1024 / 1024} MiB`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpRefusal(
        415,
        'http/unsupported-media-type',
        'a body is JSON, sent as content-type: application/json',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HttpRefusal(400, 'http/bad-json', 'the body is not JSON');
  }
  if (error.name === 'ZodError') return new HttpRefusal(400, 'http/bad-request', 'bad request');
  // An error that already speaks this API (a code such as `server/storage`, its own status) is
  // answered as it says.
  if (error.code?.includes('/') && typeof error.statusCode === 'number') {
    return new HttpRefusal(error.statusCode, error.code, error.message);
  }
  const status = error.statusCode ?? 500;
  return status >= 400 && status < 500
    ? new HttpRefusal(status, 'http/bad-request', error.message)
    : undefined;
}

function send<T>(reply: FastifyReply, result: Result<T>, ok = 200): FastifyReply {
  if (result.ok) return reply.code(ok).send(result.value);
  const { code, message } = result.error;
  return reply.code(statusOf(code)).send({ error: { code, message } });
}

function refuse(reply: FastifyReply, code: string, message: string): FastifyReply {
  return reply.code(statusOf(code)).send({ error: { code, message } });
}

const inviteBody = z.discriminatedUnion('role', [
  z.object({ role: z.literal('player'), character: z.string().min(1).max(200) }),
  z.object({ role: z.literal('spectator') }),
  // A second GM's link (a co-GM, the GM's other device): the GM's alone to make.
  z.object({ role: z.literal('gm') }),
]);
const encounterBody = z.object({
  file: z.string().min(1).max(SERVER_LIMITS.httpBodyBytes),
  name: z.string().min(1).max(200).optional(),
  seed: z.string().min(1).max(200).optional(),
});
const recruitBody = z.object({ character: z.string().min(1).max(200) });
const idParam = z.object({ id: z.string().min(1).max(200) });
const undoBody = z.object({ n: z.number().int().min(1).optional() }).optional();

/** Who did it, as the campaign log names them: the link's role and public id. */
function byOf(grant: TokenGrant): string {
  return `${grant.role}:${grant.tokenId}`;
}

export async function buildServer(options: ServerOptions): Promise<TableServer> {
  const { store } = options;
  const limits: ServerLimits = { ...SERVER_LIMITS, ...options.limits };
  const destination = options.logStream ?? process.stdout;
  const trustProxy = options.trustProxy;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            serializers: {
              req: (req: FastifyRequest) => ({ method: req.method, url: redactTokens(req.url) }),
            },
            // Every line passes here last, so a URL in a message no serializer sees (Fastify's
            // own) is redacted too.
            stream: { write: (line: string) => destination.write(redactLine(line)) },
          },
    bodyLimit: SERVER_LIMITS.httpBodyBytes,
    ...(trustProxy === undefined ? {} : { trustProxy: proxiesTrusted(trustProxy) }),
    // The router's own refusals, before any route: a malformed escape, an over-long parameter.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return refuse(reply, 'http/url-too-long', 'a part of this address is too long');
      }
      return refuse(reply, 'http/bad-url', 'this address does not decode');
    },
  });

  // Every answer is `{error: {code, message}}`, Fastify's own refusals included.
  app.setErrorHandler<FastifyError | HttpRefusal>((error, request, reply) => {
    const refusal = refusalOf(error);
    if (refusal !== undefined) {
      // Fastify closes the connection on any body it refused, to stop reading it; a body whose
      // declared length is bounded is read to its end instead (by Node, dropped as it comes).
      if (refusal.code === 'http/body-too-large' && drainable(request)) {
        reply.removeHeader('connection');
      }
      if (refusal.statusCode >= 500) {
        request.log.warn({ url: redactTokens(request.url), code: refusal.code }, refusal.message);
      }
      return reply
        .code(refusal.statusCode)
        .send({ error: { code: refusal.code, message: refusal.message } });
    }
    request.log.error(
      {
        url: redactTokens(request.url),
        err: { type: error.name, message: error.message, stack: error.stack },
      },
      'request failed',
    );
    return reply
      .code(500)
      .send({ error: { code: 'server/internal', message: 'the server failed; try again' } });
  });
  // Fastify's own 404 logs the raw URL, and a mistyped link is a URL with a token in it.
  app.setNotFoundHandler((_request, reply) =>
    refuse(reply, 'http/not-found', 'nothing here: see the API in docs/server.md'),
  );

  // A body is checked for depth before it is parsed: a parser (and every schema after it) walks
  // whatever depth a client sends, and 400,000 levels stall the loop. An empty body is no body,
  // as on a route that takes none (`finish`, `abandon`).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // JSON only: a text/plain body is what a cross-site form can send without asking.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(text, limits.jsonDepth)) {
      return done(
        new HttpRefusal(
          400,
          'http/too-deep',
          `a body nests at most ${limits.jsonDepth} arrays and objects deep`,
        ),
        undefined,
      );
    }
    parseJson(request, text, done);
  });
  const log = (level: 'info' | 'warn' | 'error', message: string, fields: object = {}): void => {
    app.log[level](fields, message);
  };
  const hub = new Hub(
    {
      store,
      entriesPerEncounter: limits.entriesPerEncounter,
      ...(options.presenceGraceMs === undefined
        ? {}
        : { presenceGraceMs: options.presenceGraceMs }),
      systemOf: (id) => systemById(id),
      libraryOf: async (tableId) => {
        const table = await store.getTable(tableId);
        const library = table === undefined ? undefined : await tableLibrary(store, table);
        return library?.ok ? library.value.library : undefined;
      },
      log,
    },
    options.presenceBeatMs,
  );
  await hub.start();
  let stopping = false;

  const credentials = new RequestCredentials(store, options.publicUrl);
  const tokenOf = (request: FastifyRequest) => credentials.tokenOf(request);
  const credentialOf = (request: FastifyRequest, token: string) =>
    credentials.credentialOf(request, token);

  // Per link, not per address: a table's players often share one address (a home network),
  // and one link hammering the server is what the bound is for. A token that is no live link
  // counts against its address, in a smaller bucket of its own: a fresh forged token each time
  // must not be a fresh bucket each time.
  await app.register(rateLimit, {
    timeWindow: '1 minute',
    keyGenerator: async (request) => {
      // A session or a ticket counts against its link, as the link's token does.
      const grant = await credentials.grantOf(request).catch(() => undefined);
      if (grant === undefined) return `ip:${request.ip}`;
      if (grant.ok) return `link:${grant.value.tokenId}`;
      if (grant.error.code === 'auth/missing') return `ip:${request.ip}`;
      // The owner has one bucket of its own, as a link has.
      const token = tokenOf(request);
      const credential =
        token === undefined
          ? 'none'
          : await credentialOf(request, token).catch(() => 'none' as const);
      return credential === 'owner' ? 'owner' : `forged:${request.ip}`;
    },
    max: (_request, key) =>
      key.startsWith('forged:') ? limits.failedAuthsPerMinute : limits.requestsPerMinute,
    errorResponseBuilder: (_request, context) =>
      new HttpRefusal(
        429,
        'http/rate-limited',
        `at most ${context.max} requests a minute; try again in ${context.after}`,
      ),
  });
  await app.register(websocket, {
    options: { maxPayload: SERVER_LIMITS.messageBytes },
  });

  const linkBase = (request: FastifyRequest): string =>
    options.publicUrl ?? `${request.protocol}://${request.host}`;

  /** The grant of the request's token, ticket or session. */
  const grantOf = (request: FastifyRequest) => credentials.grantOf(request);

  async function tableOf(
    request: FastifyRequest,
    reply: FastifyReply,
    gmOnly: boolean,
  ): Promise<{ grant: TokenGrant; table: TableRecord } | undefined> {
    const grant = await grantOf(request);
    if (!grant.ok) {
      send(reply, grant);
      return undefined;
    }
    if (gmOnly && grant.value.role !== 'gm') {
      refuse(reply, 'role/gm-only', 'only the GM may do this');
      return undefined;
    }
    const table = await store.getTable(grant.value.tableId);
    if (table === undefined) {
      refuse(reply, 'table/not-found', 'the table of this token is gone');
      return undefined;
    }
    return { grant: grant.value, table };
  }

  /** Whether the table may take what the request adds; answered when it may not. */
  async function allowed(
    reply: FastifyReply,
    table: TableRecord,
    adding: Addition,
  ): Promise<boolean> {
    const within = await withinQuota(store, table.id, adding, limits);
    if (!within.ok) send(reply, within);
    return within.ok;
  }

  /** The live host of an encounter of the token's table; other tables' encounters do not exist. */
  async function encounterOf(
    reply: FastifyReply,
    id: string,
    table: TableRecord,
  ): Promise<EncounterHost | undefined> {
    const record = await store.getEncounter(id);
    if (record === undefined || record.tableId !== table.id) {
      refuse(reply, 'encounter/not-found', `no encounter ${id} at this table`);
      return undefined;
    }
    const host = await hub.host(id);
    if (!host.ok) {
      send(reply, host);
      return undefined;
    }
    return host.value;
  }

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (stopping) return reply.code(503).send({ status: 'stopping' });
    // Raced, not awaited: a hung database would hold the probe for the store's own timeouts,
    // and a load balancer asks to know now.
    let timer: NodeJS.Timeout | undefined;
    const failure = await Promise.race([
      store.getTable('readiness-check').then(
        () => undefined,
        (error: unknown) => error,
      ),
      new Promise((resolve) => {
        timer = setTimeout(
          () => resolve(new Error(`no answer in ${SERVER_LIMITS.readyMs} ms`)),
          SERVER_LIMITS.readyMs,
        );
      }),
    ]);
    clearTimeout(timer);
    if (failure === undefined) return { status: 'ready', store: store.kind };
    log('warn', 'not ready: the store does not answer', {
      error: String(failure instanceof StorageError ? failure.cause : failure),
    });
    return reply.code(503).send({
      status: 'unavailable',
      error: { code: 'server/storage', message: 'the database is unavailable' },
    });
  });

  app.get('/api/table', async (request, reply) => {
    const found = await tableOf(request, reply, false);
    if (found === undefined) return reply;
    const { grant, table } = found;
    const rows = await store.getRoster(table.id);
    const encounters = await store.listEncounters(table.id);
    return {
      table,
      role: roleOf(grant),
      // The link this page's session came from: the seats panel marks it as this screen's.
      link: grant.tokenId,
      roster: rows.map((r) => ({
        character: r.characterId,
        state: r.state,
        updatedAt: r.updatedAt,
      })),
      encounters: encounters.map((e) => ({
        id: e.id,
        name: e.name,
        status: e.status,
        createdAt: e.createdAt,
      })),
    };
  });

  app.get('/api/table/content', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const library = await tableLibrary(store, found.table);
    if (!library.ok) return send(reply, library);
    const lib = library.value.library;
    return {
      content: lib.kinds().flatMap((kind) =>
        lib.all(kind).map((entity) => {
          const name = (entity as { name?: unknown }).name;
          return { kind, id: entity.id, name: typeof name === 'string' ? name : entity.id };
        }),
      ),
    };
  });

  app.post('/api/table/invites', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const body = inviteBody.safeParse(request.body);
    if (!body.success) return refuse(reply, 'invite/invalid', body.error.issues[0]!.message);
    if (!(await allowed(reply, found.table, 'link'))) return reply;
    const role =
      body.data.role === 'player'
        ? { role: 'player' as const, characterId: body.data.character }
        : { role: body.data.role };
    const created = await invite(store, found.table, role);
    if (!created.ok) return send(reply, created);
    hub.tableEvent(found.table.id, { type: 'invites-changed' });
    return reply.code(201).send({
      token: created.value.token,
      link: `${linkBase(request)}/t/${created.value.token}`,
      invite: created.value.info,
    });
  });

  app.get('/api/table/invites', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    return { invites: await store.listTokens(found.table.id) };
  });

  app.delete('/api/table/invites/:id', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const { id } = idParam.parse(request.params);
    // Not the link this request came with: a GM who revoked their own would be locked out
    // mid-sentence (another GM link, the lobby API or `moogle table revoke` can).
    if (id === found.grant.tokenId) {
      return refuse(
        reply,
        'invite/own-link',
        "this is the link you are using: revoke it from another GM link or with 'moogle table revoke'",
      );
    }
    if (!(await revokeLink(store, found.table.id, id))) {
      return refuse(reply, 'invite/not-found', `no live invite ${id} at this table`);
    }
    return { revoked: id };
  });

  app.post('/api/table/roster', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const body = recruitBody.safeParse(request.body);
    if (!body.success) return refuse(reply, 'roster/invalid', body.error.issues[0]!.message);
    if (!(await allowed(reply, found.table, 'character'))) return reply;
    const state = await recruit(store, found.table, body.data.character, byOf(found.grant));
    if (!state.ok) return send(reply, state);
    hub.tableEvent(found.table.id, { type: 'roster-changed' });
    return reply.code(201).send({ character: body.data.character, state: state.value });
  });

  app.post('/api/table/services', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    if (!(await allowed(reply, found.table, 'roster'))) return reply;
    const outcome = await applyService(store, found.table, request.body, {
      by: byOf(found.grant),
    });
    if (outcome.ok) hub.tableEvent(found.table.id, { type: 'roster-changed' });
    return send(reply, outcome);
  });

  // What a service would cost and do, saved nowhere: the page shows it before Confirm.
  app.post('/api/table/services/quote', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    return send(reply, await applyService(store, found.table, request.body, { dryRun: true }));
  });

  // The campaign page: the GM's in full (party, services, log, history); a player's holds their
  // own character's sheet and only names and standing for the rest of the party.
  app.get('/api/table/campaign', async (request, reply) => {
    const found = await tableOf(request, reply, false);
    if (found === undefined) return reply;
    const system = systemOfTable(found.table);
    if (!system.ok) return send(reply, system);
    const library = await tableLibrary(store, found.table);
    if (!library.ok) return send(reply, library);
    const roster = await readRoster(store, found.table, system.value);
    if (!roster.ok) return send(reply, roster);
    const characters = describeRoster(system.value, library.value.library, roster.value);
    const money = system.value.campaign.money?.unit ?? null;
    const { grant } = found;
    if (grant.role !== 'gm') {
      const own = grant.role === 'player' ? grant.characterId : undefined;
      return {
        role: roleOf(grant),
        money,
        sheet: characters.find((c) => c.id === own) ?? null,
        party: characters.map((c) => ({ id: c.id, name: c.name, down: c.down })),
      };
    }
    const log = await store.campaignLog(found.table.id);
    const encounters = await store.listEncounters(found.table.id);
    const lib = library.value.library;
    return {
      role: roleOf(grant),
      money,
      characters,
      party: describeParty(system.value, roster.value.party),
      services: serviceForms(system.value.campaign.services),
      items: lib
        .kinds()
        .filter((kind) => kind.split('/').at(-1) === 'item')
        .flatMap((kind) => lib.all(kind))
        .map((e) => {
          const name = (e as { name?: unknown }).name;
          return { id: e.id, name: typeof name === 'string' ? name : e.id };
        }),
      log: log.map(({ before: _b, after: _a, ...entry }) => entry),
      history: history(system.value, lib, encounters, log),
    };
  });

  app.get('/api/table/campaign-log', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    return { entries: await store.campaignLog(found.table.id) };
  });

  app.post('/api/table/campaign-log/undo', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const body = undoBody.safeParse(request.body ?? undefined);
    if (!body.success) return refuse(reply, 'campaign/invalid', body.error.issues[0]!.message);
    const undone = await undoCampaign(store, found.table, byOf(found.grant), body.data?.n);
    if (!undone.ok) return send(reply, undone);
    hub.tableEvent(found.table.id, { type: 'roster-changed' });
    const system = systemOfTable(found.table);
    const roster = system.ok ? await readRoster(store, found.table, system.value) : system;
    return { undone: undone.value, roster: roster.ok ? roster.value : null };
  });

  app.post('/api/table/encounters', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const body = encounterBody.safeParse(request.body);
    if (!body.success) {
      const issue = body.error.issues[0]!;
      return refuse(reply, 'encounter/invalid', `${issue.path.join('.')}: ${issue.message}`);
    }
    if (!(await allowed(reply, found.table, 'encounter'))) return reply;
    const created = await startEncounter(store, found.table, body.data);
    if (!created.ok) return send(reply, created);
    // Every player's screen moves to it (docs/web.md, "Phones follow the table").
    hub.tableEvent(found.table.id, {
      type: 'encounter-started',
      id: created.value.id,
      name: created.value.name,
    });
    return reply.code(201).send({ id: created.value.id, name: created.value.name });
  });

  app.get('/api/encounters/:id', async (request, reply) => {
    const found = await tableOf(request, reply, false);
    if (found === undefined) return reply;
    const host = await encounterOf(reply, idParam.parse(request.params).id, found.table);
    if (host === undefined) return reply;
    return host.statePayload(roleOf(found.grant));
  });

  app.get('/api/encounters/:id/gm-kit', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const host = await encounterOf(reply, idParam.parse(request.params).id, found.table);
    if (host === undefined) return reply;
    return host.gmKit();
  });

  app.post('/api/encounters/:id/finish', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const host = await encounterOf(reply, idParam.parse(request.params).id, found.table);
    if (host === undefined) return reply;
    const finished = await finishEncounter(
      store,
      found.table,
      host.current,
      host.id,
      byOf(found.grant),
    );
    if (!finished.ok) return send(reply, finished);
    await host.refreshRecord();
    hub.tableEvent(found.table.id, { type: 'encounter-ended', id: host.id, status: 'finished' });
    hub.tableEvent(found.table.id, { type: 'roster-changed' });
    return { status: finished.value.record.status, report: finished.value.report };
  });

  app.post('/api/encounters/:id/abandon', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const host = await encounterOf(reply, idParam.parse(request.params).id, found.table);
    if (host === undefined) return reply;
    if (host.status !== 'active') return refuse(reply, 'encounter/closed', `it is ${host.status}`);
    const changed = await store.setEncounterStatus(host.id, 'abandoned');
    if (!changed.ok) return send(reply, changed);
    await host.refreshRecord();
    hub.tableEvent(found.table.id, { type: 'encounter-ended', id: host.id, status: 'abandoned' });
    return { status: 'abandoned' };
  });

  const replays = new ReplayBudget();
  /**
   * A store that fails while a socket is admitted is answered on the socket: a bare close (1006)
   * would look like a network fault, and a client would retry at once instead of later.
   */
  const failedSocket =
    (socket: WebSocket, what: string) =>
    (error: unknown): void => {
      const unavailable = error instanceof StorageError;
      if (!unavailable) log('error', what, { error: String(error) });
      socket.send(
        JSON.stringify({
          type: 'refused',
          code: unavailable ? error.code : 'server/internal',
          message: unavailable ? error.message : 'the server failed; try again',
        }),
      );
      socket.close(unavailable ? CLOSE.unavailable : CLOSE.internal, 'server');
    };
  app.get(LIVE_ROUTE, { websocket: true }, (socket, request) =>
    live(socket, request).catch(failedSocket(socket, 'a live connection failed')),
  );

  /**
   * What both live sockets (an encounter's, a table's channel) do first: keep the messages that
   * come before they are served, turn the socket away while stopping or full, and read its
   * credential. Undefined once the socket was refused and closed.
   */
  async function admitted(
    socket: WebSocket,
    request: FastifyRequest,
  ): Promise<
    | {
        readonly early: ReturnType<typeof keepEarlyMessages>;
        readonly fail: (code: string, message: string) => void;
        readonly grant: TokenGrant;
      }
    | undefined
  > {
    const early = keepEarlyMessages(socket);
    if (stopping) {
      socket.close(CLOSE.restart, 'stopping');
      return undefined;
    }
    const fail = (code: string, message: string): void => {
      socket.send(JSON.stringify({ type: 'refused', code, message }));
      socket.close(code === 'server/storage' ? CLOSE.unavailable : CLOSE.policy, code);
    };
    // The set counts this socket too.
    if (app.websocketServer.clients.size > SERVER_LIMITS.sockets) {
      fail('server/full', `this server holds at most ${SERVER_LIMITS.sockets} connections`);
      return undefined;
    }
    const grant = await grantOf(request);
    if (!grant.ok) {
      fail(grant.error.code, grant.error.message);
      return undefined;
    }
    return { early, fail, grant: grant.value };
  }

  async function live(socket: WebSocket, request: FastifyRequest): Promise<void> {
    const params = idParam.safeParse(request.params);
    const admission = await admitted(socket, request);
    if (admission === undefined) return;
    const { early, fail, grant } = admission;
    if (!params.success) return fail('encounter/not-found', 'no such encounter');
    const record = await store.getEncounter(params.data.id);
    if (record === undefined || record.tableId !== grant.tableId) {
      return fail('encounter/not-found', `no encounter ${params.data.id} at this table`);
    }
    const host = await hub.host(record.id);
    if (!host.ok) return fail(host.error.code, host.error.message);
    const role = roleOf(grant);
    // Admission (the encounter's seats, the link's cap) is decided by serveSocket before its
    // `welcome`, with no await in between, so two sockets cannot both take the last seat.
    serveSocket(socket, {
      host: host.value,
      role,
      linkId: grant.tokenId,
      welcome: {
        type: 'welcome',
        protocol: PROTOCOL_VERSION,
        role,
        encounter: { id: record.id, name: record.name, system: record.ruleset },
      },
      replays,
      onRoll: (notation) => {
        try {
          const rolled = rollDice(notation, { dice: seededDice(randomBytes(8).toString('hex')) });
          return { total: rolled.total, text: rolled.text };
        } catch (error) {
          if (error instanceof DiceError) return { error: error.message };
          throw error;
        }
      },
      early,
    });
    hub.closeIfRevoked(host.value, grant.tokenId);
  }

  // The table's channel: its events and who is at it (docs/server.md, "The table channel").
  app.get(TABLE_LIVE_ROUTE, { websocket: true }, (socket, request) =>
    tableLive(socket, request).catch(failedSocket(socket, 'a table connection failed')),
  );

  async function tableLive(socket: WebSocket, request: FastifyRequest): Promise<void> {
    const admission = await admitted(socket, request);
    if (admission === undefined) return;
    const { early, fail, grant } = admission;
    const table = await store.getTable(grant.tableId);
    if (table === undefined) return fail('table/not-found', 'the table of this link is gone');
    const role = roleOf(grant);
    serveTableSocket(socket, {
      tables: hub.tables,
      tableId: table.id,
      role,
      linkId: grant.tokenId,
      welcome: { type: 'welcome', protocol: 1, role, table: { id: table.id, name: table.name } },
      early,
    });
    hub.closeTableIfRevoked(grant.tokenId);
  }

  registerBalance(app, store, hub, grantOf, options.balance);
  registerTune(app, {
    simulations: app.simulations,
    runMs: options.balance?.runMs ?? BALANCE_LIMITS.runMs,
    tableOf,
    readRosterOf: (table) => {
      const system = systemOfTable(table);
      return system.ok ? readRoster(store, table, system.value) : Promise.resolve(system);
    },
    libraryOf: async (table) => {
      const read = await tableLibrary(store, table);
      return read.ok ? { ok: true, value: read.value.library } : read;
    },
  });
  registerLobby(app, { store, limits, linkBase, tokenOf, credentialOf, send, refuse });
  registerSessions(app, { store, bounds: limits, credentials, send, refuse });
  const library: LibraryContext = {
    store,
    limits,
    statusOf,
    // The owner's token, or whatever a link's request may present (its token, or the session
    // cookie a browser keeps for the table): the same as every table route reads.
    accessOf: async (request): Promise<Access> => {
      const token = tokenOf(request);
      if (token !== undefined && (await credentialOf(request, token)) === 'owner') {
        return { kind: 'owner' };
      }
      const grant = await grantOf(request);
      return grant.ok
        ? { kind: 'link', grant: grant.value }
        : { kind: 'none', code: grant.error.code, message: grant.error.message };
    },
  };
  registerLibrary(app, library);
  registerLibraryPreview(app, library);
  await registerWeb(app);

  async function shutdown(reason = 'the server is stopping'): Promise<void> {
    if (stopping) return;
    stopping = true;
    await hub.drain(reason);
    for (const client of app.websocketServer?.clients ?? []) client.close(CLOSE.restart, 'restart');
    await app.close();
    hub.close();
  }

  return { app, hub, shutdown };
}
