import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Store, TableRecord, TokenGrant } from '../../store/index.js';
import type { ServerLimits } from '../limits.js';
import { readZip, writeZip } from './archive.js';
import type { LibraryResult } from './library.js';
import {
  deleteEntry,
  exportPack,
  importPack,
  listLibrary,
  MAX_PACK_BYTES,
  putEntry,
  type Reader,
  readEntry,
} from './operations.js';

/** Who asks: the owner (every table), a link of the table, or nobody the server knows. */
export type Access =
  | { readonly kind: 'owner' }
  | { readonly kind: 'link'; readonly grant: TokenGrant }
  | { readonly kind: 'none'; readonly code: string; readonly message: string };

export interface LibraryContext {
  readonly store: Store;
  readonly limits: ServerLimits;
  readonly accessOf: (request: FastifyRequest) => Promise<Access>;
  readonly statusOf: (code: string) => number;
}

const slug = z.string().min(1).max(200);
const tableParams = z.object({ table: slug });
const entryParams = z.union([
  z.object({ table: slug, system: slug, name: slug, id: slug }),
  // The kind as one segment, its slash escaped: `/content/ffrpg%2Fmonster/goblin`.
  z.object({ table: slug, kind: slug, id: slug }),
]);
const putBody = z.object({
  body: z.unknown(),
  expectedVersion: z.number().int().min(0).optional(),
});
const deleteQuery = z.object({ expectedVersion: z.coerce.number().int().min(0).optional() });
const importBody = z.union([
  z.object({
    files: z
      .array(z.object({ name: z.string().min(1).max(300), text: z.string().max(MAX_PACK_BYTES) }))
      .min(1),
  }),
  // The archive's bytes in base64: the API takes JSON only (a form from another site cannot
  // send it), and a .zip of content is small.
  z.object({ archive: z.base64().max(Math.ceil((MAX_PACK_BYTES * 4) / 3)) }),
]);
const exportQuery = z.object({ format: z.enum(['json', 'zip']).default('json') });

/**
 * A table's content library over HTTP (docs/server.md, "The content library"): the GM of the
 * table (or the owner) lists, reads, writes, deletes, imports and exports; a player's or a
 * spectator's link reads what is not the GM's alone (no monster).
 */
export function registerLibrary(app: FastifyInstance, context: LibraryContext): void {
  const { store, limits } = context;

  function answer<T>(reply: FastifyReply, result: LibraryResult<T>, status = 200): FastifyReply {
    if (result.ok) return reply.code(status).send(result.value);
    const { code, message, issues } = result.error;
    return reply
      .code(context.statusOf(code))
      .send({ error: { code, message, ...(issues === undefined ? {} : { issues }) } });
  }
  function refuse(reply: FastifyReply, code: string, message: string): FastifyReply {
    return reply.code(context.statusOf(code)).send({ error: { code, message } });
  }

  /** The table and who may do what at it; undefined when answered already. */
  async function tableOf(
    request: FastifyRequest,
    reply: FastifyReply,
    writing: boolean,
  ): Promise<{ table: TableRecord; reader: Reader } | undefined> {
    const access = await context.accessOf(request);
    if (access.kind === 'none') {
      refuse(reply, access.code, access.message);
      return undefined;
    }
    const params = tableParams.safeParse(request.params);
    const table = params.success ? await store.getTable(params.data.table) : undefined;
    // A link of another table learns nothing of this one, not even that it exists.
    if (table === undefined || (access.kind === 'link' && access.grant.tableId !== table.id)) {
      refuse(reply, 'table/not-found', 'no such table');
      return undefined;
    }
    const gm = access.kind === 'owner' || access.grant.role === 'gm';
    if (writing && !gm) {
      refuse(reply, 'role/gm-only', "only the GM changes the table's library");
      return undefined;
    }
    return { table, reader: gm ? 'gm' : 'player' };
  }

  function entryOf(request: FastifyRequest): { kind: string; id: string } | undefined {
    const params = entryParams.safeParse(request.params);
    if (!params.success) return undefined;
    const data = params.data;
    return { kind: 'kind' in data ? data.kind : `${data.system}/${data.name}`, id: data.id };
  }

  app.get('/api/tables/:table/content', async (request, reply) => {
    const found = await tableOf(request, reply, false);
    if (found === undefined) return reply;
    return answer(reply, await listLibrary(store, found.table, found.reader));
  });

  app.get('/api/tables/:table/content/export', async (request, reply) => {
    const found = await tableOf(request, reply, true);
    if (found === undefined) return reply;
    const query = exportQuery.safeParse(request.query);
    if (!query.success) return refuse(reply, 'http/bad-request', 'format is json or zip');
    const pack = await exportPack(store, found.table);
    if (!pack.ok || query.data.format === 'json') return answer(reply, pack);
    return reply
      .code(200)
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${pack.value.system}-library.zip"`)
      .send(Buffer.from(writeZip(pack.value.files)));
  });

  app.post(
    '/api/tables/:table/content/import',
    // A pack is larger than the API's other bodies; the route's own bound, checked unread.
    { bodyLimit: Math.ceil((MAX_PACK_BYTES * 4) / 3) + 64 * 1024 },
    async (request, reply) => {
      const found = await tableOf(request, reply, true);
      if (found === undefined) return reply;
      const body = importBody.safeParse(request.body);
      if (!body.success) {
        return refuse(
          reply,
          'content/invalid',
          'send { files: [{ name, text }] } or { archive: <a .zip in base64> }',
        );
      }
      let files = 'files' in body.data ? body.data.files : undefined;
      if ('archive' in body.data) {
        const unpacked = readZip(Buffer.from(body.data.archive, 'base64'));
        if (!unpacked.ok) return answer(reply, unpacked);
        files = unpacked.value;
      }
      return answer(reply, await importPack(store, found.table, files ?? [], limits));
    },
  );

  const entryPaths = [
    '/api/tables/:table/content/:system/:name/:id',
    '/api/tables/:table/content/:kind/:id',
  ];

  for (const path of entryPaths)
    app.get(path, async (request, reply) => {
      const found = await tableOf(request, reply, false);
      if (found === undefined) return reply;
      const entry = entryOf(request);
      if (entry === undefined) return refuse(reply, 'library/not-found', 'no such entry');
      return answer(reply, await readEntry(store, found.table, entry.kind, entry.id, found.reader));
    });

  for (const path of entryPaths)
    app.put(path, async (request, reply) => {
      const found = await tableOf(request, reply, true);
      if (found === undefined) return reply;
      const entry = entryOf(request);
      if (entry === undefined) return refuse(reply, 'library/not-found', 'no such entry');
      const body = putBody.safeParse(request.body);
      if (!body.success || body.data.body === undefined) {
        return refuse(reply, 'content/invalid', 'send { body, expectedVersion? }');
      }
      const { expectedVersion } = body.data;
      return answer(
        reply,
        await putEntry(
          store,
          found.table,
          entry.kind,
          entry.id,
          body.data.body,
          expectedVersion,
          limits,
        ),
      );
    });

  for (const path of entryPaths)
    app.delete(path, async (request, reply) => {
      const found = await tableOf(request, reply, true);
      if (found === undefined) return reply;
      const entry = entryOf(request);
      if (entry === undefined) return refuse(reply, 'library/not-found', 'no such entry');
      const query = deleteQuery.safeParse(request.query);
      const expected = query.success ? query.data.expectedVersion : undefined;
      return answer(reply, await deleteEntry(store, found.table, entry.kind, entry.id, expected));
    });
}
