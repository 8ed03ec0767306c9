import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Result } from '../../engine/index.js';
import type { Store, TableRecord, TokenRole } from '../../store/index.js';
import type { ServerLimits } from '../limits.js';
import { withinQuota } from '../quotas.js';
import { invite } from '../tables.js';
import { deleteTable, importTable, newTable, revokeLink } from './operations.js';

export interface LobbyContext {
  readonly store: Store;
  readonly limits: ServerLimits;
  /** Where links point: the server's public address. */
  readonly linkBase: (request: FastifyRequest) => string;
  /** The request's credential (`Authorization: Bearer`), as every route reads it. */
  readonly tokenOf: (request: FastifyRequest) => string | undefined;
  /** Whether the credential is the owner's, and else whether it is a live link: read once a request. */
  readonly credentialOf: (
    request: FastifyRequest,
    token: string,
  ) => Promise<'owner' | 'link' | 'none'>;
  readonly send: <T>(reply: FastifyReply, result: Result<T>, ok?: number) => FastifyReply;
  readonly refuse: (reply: FastifyReply, code: string, message: string) => FastifyReply;
}

const id = z.string().min(1).max(200);
const tableParam = z.object({ id });
const linkParam = z.object({ id, tokenId: id });
const newTableBody = z.object({
  system: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  characters: z.array(z.string().min(1).max(200)).max(200).optional(),
});
const linkBody = z.discriminatedUnion('role', [
  z.object({ role: z.literal('gm') }),
  z.object({ role: z.literal('player'), character: z.string().min(1).max(200) }),
  z.object({ role: z.literal('spectator') }),
]);

/**
 * The lobby API (docs/server.md): tables created, listed, exported, imported and deleted, and
 * links made, listed and revoked, by the owner credential alone (`owner.ts`). A table's links,
 * the GM's included, are refused here: a GM runs one table, never the store.
 */
export function registerLobby(app: FastifyInstance, context: LobbyContext): void {
  const { store, limits, send, refuse } = context;

  /** True when the request is the owner's; else it has been answered. */
  async function owner(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const token = context.tokenOf(request);
    if (token === undefined) {
      refuse(reply, 'auth/missing', 'this needs the owner token');
      return false;
    }
    const credential = await context.credentialOf(request, token);
    if (credential === 'owner') return true;
    if (credential === 'link') refuse(reply, 'role/owner-only', 'only the owner may do this');
    else refuse(reply, 'auth/invalid', 'this token is unknown or revoked');
    return false;
  }

  async function tableOf(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<TableRecord | undefined> {
    const params = tableParam.safeParse(request.params);
    const table = params.success ? await store.getTable(params.data.id) : undefined;
    if (table === undefined) refuse(reply, 'table/not-found', 'no such table');
    return table;
  }

  app.post('/api/lobby/tables', async (request, reply) => {
    if (!(await owner(request, reply))) return reply;
    const body = newTableBody.safeParse(request.body);
    if (!body.success) return refuse(reply, 'table/invalid', body.error.issues[0]!.message);
    if ((await store.listTables()).length >= limits.tables) {
      return refuse(reply, 'quota/tables', `a server keeps at most ${limits.tables} tables`);
    }
    const created = await newTable(store, body.data);
    if (!created.ok) return send(reply, created);
    const { table, gm } = created.value;
    return reply.code(201).send({
      table,
      gm: { token: gm.token, link: `${context.linkBase(request)}/t/${gm.token}`, invite: gm.info },
    });
  });

  app.get('/api/lobby/tables', async (request, reply) => {
    if (!(await owner(request, reply))) return reply;
    return { tables: await store.listTables() };
  });

  app.get('/api/lobby/tables/:id/export', async (request, reply) => {
    if (!(await owner(request, reply))) return reply;
    const table = await tableOf(request, reply);
    if (table === undefined) return reply;
    return send(reply, await store.exportTable(table.id));
  });

  app.post('/api/lobby/tables/import', async (request, reply) => {
    if (!(await owner(request, reply))) return reply;
    if ((await store.listTables()).length >= limits.tables) {
      return refuse(reply, 'quota/tables', `a server keeps at most ${limits.tables} tables`);
    }
    const imported = await importTable(store, request.body);
    if (!imported.ok) return send(reply, imported);
    return reply.code(201).send({ table: imported.value });
  });

  app.delete('/api/lobby/tables/:id', async (request, reply) => {
    if (!(await owner(request, reply))) return reply;
    const table = await tableOf(request, reply);
    if (table === undefined) return reply;
    const deleted = await deleteTable(store, table.id);
    if (!deleted.ok) return send(reply, deleted);
    return { deleted: table.id, revoked: deleted.value.revoked };
  });

  app.post('/api/lobby/tables/:id/links', async (request, reply) => {
    if (!(await owner(request, reply))) return reply;
    const table = await tableOf(request, reply);
    if (table === undefined) return reply;
    const body = linkBody.safeParse(request.body);
    if (!body.success) return refuse(reply, 'invite/invalid', body.error.issues[0]!.message);
    const within = await withinQuota(store, table.id, 'link', limits);
    if (!within.ok) return send(reply, within);
    const role: TokenRole =
      body.data.role === 'player'
        ? { role: 'player', characterId: body.data.character }
        : { role: body.data.role };
    const created = await invite(store, table, role);
    if (!created.ok) return send(reply, created);
    return reply.code(201).send({
      token: created.value.token,
      link: `${context.linkBase(request)}/t/${created.value.token}`,
      invite: created.value.info,
    });
  });

  app.get('/api/lobby/tables/:id/links', async (request, reply) => {
    if (!(await owner(request, reply))) return reply;
    const table = await tableOf(request, reply);
    if (table === undefined) return reply;
    return { links: await store.listTokens(table.id) };
  });

  app.delete('/api/lobby/tables/:id/links/:tokenId', async (request, reply) => {
    if (!(await owner(request, reply))) return reply;
    const params = linkParam.safeParse(request.params);
    const table = await tableOf(request, reply);
    if (table === undefined || !params.success) return reply;
    if (!(await revokeLink(store, table.id, params.data.tokenId))) {
      return refuse(reply, 'invite/not-found', `no live link ${params.data.tokenId} at this table`);
    }
    return { revoked: params.data.tokenId };
  });
}
