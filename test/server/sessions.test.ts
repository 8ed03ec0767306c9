import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import type { ServerMessage } from '../../src/server/protocol.js';
import type { Store } from '../../src/store/index.js';
import {
  freshLocation,
  KINDS,
  type Location,
  open,
  stopFallbackPostgres,
} from '../store/fixtures.js';
import {
  Client,
  example,
  http,
  newTable,
  type Running,
  type ServeProcess,
  spawnServe,
  startEncounterOver,
  startServer,
} from './harness.js';

/**
 * Secrets out of addresses: a link `/t/<token>` is exchanged once for a session cookie and the
 * browser sent on to `/table/<id>`; the cookie works the API and the live socket, from any
 * number of devices, until the link is revoked. Real servers, real sockets, real databases.
 */

type Refused = Extract<ServerMessage, { type: 'refused' }>;

interface Exchanged {
  readonly status: number;
  readonly location: string | null;
  readonly setCookie: string | null;
  /** `name=value`, as a browser sends it back. */
  readonly cookie: string;
}

/** Opens a link as a browser would, without following the redirect. */
async function exchange(url: string, token: string, cookie?: string): Promise<Exchanged> {
  const response = await fetch(`${url}/t/${token}`, {
    redirect: 'manual',
    headers: cookie === undefined ? {} : { cookie },
  });
  await response.text();
  const setCookie = response.headers.get('set-cookie');
  return {
    status: response.status,
    location: response.headers.get('location'),
    setCookie,
    cookie: setCookie?.split(';')[0] ?? '',
  };
}

/** A call the web page makes: its session's cookie, and the table it means in a header. */
async function call<T = Record<string, unknown>>(
  url: string,
  path: string,
  options: {
    cookie?: string;
    table?: string;
    method?: string;
    body?: unknown;
    headers?: Record<string, string>;
  },
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${url}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      ...(options.table === undefined ? {} : { 'x-moogle-table': options.table }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
}

function liveAddress(url: string, encounterId: string, query: string): string {
  return `${url.replace(/^http/, 'ws')}/api/encounters/${encodeURIComponent(encounterId)}/live?${query}`;
}

/** A socket opened as the page opens it: the session's cookie, the page's own origin. */
async function joinWithCookie(
  url: string,
  encounterId: string,
  tableId: string,
  cookie: string,
  origin = url,
): Promise<Client> {
  const client = await Client.open(
    liveAddress(url, encounterId, `table=${encodeURIComponent(tableId)}`),
    { cookie, origin },
  );
  client.send({ type: 'hello', since: 0 });
  return client;
}

async function ticketOf(url: string, tableId: string, cookie: string): Promise<string> {
  const made = await call<{ ticket: string }>(url, '/api/session/ticket', {
    cookie,
    table: tableId,
    method: 'POST',
  });
  expect(made.status).toBe(201);
  return made.body.ticket;
}

function closed(client: Client): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    if (client.closed !== undefined) {
      resolve(client.closed);
      return;
    }
    const timer = setTimeout(() => reject(new Error('the socket is still open after 5 s')), 5000);
    client.socket.once('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: String(reason) });
    });
  });
}

