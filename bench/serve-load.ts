/**
 * The load generator of `npm run bench:serve`, a process of its own so its work never shares an
 * event loop with the server's. Reads its plan (JSON) from argv[2]: the servers' loopback URLs
 * (a table's six clients are dealt over them in turn, so with two processes its pushes cross
 * between them), the tables (an encounter, six tokens and their roles each: a GM and five
 * others), how long to stay idle and then to run, and how often each table submits. The GM of
 * each table submits about every `intervalMs` (jittered), alternating the first offered action
 * and taking it back, so the fight neither ends nor grows (or, with `load: 'play'`, playing the
 * first offered action on and on and taking the whole fight back when it ends); every client times the entry's arrival
 * and counts its bytes. With `echo`, the same shape against bench/serve-echo.ts: the GM's
 * message relayed to the table's sockets, its own copy standing for the acknowledgement.
 *
 * Writes one JSON line per phase on stdout (`connected`, `start`, `end`: the parent reads the
 * servers' CPU time at each), then one line of results.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { type Followed, follow, NOTHING_FOLLOWED } from '../src/client/follow.js';
import type { ServerMessage, StatePayload } from '../src/server/protocol.js';

interface Plan {
  readonly echo: boolean;
  readonly urls: readonly string[];
  readonly idleMs: number;
  readonly durationMs: number;
  readonly intervalMs: number;
  /** `alternate`: a command and its undo in turn; `play`: the fight played on, undone whole at its end. */
  readonly load?: 'alternate' | 'play';
  readonly tables: readonly {
    readonly encounter: string;
    readonly tokens: readonly string[];
    readonly roles: readonly string[];
  }[];
}

const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Plan;
for (const url of plan.urls) {
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) {
    throw new Error(`the load generator talks only to loopback, not ${url}`);
  }
}

/** Tables connecting at once. */
const CONNECTING = 10;

const ack: number[] = [];
const fanout: number[] = [];
/** The size in bytes of each pushed entry, by the role of the client that received it. */
const bytes: Record<string, number[]> = {};
let errors = 0;
let submitted = 0;
let measuring = false;
const sentAt = new Map<number, number>(); // by `tableIndex * 1e9 + seq`

const phase = (name: string): void => {
  process.stdout.write(`${JSON.stringify({ phase: name })}\n`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seat {
  socket: WebSocket;
  role: string;
  seq: number;
  /** The state the GM decides from, kept up by each entry's patch (src/client/follow.ts). */
  followed: Followed;
  state?: StatePayload;
}

function open(url: string, encounter: string, token: string, role: string): Promise<Seat> {
  const socket = new WebSocket(
    `${url.replace(/^http/, 'ws')}/api/encounters/${encounter}/live?token=${encodeURIComponent(token)}`,
  );
  const seat: Seat = { socket, role, seq: 0, followed: NOTHING_FOLLOWED };
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.send(JSON.stringify({ type: 'hello', since: 0 }));
    });
    socket.once('error', reject);
    const onFirst = (data: Buffer): void => {
      const m = JSON.parse(String(data)) as ServerMessage;
      seat.followed = follow(seat.followed, m).followed;
      if (m.type === 'state') {
        seat.seq = m.seq;
        seat.state = seat.followed.state ?? undefined;
        socket.off('message', onFirst);
        resolve(seat);
      }
    };
    socket.on('message', onFirst);
  });
}

function countBytes(role: string, size: number): void {
  if (!measuring) return;
  let list = bytes[role];
  if (list === undefined) {
    list = [];
    bytes[role] = list;
  }
  list.push(size);
}

/** Submits until the deadline, one at a time, waiting about an interval between them. */
async function submitLoop(
  deadline: number,
  send: () => { expect: number; answered: Promise<boolean> },
): Promise<void> {
  // Tables start spread over one interval, as real tables would.
  await sleep(Math.random() * plan.intervalMs);
  while (Date.now() < deadline) {
    const start = performance.now();
    const { answered } = send();
    submitted++;
    const ok = await Promise.race([answered, sleep(10_000).then(() => false)]);
    if (ok) ack.push(performance.now() - start);
    else errors++;
    await sleep(plan.intervalMs * (0.75 + Math.random() * 0.5));
  }
}

