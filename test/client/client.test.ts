import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  type ClientEvents,
  type ClientOptions,
  DEFAULT_BACKOFF,
  EncounterClient,
  type SubmitAnswer,
  type WebSocketConstructor,
} from '../../src/client/index.js';
import { connect } from '../../src/client/node.js';
import type { StatePayload } from '../../src/server/protocol.js';
import type { TokenRole } from '../../src/store/index.js';
import {
  Client,
  example,
  newTable,
  ROOT,
  type Running,
  startEncounterOver,
  startServer,
} from '../server/harness.js';

/**
 * `moogle/client` against a real server over real sockets: what it holds must be what a fresh
 * hello is sent, whatever the network did on the way (entries twice, entries lost, the socket
 * dropped), and its submits apply once.
 */

let running: Running;
beforeAll(async () => {
  running = await startServer('sqlite', undefined, { presenceGraceMs: 200 });
});
afterAll(async () => {
  await running?.stop();
  await running?.location.dispose();
});

async function fight(seed: string) {
  const { table, gmToken } = await newTable(running.store, 'ffrpg');
  const encounter = await startEncounterOver(
    running.url,
    gmToken,
    example('ffrpg-wind-cave'),
    seed,
  );
  const token = async (role: TokenRole): Promise<string> => {
    const made = await running.store.createToken(table.id, role);
    if (!made.ok) throw new Error(made.error.message);
    return made.value.token;
  };
  return { encounter, gmToken, token };
}

/**
 * What a fresh socket of the link is sent whole, without the message's type or who is connected
 * (the fresh socket is among them; the presence test follows that list).
 */
async function fresh(encounter: string, token: string): Promise<Omit<StatePayload, 'connected'>> {
  const { client, state } = await Client.join(running.url, encounter, token);
  client.close();
  const { type: _, connected: _c, ...whole } = state;
  return whole;
}

/** The state a client holds, but for who is connected. */
function held(client: EncounterClient): Omit<StatePayload, 'connected'> | undefined {
  if (client.state === null) return undefined;
  const { connected: _, ...rest } = client.state;
  return rest;
}

/** Plays `n` entries from the harness's GM socket: the first action offered each time. */
async function play(encounter: string, gmToken: string, n: number): Promise<number> {
  const { client, state } = await Client.join(running.url, encounter, gmToken);
  let held: StatePayload = state;
  for (let i = 0; i < n; i++) {
    const answer = await client.submit(held.seq + 1, `${encounter}-${held.seq}`, {
      kind: 'command',
      command: held.actions[0]!.command,
    });
    if (answer.type !== 'accepted') throw new Error(JSON.stringify(answer));
    held = await client.until(
      (m): m is Extract<typeof m, { type: 'entry' }> => m.type === 'entry' && m.seq === answer.seq,
    );
  }
  client.close();
  return held.seq;
}

/**
 * A real `ws` socket whose incoming messages pass through `tamper` first: the network as a
 * test wants it (an entry twice, an entry lost).
 */
function tampered(tamper: (data: string, deliver: (data: string) => void) => void) {
  return class extends WebSocket {
    constructor(url: string) {
      super(url);
      let handler: ((event: { data: unknown }) => void) | null = null;
      Object.defineProperty(this, 'onmessage', {
        get: () => handler,
        set: (h: typeof handler) => {
          handler = h;
        },
      });
      this.on('message', (data) => tamper(String(data), (text) => handler?.({ data: text })));
    }
  } as unknown as WebSocketConstructor;
}

function events<K extends keyof ClientEvents>(client: EncounterClient, name: K): ClientEvents[K][] {
  const heard: ClientEvents[K][] = [];
  client.on(name, (e) => heard.push(e));
  return heard;
}

function client(options: ClientOptions): EncounterClient {
  return new EncounterClient({
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    ...options,
  }).start();
}