describe.each(KINDS)('sessions on %s', (kind) => {
  let running: Running;

  beforeAll(async () => {
    // Tickets live long enough here that a loaded machine never lets one lapse between its
    // making and its socket; their lapsing is tested on a server of its own.
    running = await startServer(kind, undefined, { limits: { sessionsPerLink: 3 } });
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    await running?.location.dispose();
    if (kind === 'postgres') await stopFallbackPostgres();
  });

  it('opening a link sets a session and sends the browser on to an address without the secret', async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg', ['hiro']);
    const secret = gmToken.split('.')[1]!;
    const opened = await exchange(running.url, gmToken);
    expect(opened.status).toBe(303);
    expect(opened.location).toBe(`/table/${encodeURIComponent(table.id)}`);
    expect(opened.location).not.toContain(secret);
    const attributes = opened.setCookie!.split('; ').slice(1);
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Strict', 'Max-Age=2592000']),
    );
    // Plain HTTP here: a Secure cookie would never come back.
    expect(attributes).not.toContain('Secure');
    expect(opened.cookie).toMatch(/^moogle-[0-9a-f]{24}=moogle-session\.[A-Za-z0-9_-]{43}$/);
    expect(opened.cookie).not.toContain(secret);

    // The page's calls: the cookie and the table's header.
    const state = await call<{ role: { role: string } }>(running.url, '/api/table', {
      cookie: opened.cookie,
      table: table.id,
    });
    expect(state).toMatchObject({ status: 200, body: { role: { role: 'gm' } } });
    // A GET may name its table in the query (an EventSource sends no headers).
    const byQuery = await call(running.url, `/api/table?table=${encodeURIComponent(table.id)}`, {
      cookie: opened.cookie,
    });
    expect(byQuery.status).toBe(200);
    // A cookie alone names no table: nothing is authenticated.
    const unnamed = await call(running.url, '/api/table', { cookie: opened.cookie });
    expect(unnamed).toMatchObject({ status: 401, body: { error: { code: 'auth/missing' } } });
    // A request that changes something names its table in the header, which no form can send.
    const formLike = await call(
      running.url,
      `/api/table/roster?table=${encodeURIComponent(table.id)}`,
      { cookie: opened.cookie, method: 'POST', body: { character: 'hiro' } },
    );
    expect(formLike).toMatchObject({ status: 401, body: { error: { code: 'auth/missing' } } });
    const invited = await call<{ link: string }>(running.url, '/api/table/invites', {
      cookie: opened.cookie,
      table: table.id,
      method: 'POST',
      body: { role: 'spectator' },
    });
    expect(invited.status).toBe(201);
    // Another site's page sending the cookie is not this server's page: refused.
    const foreign = await call(running.url, '/api/table', {
      cookie: opened.cookie,
      table: table.id,
      headers: { origin: 'http://elsewhere.example' },
    });
    expect(foreign.status).toBe(401);
    // Bots and the CLI go on with the token itself.
    expect((await http(`${running.url}/api/table`, gmToken, 'GET')).status).toBe(200);
  });

  it('a link that is no link opens no session', async () => {
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const forged = `${gmToken.split('.')[0]}.${'A'.repeat(43)}`;
    const refused = await exchange(running.url, forged);
    expect(refused.status).toBe(401);
    expect(refused.setCookie).toBeNull();
    expect(refused.location).toBeNull();
  });

  it('works on a second device with the same link, and a later link of the table replaces the earlier one in one browser', async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg', ['hiro']);
    const player = await running.store.createToken(table.id, {
      role: 'player',
      characterId: 'hiro',
    });
    if (!player.ok) throw new Error(player.error.message);
    const laptop = await exchange(running.url, gmToken);
    const phone = await exchange(running.url, gmToken);
    expect(phone.cookie).not.toBe(laptop.cookie);
    for (const device of [laptop, phone]) {
      const seen = await call(running.url, '/api/table', {
        cookie: device.cookie,
        table: table.id,
      });
      expect(seen.status).toBe(200);
    }
    // The laptop opens the player's link: one cookie a table, so it is the player's now.
    const later = await exchange(running.url, player.value.token, laptop.cookie);
    expect(later.cookie.split('=')[0]).toBe(laptop.cookie.split('=')[0]);
    const now = await call<{ role: unknown }>(running.url, '/api/table', {
      cookie: later.cookie,
      table: table.id,
    });
    expect(now.body.role).toEqual({ role: 'player', characterId: 'hiro' });
    // The GM session it replaced has ended; the phone's has not.
    const replaced = await call(running.url, '/api/table', {
      cookie: laptop.cookie,
      table: table.id,
    });
    expect(replaced.status).toBe(401);
    const other = await call(running.url, '/api/table', { cookie: phone.cookie, table: table.id });
    expect(other.status).toBe(200);
    // Signing out ends it and clears the cookie.
    const out = await call(running.url, '/api/session', {
      cookie: phone.cookie,
      table: table.id,
      method: 'DELETE',
    });
    expect(out).toMatchObject({ status: 200, body: { ended: true } });
    const gone = await call(running.url, '/api/table', { cookie: phone.cookie, table: table.id });
    expect(gone.status).toBe(401);
  });

  it('a link keeps its newest sessions only: one more ends its oldest', async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg');
    const devices: Exchanged[] = [];
    for (let i = 0; i < 4; i++) {
      devices.push(await exchange(running.url, gmToken));
      // Sessions are ordered by when they were made, to the millisecond: one apart at least.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const statuses = await Promise.all(
      devices.map(
        async (d) =>
          (await call(running.url, '/api/table', { cookie: d.cookie, table: table.id })).status,
      ),
    );
    expect(statuses).toEqual([401, 200, 200, 200]);
  });

  it("a chat's link preview makes no session, so a chat full of them signs no phone out", async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg');
    const phone = await exchange(running.url, gmToken);
    expect(phone.status).toBe(303);
    const previewers = [
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'WhatsApp/2.23.20.0',
      'TelegramBot (like TwitterBot)',
      'Mozilla/5.0 (Macintosh) AppleWebKit/601.2.4 (KHTML, like Gecko) facebookexternalhit/1.1 Facebot Twitterbot/1.0',
    ];
    // More previews than the link keeps sessions (3 here), each of a different chat.
    for (const agent of [...previewers, ...previewers]) {
      const preview = await fetch(`${running.url}/t/${gmToken}`, {
        redirect: 'manual',
        headers: { 'user-agent': agent },
      });
      expect(preview.status, agent).toBe(200);
      expect(preview.headers.get('set-cookie'), agent).toBeNull();
      const page = await preview.text();
      expect(page).toContain('Open this link on your own device');
      expect(page).not.toContain(table.id);
    }
    const head = await fetch(`${running.url}/t/${gmToken}`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(200);
    expect(head.headers.get('set-cookie')).toBeNull();
    // The phone's session is still the link's.
    const still = await call(running.url, '/api/table', { cookie: phone.cookie, table: table.id });
    expect(still.status).toBe(200);
  });

  it('revoking the link ends its sessions at once: the API refuses them and their sockets close with 4001', async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg', ['hiro']);
    const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'), 's');
    const player = await running.store.createToken(table.id, {
      role: 'player',
      characterId: 'hiro',
    });
    if (!player.ok) throw new Error(player.error.message);
    const phone = await exchange(running.url, player.value.token);
    const tablet = await exchange(running.url, player.value.token);
    const socket = await joinWithCookie(running.url, id, table.id, phone.cookie);
    expect(await socket.next('welcome')).toMatchObject({
      role: { role: 'player', characterId: 'hiro' },
    });
    await socket.next('state');
    const byTicket = await Client.open(
      liveAddress(
        running.url,
        id,
        `ticket=${await ticketOf(running.url, table.id, tablet.cookie)}`,
      ),
    );
    byTicket.send({ type: 'hello', since: 0 });
    await byTicket.next('state');

    const closes = [closed(socket), closed(byTicket)];
    const revoked = await http(
      `${running.url}/api/table/invites/${player.value.info.tokenId}`,
      gmToken,
      'DELETE',
    );
    expect(revoked.status).toBe(200);
    for (const close of await Promise.all(closes)) {
      expect(close).toEqual({ code: 4001, reason: 'revoked' });
    }
    for (const device of [phone, tablet]) {
      const refused = await call(running.url, '/api/table', {
        cookie: device.cookie,
        table: table.id,
      });
      expect(refused).toMatchObject({ status: 401, body: { error: { code: 'auth/invalid' } } });
      const ticket = await call(running.url, '/api/session/ticket', {
        cookie: device.cookie,
        table: table.id,
        method: 'POST',
      });
      expect(ticket.status).toBe(401);
    }
    const again = await joinWithCookie(running.url, id, table.id, phone.cookie);
    expect(await again.next('refused')).toMatchObject({ code: 'auth/invalid' });
    expect((await exchange(running.url, player.value.token)).status).toBe(401);
  });

  it('a ticket opens one socket, once, and none after its time', async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg');
    const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'), 't');
    const { cookie } = await exchange(running.url, gmToken);
    const ticket = await ticketOf(running.url, table.id, cookie);
    expect(ticket).toMatch(/^moogle-ticket\.[A-Za-z0-9_-]{43}$/);
    const first = await Client.open(liveAddress(running.url, id, `ticket=${ticket}`));
    expect(await first.next('welcome')).toMatchObject({ role: { role: 'gm' } });
    const second = await Client.open(liveAddress(running.url, id, `ticket=${ticket}`));
    expect(await second.next('refused')).toMatchObject({ code: 'auth/invalid' });
    first.close();

    // A second server over the same store makes tickets that live 1 ms: one it makes is
    // refused here, past its time, however fast or slow the machine.
    const hasty = await buildServer({
      store: running.store,
      logger: false,
      limits: { ticketMs: 1 },
    });
    try {
      const hastyUrl = await hasty.app.listen({ port: 0, host: '127.0.0.1' });
      const late = await ticketOf(hastyUrl, table.id, cookie);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const expired = await Client.open(liveAddress(running.url, id, `ticket=${late}`));
      expect(await expired.next('refused')).toMatchObject({ code: 'auth/invalid' });
    } finally {
      await hasty.shutdown();
    }

    // A token makes no ticket: it opens a socket itself.
    const byToken = await http(`${running.url}/api/session/ticket`, gmToken, 'POST', {});
    expect(byToken).toMatchObject({ status: 400, body: { error: { code: 'session/none' } } });
    // Another site's page cannot open the socket with the cookie the browser would send.
    const foreign = await joinWithCookie(
      running.url,
      id,
      table.id,
      cookie,
      'http://elsewhere.example',
    );
    const refusal = await foreign.until((m): m is Refused => m.type === 'refused');
    expect(refusal.code).toBe('auth/missing');
  });
});

