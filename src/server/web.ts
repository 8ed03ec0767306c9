import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The web tracker's pages (web/, built by `npm run build` into dist-web/): the same folder
 * from the sources (src/server) and from the package (dist/server), so `npx moogle serve`
 * works offline. A table link `/t/<token>` is exchanged for a session (session/routes.ts) and
 * the browser sent on to `/table/<table id>`, which opens the app: the page is the same for
 * every table and everyone, and the app's calls carry the session's cookie.
 */
export const WEB_ROOT = fileURLToPath(new URL('../../dist-web/', import.meta.url));

/**
 * No referrer leaves the page (its address names the table), and the page talks to this
 * server alone.
 */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
} as const;

/** A table's pages: `/table/<table id>`, the id as long as a table id may be. */
const PAGE_ROUTE = '/table/*';

export async function registerWeb(app: FastifyInstance, root: string = WEB_ROOT): Promise<void> {
  const index = join(root, 'index.html');
  if (!existsSync(index)) {
    app.get(PAGE_ROUTE, async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          'This is a Moogle table, but the web pages are not built here: run `npm run build`.\n',
        ),
    );
    return;
  }
  const page = readFileSync(index, 'utf8');
  await app.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: '/assets/',
    // Built file names carry their content's hash: a browser may keep them for good.
    immutable: true,
    maxAge: '365d',
    index: false,
    wildcard: true,
  });
  app.get(PAGE_ROUTE, async (_request, reply) =>
    reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(page),
  );
}
