import { randomBytes } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DiceError, rollDice, seededDice } from '../dice/index.js';
import type { Result } from '../engine/index.js';
import { systemById } from '../rulesets/index.js';
import type { Store, TableRecord, TokenGrant } from '../store/index.js';
import { registerBalance } from './balance-route.js';
import { SERVER_LIMITS } from './limits.js';
import type { EncounterHost } from './live/encounter-host.js';
import { Hub } from './live/hub.js';
import { ReplayBudget } from './live/replays.js';
import type { Role } from './protocol.js';
import { CLOSE, keepEarlyMessages, serveSocket } from './socket.js';
import {
  applyService,
  finishEncounter,
  invite,
  readRoster,
  recruit,
  startEncounter,
  starterLibrary,
  systemOfTable,
} from './tables.js';
import { registerWeb } from './web.js';

export interface ServerOptions {
  readonly store: Store;
  /** Structured JSON logs to stdout (pino, through Fastify); false in tests that read stdout. */
  readonly logger?: boolean;
  /** The address links are made with, when it differs from where the server listens. */
  readonly publicUrl?: string;
}

export interface TableServer {
  readonly app: FastifyInstance;
  readonly hub: Hub;
  /** Stops taking work, finishes in-flight submits, tells clients to reconnect, closes. */
  shutdown(reason?: string): Promise<void>;
}