describe('the session cookie over HTTPS', () => {
  it('is Secure when the proxy the server trusts says the request came over HTTPS, and only then', async () => {
    for (const trustProxy of [true, undefined]) {
      const running = await startServer('sqlite', undefined, trustProxy ? { trustProxy } : {});
      try {
        const { gmToken } = await newTable(running.store, 'ffrpg');
        const response = await fetch(`${running.url}/t/${gmToken}`, {
          redirect: 'manual',
          headers: { 'x-forwarded-proto': 'https' },
        });
        const attributes = response.headers.get('set-cookie')!.split('; ');
        expect(attributes.includes('Secure')).toBe(trustProxy === true);
      } finally {
        await running.stop();
        await running.location.dispose();
      }
    }
  });
});

describe('a session outlives its server', () => {
  it('on SQLite: made before a restart, it works after', async () => {
    const location = await freshLocation('sqlite');
    const first = await startServer('sqlite', location);
    const { table, gmToken } = await newTable(first.store, 'ffrpg');
    const { cookie } = await exchange(first.url, gmToken);
    await first.stop();
    const second = await startServer('sqlite', location);
    try {
      const seen = await call(second.url, '/api/table', { cookie, table: table.id });
      expect(seen.status).toBe(200);
    } finally {
      await second.stop();
      await location.dispose();
    }
  });
});

