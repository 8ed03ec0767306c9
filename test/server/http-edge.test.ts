import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../src/cli/serve.js';
import type { ServerOptions } from '../../src/server/app.js';
import { SERVER_LIMITS } from '../../src/server/limits.js';
import { freshLocation, stopFallbackPostgres } from '../store/fixtures.js';
import {
  example,
  http,
  newTable,
  type Running,
  spawnServe,
  startEncounterOver,
  startServer,
} from './harness.js';

afterAll(stopFallbackPostgres);

type Answer = { status: number; body: { error?: { code: string; message: string } } };

async function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) };
}

/**
 * A bare HTTP/1.1 connection, to send a request's head and body apart and read each response as
 * it comes (fetch sends a body whole and hides whether the connection went on).
 */
interface RawConnection {
  write(text: string): void;
  /** Resolves once the text is handed to the kernel (waits on backpressure). */
  writeAll(text: string): Promise<void>;
  /** The next response: its head and its body (by content-length). */
  response(): Promise<{ head: string; body: string }>;
  readonly ended: Promise<void>;
  destroy(): void;
}

async function connectTo(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffered = '';
  let wake: (() => void) | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    wake?.();
  });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const more = () =>
    new Promise<void>((resolve, reject) => {
      const late = setTimeout(
        () => reject(new Error(`no whole response within 5 s: ${buffered}`)),
        5000,
      );
      wake = () => {
        clearTimeout(late);
        resolve();
      };
    });
  return {
    write: (text) => socket.write(text, 'latin1'),
    writeAll: (text) =>
      new Promise((resolve, reject) =>
        socket.write(text, 'latin1', (error) => (error ? reject(error) : resolve())),
      ),
    async response() {
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end >= 0) {
          const head = buffered.slice(0, end);
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
          if (buffered.length >= end + 4 + length) {
            const body = buffered.slice(end + 4, end + 4 + length);
            buffered = buffered.slice(end + 4 + length);
            return { head, body };
          }
        }
        await more();
      }
    },
    ended,
    destroy: () => socket.destroy(),
  };
}