/** Tokens never reach a log: in a link's path or a query. */
export function redactTokens(url: string): string {
  return url.replace(/([?&]token=)[^&]*/g, '$1…').replace(/(\/t\/)[^/?#]+/g, '$1…');
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
  'role/forbidden': 403,
  'table/not-found': 404,
  'encounter/not-found': 404,
  'encounter/closed': 409,
  'encounter/not-over': 409,
  'roster/exists': 409,
};

function statusOf(code: string): number {
  return HTTP_STATUS[code] ?? (code.startsWith('server/') ? 500 : 400);
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
]);
const encounterBody = z.object({
  file: z.string().min(1).max(SERVER_LIMITS.httpBodyBytes),
  name: z.string().min(1).max(200).optional(),
  seed: z.string().min(1).max(200).optional(),
});
const recruitBody = z.object({ character: z.string().min(1).max(200) });
const idParam = z.object({ id: z.string().min(1).max(200) });

export async function buildServer(options: ServerOptions): Promise<TableServer> {
  const { store } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            serializers: {
              req: (req: FastifyRequest) => ({ method: req.method, url: redactTokens(req.url) }),
            },
          },
    bodyLimit: SERVER_LIMITS.httpBodyBytes,
  });
  const log = (level: 'info' | 'warn' | 'error', message: string, fields: object = {}): void => {
    app.log[level](fields, message);
  };
  const hub = new Hub({
    store,
    systemOf: (id) => systemById(id),
    libraryOf: (system) => {
      const library = starterLibrary(system);
      return library.ok ? library.value : undefined;
    },
    log,
  });
  await hub.start();
  let stopping = false;

  // Per link, not per address: a table's players often share one address (a home network),
  // and one link hammering the server is what the bound is for.
  await app.register(rateLimit, {
    max: SERVER_LIMITS.requestsPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => {
      const header = request.headers.authorization;
      const query = (request.query as { token?: unknown } | undefined)?.token;
      const token = typeof header === 'string' ? header : typeof query === 'string' ? query : '';
      return token === '' ? `ip:${request.ip}` : `token:${token.slice(-24)}`;
    },
  });
  await app.register(websocket, {
    options: { maxPayload: SERVER_LIMITS.messageBytes },
  });

  const linkBase = (request: FastifyRequest): string =>
    options.publicUrl ?? `${request.protocol}://${request.host}`;

  /** The grant of the request's token: `Authorization: Bearer <token>` or `?token=`. */
  async function grantOf(request: FastifyRequest): Promise<Result<TokenGrant>> {
    const header = request.headers.authorization;
    const query = (request.query as { token?: unknown } | undefined)?.token;
    const token =
      typeof header === 'string' && header.startsWith('Bearer ')
        ? header.slice('Bearer '.length).trim()
        : typeof query === 'string'
          ? query
          : undefined;
    if (token === undefined || token.length === 0) {
      return {
        ok: false,
        error: { code: 'auth/missing', message: "this needs a table link's token" },
      };
    }
    const grant = await store.checkToken(token);
    return grant.ok
      ? grant
      : { ok: false, error: { code: 'auth/invalid', message: 'this token is unknown or revoked' } };
  }

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
    try {
      await store.getTable('readiness-check');
      return { status: 'ready', store: store.kind };
    } catch (error) {
      return reply.code(503).send({ status: 'unavailable', error: String(error) });
    }
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
    const system = systemOfTable(found.table);
    if (!system.ok) return send(reply, system);
    const library = starterLibrary(system.value);
    if (!library.ok) return send(reply, library);
    const lib = library.value;
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
    const role =
      body.data.role === 'player'
        ? { role: 'player' as const, characterId: body.data.character }
        : { role: 'spectator' as const };
    const created = await invite(store, found.table, role);
    if (!created.ok) return send(reply, created);
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
    const mine = (await store.listTokens(found.table.id)).some((t) => t.tokenId === id);
    if (!mine || !(await store.revokeToken(id))) {
      return refuse(reply, 'invite/not-found', `no live invite ${id} at this table`);
    }
    return { revoked: id };
  });

  app.post('/api/table/roster', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const body = recruitBody.safeParse(request.body);
    if (!body.success) return refuse(reply, 'roster/invalid', body.error.issues[0]!.message);
    const state = await recruit(store, found.table, body.data.character);
    if (!state.ok) return send(reply, state);
    return reply.code(201).send({ character: body.data.character, state: state.value });
  });

  app.post('/api/table/services', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const report = await applyService(store, found.table, request.body);
    if (!report.ok) return send(reply, report);
    const system = systemOfTable(found.table);
    const roster = system.ok ? await readRoster(store, found.table, system.value) : system;
    return { report: report.value, roster: roster.ok ? roster.value : null };
  });

  app.post('/api/table/encounters', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const body = encounterBody.safeParse(request.body);
    if (!body.success) {
      const issue = body.error.issues[0]!;
      return refuse(reply, 'encounter/invalid', `${issue.path.join('.')}: ${issue.message}`);
    }
    const created = await startEncounter(store, found.table, body.data);
    if (!created.ok) return send(reply, created);
    return reply.code(201).send({ id: created.value.id, name: created.value.name });
  });

  app.get('/api/encounters/:id', async (request, reply) => {
    const found = await tableOf(request, reply, false);
    if (found === undefined) return reply;
    const host = await encounterOf(reply, idParam.parse(request.params).id, found.table);
    if (host === undefined) return reply;
    return host.statePayload(roleOf(found.grant));
  });

  app.post('/api/encounters/:id/finish', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const host = await encounterOf(reply, idParam.parse(request.params).id, found.table);
    if (host === undefined) return reply;
    const finished = await finishEncounter(store, found.table, host.current, host.id);
    if (!finished.ok) return send(reply, finished);
    await host.refreshRecord();
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
    return { status: 'abandoned' };
  });

  const replays = new ReplayBudget();
  app.get('/api/encounters/:id/live', { websocket: true }, async (socket, request) => {
    const early = keepEarlyMessages(socket);
    if (stopping) {
      socket.close(CLOSE.restart, 'stopping');
      return;
    }
    const fail = (code: string, message: string): void => {
      socket.send(JSON.stringify({ type: 'refused', code, message }));
      socket.close(CLOSE.policy, code);
    };
    // The set counts this socket too.
    if (app.websocketServer.clients.size > SERVER_LIMITS.sockets) {
      return fail('server/full', `this server holds at most ${SERVER_LIMITS.sockets} connections`);
    }
    const grant = await grantOf(request);
    const params = idParam.safeParse(request.params);
    if (!grant.ok) return fail(grant.error.code, grant.error.message);
    if (!params.success) return fail('encounter/not-found', 'no such encounter');
    const record = await store.getEncounter(params.data.id);
    if (record === undefined || record.tableId !== grant.value.tableId) {
      return fail('encounter/not-found', `no encounter ${params.data.id} at this table`);
    }
    const host = await hub.host(record.id);
    if (!host.ok) return fail(host.error.code, host.error.message);
    const role = roleOf(grant.value);
    // Admission (the encounter's seats, the link's cap) is decided by serveSocket before its
    // `welcome`, with no await in between, so two sockets cannot both take the last seat.
    serveSocket(socket, {
      host: host.value,
      role,
      linkId: grant.value.tokenId,
      welcome: {
        type: 'welcome',
        protocol: 1,
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
  });

  registerBalance(app, store, hub);
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