describe('sessions across two server processes on one PostgreSQL', () => {
  let location: Location;
  let store: Store;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    location = await freshLocation('postgres');
    store = await open(location.location);
    [a, b] = await Promise.all([spawnServe(location.location), spawnServe(location.location)]);
  }, 60_000);

  afterAll(async () => {
    for (const p of [a, b]) p?.child.kill('SIGTERM');
    await store?.close();
    await location?.dispose();
    await stopFallbackPostgres();
  });

  it('a session made on one works on the other, a ticket is taken once between them, and a revocation on one ends it on both', async () => {
    const { table, gmToken } = await newTable(store, 'ffrpg', ['hiro']);
    const id = await startEncounterOver(a.url, gmToken, example('ffrpg-wind-cave'), 'two');
    const player = await store.createToken(table.id, { role: 'player', characterId: 'hiro' });
    if (!player.ok) throw new Error(player.error.message);
    const { cookie } = await exchange(a.url, player.value.token);
    const onB = await call(b.url, '/api/table', { cookie, table: table.id });
    expect(onB).toMatchObject({ status: 200, body: { role: { role: 'player' } } });

    const ticket = await ticketOf(a.url, table.id, cookie);
    const taken = await Client.open(liveAddress(b.url, id, `ticket=${ticket}`));
    expect(await taken.next('welcome')).toMatchObject({ role: { role: 'player' } });
    const reused = await Client.open(liveAddress(a.url, id, `ticket=${ticket}`));
    expect(await reused.next('refused')).toMatchObject({ code: 'auth/invalid' });

    const socket = await joinWithCookie(b.url, id, table.id, cookie);
    await socket.next('state');
    const closes = [closed(taken), closed(socket)];
    const revoked = await http(
      `${a.url}/api/table/invites/${player.value.info.tokenId}`,
      gmToken,
      'DELETE',
    );
    expect(revoked.status).toBe(200);
    for (const close of await Promise.all(closes)) expect(close.code).toBe(4001);
    for (const url of [a.url, b.url]) {
      expect((await call(url, '/api/table', { cookie, table: table.id })).status).toBe(401);
    }
  });
});