describe('moogle/client', () => {
  it('connects with a link, says hello and holds the state a fresh hello is sent', async () => {
    const { encounter, gmToken } = await fight('connect');
    await play(encounter, gmToken, 3);
    const gm = connect({ server: running.url, encounter, token: gmToken });
    try {
      const state = await gm.ready();
      expect(gm.snapshot.role).toEqual({ role: 'gm' });
      expect(gm.snapshot.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(state.seq).toBe(3);
      // Entries pushed while it listens arrive as patches; its state stays the server's.
      const heard = events(gm, 'entry');
      await play(encounter, gmToken, 4);
      await gm.until((s) => s.state?.seq === 7);
      expect(heard.map((e) => e.seq)).toEqual([4, 5, 6, 7]);
      expect(held(gm)).toEqual(await fresh(encounter, gmToken));
    } finally {
      gm.close();
    }
  });

  it('ignores an entry it was sent twice', async () => {
    const { encounter, gmToken } = await fight('twice');
    const gm = client({
      server: running.url,
      encounter,
      token: gmToken,
      WebSocket: tampered((data, deliver) => {
        deliver(data);
        if (data.startsWith('{"type":"entry"')) deliver(data);
      }),
    });
    try {
      await gm.ready();
      const heard = events(gm, 'entry');
      await play(encounter, gmToken, 5);
      await gm.until((s) => s.state?.seq === 5);
      expect(heard.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(gm.snapshot.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(held(gm)).toEqual(await fresh(encounter, gmToken));
    } finally {
      gm.close();
    }
  });

  it('fills a gap: an entry lost on the way, and entries missed while the socket was down', async () => {
    const { encounter, gmToken } = await fight('gap');
    let lose = 2;
    const sent: string[] = [];
    let open: () => void = () => {};
    let gate: Promise<void> = Promise.resolve();
    const gm = client({
      url: async () => {
        await gate;
        return `${running.url.replace(/^http/, 'ws')}/api/encounters/${encounter}/live?token=${encodeURIComponent(gmToken)}`;
      },
      backoff: () => 0,
      WebSocket: tampered((data, deliver) => {
        // The second entry pushed never arrives.
        if (data.startsWith('{"type":"entry"') && --lose === 0) return;
        deliver(data);
      }),
    });
    gm.on('message', (m) => sent.push(m.type));
    try {
      await gm.ready();
      await play(encounter, gmToken, 4);
      await gm.until((s) => s.state?.seq === 4);
      expect(gm.snapshot.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(held(gm)).toEqual(await fresh(encounter, gmToken));
      // The gap was asked for again (a hello), answered with the entries and the whole state.
      expect(sent.filter((t) => t === 'state')).toHaveLength(2);

      // Dropped, and held off until three more entries are in: it asks from the last it holds.
      gate = new Promise((resolve) => {
        open = resolve;
      });
      gm.drop();
      await gm.until((s) => s.connection === 'connecting');
      await play(encounter, gmToken, 3);
      open();
      await gm.until((s) => s.state?.seq === 7 && s.connection === 'open');
      expect(gm.snapshot.reconnects).toBe(1);
      expect(gm.snapshot.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(held(gm)).toEqual(await fresh(encounter, gmToken));
    } finally {
      gm.close();
    }
  });

  it('reconnects with growing pauses until the server answers', async () => {
    const { encounter, gmToken } = await fight('backoff');
    let refusals = 3;
    const gm = client({
      url: () => {
        if (refusals-- > 0) throw new Error('no ticket yet');
        return `${running.url.replace(/^http/, 'ws')}/api/encounters/${encounter}/live?token=${encodeURIComponent(gmToken)}`;
      },
      backoff: (attempt) => DEFAULT_BACKOFF(attempt) / 50,
    });
    const retries = events(gm, 'retry');
    try {
      await gm.ready();
      expect(retries).toEqual([
        { attempt: 0, pauseMs: 5 },
        { attempt: 1, pauseMs: 10 },
        { attempt: 2, pauseMs: 20 },
      ]);
      expect(DEFAULT_BACKOFF(10)).toBe(5000);
      // Once open, the pauses start again from the first.
      gm.drop();
      await gm.until((s) => s.reconnects === 1 && s.connection === 'open');
      expect(retries.slice(3)).toEqual([{ attempt: 0, pauseMs: 5 }]);
    } finally {
      gm.close();
    }
  });

  it('stops for good when its ticket is refused as revoked, and answers what waits', async () => {
    const { encounter } = await fight('revoked-ticket');
    let asked = 0;
    const gm = client({
      server: running.url,
      encounter,
      ticket: () => {
        asked++;
        throw Object.assign(new Error('this link was revoked'), { code: 'auth/revoked' });
      },
      backoff: () => 5,
    });
    const retries = events(gm, 'retry');
    try {
      await expect(gm.ready()).rejects.toThrow('this link was revoked');
      expect(gm.snapshot.fatal).toBe('this link was revoked');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(asked).toBe(1);
      expect(retries).toEqual([]);
      expect(await gm.submit({ kind: 'undo', steps: 1 })).toMatchObject({
        ok: false,
        code: 'client/closed',
      });
    } finally {
      gm.close();
    }
  });

  it('applies a submit once when its key is sent twice, and refuses a stale number', async () => {
    const { encounter, gmToken } = await fight('keys');
    const gm = connect({ server: running.url, encounter, token: gmToken });
    try {
      const state = await gm.ready();
      const command = state.actions[0]!.command;
      const first = gm.submit({ kind: 'command', command }, { key: 'the-same' });
      const again = gm.submit({ kind: 'command', command }, { key: 'the-same', expect: 1 });
      const answers: SubmitAnswer[] = await Promise.all([first, again]);
      expect(answers).toEqual([
        { ok: true, seq: 1, duplicate: false },
        { ok: true, seq: 1, duplicate: true },
      ]);
      expect(gm.snapshot.entries.map((e) => e.seq)).toEqual([1]);
      expect(gm.state?.seq).toBe(1);
      // A submit decided on entry 0's state, after entry 1: refused, with where the log is.
      const stale = await gm.submit({ kind: 'command', command }, { expect: 1 });
      expect(stale).toMatchObject({ ok: false, code: 'submit/stale', current: 1 });
      expect(gm.snapshot.refusal).toMatchObject({ code: 'submit/stale' });
      const next = await gm.submit({ kind: 'command', command: gm.state!.actions[0]!.command });
      expect(next).toEqual({ ok: true, seq: 2, duplicate: false });
      expect(held(gm)).toEqual(await fresh(encounter, gmToken));
    } finally {
      gm.close();
    }
  });

  it('sends a submit again after a drop, with its key: applied once', async () => {
    const { encounter, gmToken } = await fight('resend');
    // Every answer to a submit is lost once: the client hears of it only by sending it again.
    let lost = 0;
    const gm = client({
      server: running.url,
      encounter,
      token: gmToken,
      backoff: () => 0,
      WebSocket: tampered((data, deliver) => {
        if (data.startsWith('{"type":"accepted"') && lost++ === 0) {
          gm.drop();
          return;
        }
        deliver(data);
      }),
    });
    try {
      const state = await gm.ready();
      const answer = await gm.submit({ kind: 'command', command: state.actions[0]!.command });
      expect(answer).toEqual({ ok: true, seq: 1, duplicate: true });
      expect(gm.snapshot.entries.map((e) => e.seq)).toEqual([1]);
      expect((await fresh(encounter, gmToken)).seq).toBe(1);
    } finally {
      gm.close();
    }
  });

  it('tells who comes and goes', async () => {
    const { encounter, gmToken, token } = await fight('presence');
    const gm = connect({ server: running.url, encounter, token: gmToken });
    try {
      await gm.ready();
      expect(gm.connected.map((c) => c.role)).toEqual(['gm']);
      const heard = events(gm, 'presence');
      const hiro = connect({
        server: running.url,
        encounter,
        token: await token({ role: 'player', characterId: 'hiro' }),
      });
      await hiro.ready();
      await gm.until((s) => s.state!.connected.length === 2);
      expect(gm.connected[1]).toMatchObject({ role: 'player', character: 'hiro', sockets: 1 });
      expect(hiro.connected.map((c) => c.role)).toEqual(['gm', 'player']);
      expect(hiro.connected.some((c) => 'link' in c)).toBe(false);
      hiro.close();
      await gm.until((s) => s.state!.connected.length === 1);
      expect(heard.map((p) => [p.type, p.who])).toEqual([
        ['joined', { role: 'player', character: 'hiro' }],
        ['reconnecting', { role: 'player', character: 'hiro' }],
        ['left', { role: 'player', character: 'hiro' }],
      ]);
    } finally {
      gm.close();
    }
  });

  it('runs the bot of docs/server.md to the end of a fight', async () => {
    const bot = readFileSync(`${ROOT}examples/bot.ts`, 'utf8');
    // The docs show the bot as it is in examples/.
    expect(readFileSync(`${ROOT}docs/server.md`, 'utf8')).toContain(bot.trim());
    expect(bot.trim().split('\n').length).toBeLessThanOrEqual(25);
    const { encounter, gmToken } = await fight('bot');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', `${ROOT}examples/bot.ts`, running.url, encounter, gmToken],
      { cwd: ROOT, timeout: 120_000 },
    );
    expect(stdout).toMatch(/^#1 /);
    expect(stdout).toMatch(/over: .+/);
    const state = await fresh(encounter, gmToken);
    expect(state.outcome.over).toBe(true);
    expect(stdout.split('\n').filter((l) => l.startsWith('#'))).toHaveLength(state.seq);
  }, 150_000);
});