async function runMoogle(): Promise<{ close: () => void; runs: () => Promise<void>[] }> {
  // A few tables at a time: a thousand hellos at once would time the store's lookups out, and
  // a link whose lookup failed is counted against its address (and refused past its limit).
  const tables: Seat[][] = [];
  for (let at = 0; at < plan.tables.length; at += CONNECTING) {
    const batch = plan.tables.slice(at, at + CONNECTING);
    tables.push(
      ...(await Promise.all(
        batch.map(async (t) =>
          Promise.all(
            t.tokens.map((token, i) =>
              open(plan.urls[i % plan.urls.length]!, t.encounter, token, t.roles[i]!),
            ),
          ),
        ),
      )),
    );
  }
  const runs = (deadline: number) =>
    tables.map(async (seats, index) => {
      const [gm, ...others] = seats as [Seat, ...Seat[]];
      for (const other of others) {
        other.socket.on('message', (data: Buffer) => {
          const m = JSON.parse(String(data)) as { type: string; seq: number };
          if (m.type !== 'entry') return;
          countBytes(other.role, data.length);
          const at = sentAt.get(index * 1e9 + m.seq);
          if (at !== undefined) fanout.push(performance.now() - at);
        });
      }
      const answers = new Map<string, (ok: boolean) => void>();
      gm.socket.on('message', (data: Buffer) => {
        const m = JSON.parse(String(data)) as ServerMessage;
        gm.followed = follow(gm.followed, m).followed;
        if (m.type === 'entry') countBytes(gm.role, data.length);
        if (m.type === 'entry' && gm.followed.state !== null) {
          gm.seq = gm.followed.state.seq;
          gm.state = gm.followed.state;
        }
        if ((m.type === 'accepted' || m.type === 'refused') && m.key !== undefined) {
          answers.get(m.key)?.(m.type === 'accepted');
        }
      });
      await submitLoop(deadline, () => {
        const command = gm.state?.actions[0]?.command;
        const undoable = gm.state?.undoable ?? 0;
        const action =
          plan.load === 'play'
            ? command === undefined || gm.state?.outcome.over === true
              ? { kind: 'undo', steps: Math.min(1000, Math.max(1, undoable)) }
              : { kind: 'command', command }
            : (undoable > 0 && gm.seq % 2 === 1) || command === undefined
              ? { kind: 'undo', steps: 1 }
              : { kind: 'command', command };
        const key = randomUUID();
        const expect = gm.seq + 1;
        const answered = new Promise<boolean>((resolve) =>
          answers.set(key, (ok) => {
            answers.delete(key);
            resolve(ok);
          }),
        );
        sentAt.set(index * 1e9 + expect, performance.now());
        gm.socket.send(JSON.stringify({ type: 'submit', expect, key, action }));
        return { expect, answered };
      });
    });
  return {
    close: () => {
      for (const seats of tables) for (const seat of seats) seat.socket.close();
    },
    runs: () => runs(Date.now() + plan.durationMs),
  };
}

async function runEcho(): Promise<{ close: () => void; runs: () => Promise<void>[] }> {
  const url = plan.urls[0]!.replace(/^http/, 'ws');
  const tables = await Promise.all(
    plan.tables.map((t, index) =>
      Promise.all(
        t.tokens.map(
          () =>
            new Promise<WebSocket>((resolve, reject) => {
              const socket = new WebSocket(`${url}/t/${index}`);
              socket.once('open', () => resolve(socket));
              socket.once('error', reject);
            }),
        ),
      ),
    ),
  );
  const runs = (deadline: number) =>
    tables.map(async (sockets, index) => {
      const [gm, ...others] = sockets as [WebSocket, ...WebSocket[]];
      for (const other of others) {
        other.on('message', (data: Buffer) => {
          const m = JSON.parse(String(data)) as { seq: number };
          countBytes('echo', data.length);
          const at = sentAt.get(index * 1e9 + m.seq);
          if (at !== undefined) fanout.push(performance.now() - at);
        });
      }
      let seq = 0;
      const answers = new Map<number, (ok: boolean) => void>();
      gm.on('message', (data: Buffer) => {
        const m = JSON.parse(String(data)) as { seq: number };
        answers.get(m.seq)?.(true);
      });
      await submitLoop(deadline, () => {
        const expect = ++seq;
        const answered = new Promise<boolean>((resolve) =>
          answers.set(expect, (ok) => {
            answers.delete(expect);
            resolve(ok);
          }),
        );
        sentAt.set(index * 1e9 + expect, performance.now());
        // About the size of a submit: the key and an action.
        gm.send(
          JSON.stringify({ type: 'submit', seq: expect, key: randomUUID(), pad: 'x'.repeat(80) }),
        );
        return { expect, answered };
      });
    });
  return {
    close: () => {
      for (const sockets of tables) for (const socket of sockets) socket.close();
    },
    runs: () => runs(Date.now() + plan.durationMs),
  };
}

async function main(): Promise<void> {
  const load = plan.echo ? await runEcho() : await runMoogle();
  phase('connected');
  await sleep(plan.idleMs);
  phase('start');
  measuring = true;
  await Promise.all(load.runs());
  // Let the last fan-outs land.
  await sleep(300);
  measuring = false;
  phase('end');
  load.close();
  process.stdout.write(`${JSON.stringify({ ack, fanout, bytes, errors, submitted })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