/** A token of the right shape that no store ever made. */
function forged(): string {
  return `${randomBytes(9).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
}

async function server(options: Omit<ServerOptions, 'store'> = {}): Promise<Running> {
  return startServer('sqlite', undefined, options);
}

const servers: Running[] = [];
afterAll(async () => {
  for (const s of servers) {
    await s.stop();
    await s.location.dispose();
  }
});

describe("Fastify's own refusals in the API's shape", () => {
  let running: Running;
  let gmToken: string;
  beforeAll(async () => {
    running = await server({ limits: { requestsPerMinute: 40 } });
    servers.push(running);
    gmToken = (await newTable(running.store, 'ffrpg')).gmToken;
  });
  const auth = () => ({ authorization: `Bearer ${gmToken}` });

  it('JSON that does not parse: 400 http/bad-json', async () => {
    const answer = await raw(`${running.url}/api/table/invites`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{"role": "spectator"',
    });
    expect(answer).toMatchObject({ status: 400, body: { error: { code: 'http/bad-json' } } });
    expect(typeof answer.body.error?.message).toBe('string');
  });

  it('a body that is not JSON: 415 http/unsupported-media-type', async () => {
    const answer = await raw(`${running.url}/api/table/invites`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'text/plain' },
      body: '{"role":"spectator"}',
    });
    expect(answer).toMatchObject({
      status: 415,
      body: { error: { code: 'http/unsupported-media-type' } },
    });
  });

  it('a body over 2 MiB: 413 http/body-too-large', async () => {
    const answer = await raw(`${running.url}/api/table/invites`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'spectator', x: 'x'.repeat(SERVER_LIMITS.httpBodyBytes) }),
    });
    expect(answer).toMatchObject({ status: 413, body: { error: { code: 'http/body-too-large' } } });
  });

  it('a body over 2 MiB is answered 413 before it is sent, and read to its end so the connection goes on', async () => {
    const socket = await connectTo(running.url);
    try {
      const length = SERVER_LIMITS.httpBodyBytes + 1024 * 1024;
      socket.write(
        `POST /api/table/invites HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${gmToken}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`,
      );
      // Answered on the headers alone: a client still sending can read why.
      const refused = await socket.response();
      expect(refused.head).toMatch(/^HTTP\/1\.1 413 /);
      expect(refused.head.toLowerCase()).not.toContain('connection: close');
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'http/body-too-large' } });
      // The rest of the body is read and dropped, and the same connection takes the next request.
      const chunk = 'x'.repeat(64 * 1024);
      for (let sent = 0; sent < length; sent += chunk.length) {
        await socket.writeAll(chunk.slice(0, Math.min(chunk.length, length - sent)));
      }
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      const next = await socket.response();
      expect(next.head).toMatch(/^HTTP\/1\.1 200 /);
      expect(JSON.parse(next.body)).toEqual({ status: 'ok' });
    } finally {
      socket.destroy();
    }
  });

  it('a body declared longer than the server reads to refuse it is answered 413 and the connection closed', async () => {
    const socket = await connectTo(running.url);
    try {
      socket.write(
        `POST /api/table/invites HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${gmToken}\r\ncontent-type: application/json\r\ncontent-length: ${SERVER_LIMITS.refusedBodyDrainBytes + 1}\r\n\r\n`,
      );
      const refused = await socket.response();
      expect(refused.head).toMatch(/^HTTP\/1\.1 413 /);
      expect(refused.head.toLowerCase()).toContain('connection: close');
      await socket.ended;
    } finally {
      socket.destroy();
    }
  });

  it('an unknown route: 404 http/not-found', async () => {
    for (const path of ['/nope', '/api/tables', '/t', '/assets/missing.js']) {
      const answer = await raw(`${running.url}${path}`);
      expect(answer, path).toMatchObject({
        status: 404,
        body: { error: { code: 'http/not-found' } },
      });
    }
  });

  it("the router's refusals: an over-long parameter (414), an escape that does not decode (400)", async () => {
    const long = await raw(`${running.url}/api/table/invites/${'x'.repeat(300)}`, {
      method: 'DELETE',
      headers: auth(),
    });
    expect(long).toMatchObject({ status: 414, body: { error: { code: 'http/url-too-long' } } });
    const bad = await raw(`${running.url}/api/encounters/%E0%A4%A/live`);
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'http/bad-url' } } });
  });

  it('a JSON content type with an empty body, where the route takes none, is taken', async () => {
    const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'));
    const empty = { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' } };
    // Reaching the route is the point: the fight is not over, so it may not finish.
    expect(await raw(`${running.url}/api/encounters/${id}/finish`, empty)).toMatchObject({
      status: 409,
      body: { error: { code: 'encounter/not-over' } },
    });
    expect(
      await raw(`${running.url}/api/encounters/${id}/abandon`, { ...empty, body: '' }),
    ).toMatchObject({ status: 200, body: { status: 'abandoned' } });
    // A route that takes a body says what is missing, in its own words.
    expect(await raw(`${running.url}/api/table/roster`, empty)).toMatchObject({
      status: 400,
      body: { error: { code: 'roster/invalid' } },
    });
  });

  it('over the rate: 429 http/rate-limited', async () => {
    let last: Answer | undefined;
    for (let i = 0; i < 41; i++) last = await raw(`${running.url}/api/table`, { headers: auth() });
    expect(last).toMatchObject({ status: 429, body: { error: { code: 'http/rate-limited' } } });
    expect(last?.body.error?.message).toMatch(/at most 40 requests a minute/);
  });
});

describe('rate limits by link, by address, and through a proxy', () => {
  it('forged tokens are throttled per address after the documented number; a real link is not', async () => {
    const running = await server();
    servers.push(running);
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const statuses: number[] = [];
    for (let batch = 0; batch < 16; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => http(`${running.url}/api/table`, forged(), 'GET')),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    const count = (status: number) => statuses.filter((s) => s === status).length;
    console.log(`800 forged tokens: ${count(401)} answered 401, ${count(429)} 429`);
    expect(count(401)).toBe(SERVER_LIMITS.failedAuthsPerMinute);
    expect(count(429)).toBe(800 - SERVER_LIMITS.failedAuthsPerMinute);
    // The GM's link, from the same address, has its own bucket.
    expect((await http(`${running.url}/api/table`, gmToken, 'GET')).status).toBe(200);
  });

  it('without trustProxy, X-Forwarded-For is ignored: everyone at the address shares a bucket', async () => {
    const running = await server({ limits: { requestsPerMinute: 5 } });
    servers.push(running);
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await raw(`${running.url}/api/table`, { headers: { 'x-forwarded-for': `10.0.0.${i}` } }))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('with trustProxy, each client behind the proxy has the bucket of its own address', async () => {
    const running = await server({ limits: { requestsPerMinute: 5 }, trustProxy: 1 });
    servers.push(running);
    const from = async (client: string) =>
      (await raw(`${running.url}/api/table`, { headers: { 'x-forwarded-for': client } })).status;
    const a = [];
    for (let i = 0; i < 6; i++) a.push(await from('203.0.113.7'));
    expect(a).toEqual([401, 401, 401, 401, 401, 429]);
    // Another client through the same proxy is not throttled by the first one.
    expect(await from('198.51.100.23')).toBe(401);
  });

  it('moogle serve --trust-proxy: the proxy names the client, whose bucket is its own', async () => {
    const location = await freshLocation('sqlite');
    const remaining = async (url: string, client: string) =>
      Number(
        (await fetch(`${url}/healthz`, { headers: { 'x-forwarded-for': client } })).headers.get(
          'x-ratelimit-remaining',
        ),
      );
    const trusting = await spawnServe(location.location, ['--no-demo', '--trust-proxy', '1']);
    try {
      const max = SERVER_LIMITS.requestsPerMinute;
      expect(await remaining(trusting.url, '203.0.113.7')).toBe(max - 1);
      expect(await remaining(trusting.url, '203.0.113.7')).toBe(max - 2);
      expect(await remaining(trusting.url, '198.51.100.23')).toBe(max - 1);
    } finally {
      trusting.child.kill('SIGTERM');
      await new Promise((resolve) => trusting.child.once('exit', resolve));
      await location.dispose();
    }
  });

  it('moogle serve --trust-proxy takes hops or addresses', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8')).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(parseTrustProxy('loopback')).toEqual(['loopback']);
    expect(() => parseTrustProxy('0')).toThrow(/--trust-proxy/);
    expect(() => parseTrustProxy('')).toThrow(/--trust-proxy/);
    expect(() => parseTrustProxy('a b')).toThrow(/--trust-proxy/);
    expect(() => parseTrustProxy('true')).toThrow(/--trust-proxy/);
    expect(() => parseTrustProxy('10.0.0.0/8/8')).toThrow(/--trust-proxy/);
    expect(parseTrustProxy('::1,fd00::/8,10.0.0.0/255.0.0.0')).toEqual([
      '::1',
      'fd00::/8',
      '10.0.0.0/255.0.0.0',
    ]);
  });
});

describe('a failure inside a route', () => {
  it("is 500 server/internal in the API's shape, logged with the token redacted", async () => {
    const lines: string[] = [];
    const running = await server({ logger: true, logStream: { write: (l) => lines.push(l) } });
    const { gmToken } = await newTable(running.store, 'ffrpg');
    // A store that is gone: every query throws, as a dead database's would.
    await running.store.close();
    try {
      const answer = await raw(`${running.url}/api/table?token=${gmToken}`);
      expect(answer).toMatchObject({ status: 500, body: { error: { code: 'server/internal' } } });
      const failed = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request failed');
      expect(failed).toMatchObject({ url: '/api/table?token=…' });
      expect(lines.join('')).not.toContain(gmToken.split('.')[1]!);
    } finally {
      await running.server.shutdown().catch(() => undefined);
      await running.location.dispose();
    }
  });
});

describe('no token in the logs', () => {
  it('neither a link with a trailing slash, nor a token in an unknown route, nor anything else', async () => {
    const lines: string[] = [];
    const running = await server({ logger: true, logStream: { write: (l) => lines.push(l) } });
    servers.push(running);
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const secret = gmToken.split('.')[1]!;
    const escaped = [...gmToken].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    for (const path of [
      `/t/${gmToken}`,
      `/t/${gmToken}/`,
      `/t/${gmToken}/x?y=1`,
      `/nope?token=${gmToken}`,
      `/nope?a=1&token=${gmToken}&b=2`,
      `/api/table?token=${gmToken}`,
      `/api/table/?token=${gmToken}`,
      `/%74/${gmToken}`,
      `/t/${escaped}`,
      `/x/${gmToken}`,
      `/api/encounters/nope/balance?token=${gmToken}`,
      `/api/encounters/nope/live?ticket=moogle-ticket.${secret}`,
      `/api/encounters/nope/live?ticket=${secret}`,
    ]) {
      await fetch(`${running.url}${path}`);
    }
    await fetch(`${running.url}/api/table/invites?token=${gmToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    // Redacting a line leaves it a JSON line.
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(log).toContain('/t/…');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(secret.slice(0, 20));
    expect(log).not.toContain(escaped);
  });
});
