import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { previewEntry } from '../../session/preview/entry-preview.js';
import { fileValueOf, tableLibrary } from './library.js';
import type { LibraryContext } from './routes.js';

const params = z.object({ table: z.string().min(1).max(200) });
const slug = z.string().min(1).max(200);
const previewBody = z.object({
  kind: slug.regex(/^[a-z0-9-]+\/(character|monster)$/, 'a character or monster kind'),
  id: slug,
  body: z.unknown(),
  /** The duel to play: an encounter file's value, as the web's builder writes one. */
  encounter: z.record(z.string(), z.unknown()),
});

/** A preview is a duel: the draft and one foe, so the turns played to reach it stay few. */
const PREVIEW_COMBATANTS = 2;

/**
 * What the rules make of a character or monster the GM is writing, before it is saved
 * (docs/server.md, "The content library"): `POST /api/tables/:table/content/preview` with the
 * draft's kind, id and body and a duel against a foe; the answer is its numbers in that
 * encounter and the odds of its first turn. Nothing is stored. The GM's only: a foe's numbers
 * are theirs.
 */
export function registerLibraryPreview(app: FastifyInstance, context: LibraryContext): void {
  const refuse = (
    reply: FastifyReply,
    code: string,
    message: string,
    issues?: readonly unknown[],
  ): FastifyReply =>
    reply
      .code(context.statusOf(code))
      .send({ error: { code, message, ...(issues === undefined ? {} : { issues }) } });

  app.post(
    '/api/tables/:table/content/preview',
    async (request: FastifyRequest, reply: FastifyReply) => {
      const access = await context.accessOf(request);
      if (access.kind === 'none') return refuse(reply, access.code, access.message);
      const p = params.safeParse(request.params);
      const table = p.success ? await context.store.getTable(p.data.table) : undefined;
      if (table === undefined || (access.kind === 'link' && access.grant.tableId !== table.id)) {
        return refuse(reply, 'table/not-found', 'no such table');
      }
      if (access.kind === 'link' && access.grant.role !== 'gm') {
        return refuse(reply, 'role/gm-only', 'only the GM previews content');
      }
      const body = previewBody.safeParse(request.body);
      if (!body.success) {
        return refuse(
          reply,
          'content/invalid',
          'send { kind: a character or monster kind, id, body, encounter }',
        );
      }
      const { kind, id, encounter } = body.data;
      const read = await tableLibrary(context.store, table);
      if (!read.ok) return refuse(reply, read.error.code, read.error.message);
      const { system, library } = read.value;
      if (!system.kinds.some((k) => k.kind === kind)) {
        return refuse(reply, 'content/invalid', `this table plays no ${kind}`);
      }
      const file = fileValueOf(kind, id, body.data.body);
      if (!file.ok) {
        return refuse(reply, 'content/invalid', file.issues[0]?.message ?? 'invalid', file.issues);
      }
      const where = `${kind}/${id}`;
      const preview = previewEntry(system, library, file.value, encounter, PREVIEW_COMBATANTS);
      if (!preview.ok) {
        return refuse(
          reply,
          preview.code,
          preview.message,
          preview.issues.map((i) => ({ file: where, ...i })),
        );
      }
      return preview.value;
    },
  );
}
