/**
 * The load generator of `npm run bench:serve`, a process of its own so its work never shares an
 * event loop with the server's. Reads its plan (JSON) from argv[2]: the server's loopback URL,
 * the tables (an encounter and six tokens each: a GM and five others), how long to run and how
 * often each table submits. The GM of each table submits about every `intervalMs` (jittered),
 * alternating the first offered action and taking it back, so the fight neither ends nor grows;
 * every client times the entry's arrival. Prints one JSON line of results.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { type Followed, follow, NOTHING_FOLLOWED } from '../src/client/follow.js';
import type { ServerMessage, StatePayload } from '../src/server/protocol.js';

interface Plan {
  readonly url: string;
  readonly durationMs: number;
  readonly intervalMs: number;
  readonly tables: readonly { readonly encounter: string; readonly tokens: readonly string[] }[];
}

const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Plan;
if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(plan.url)) {
  throw new Error(`the load generator talks only to loopback, not ${plan.url}`);
}

const ack: number[] = [];
const fanout: number[] = [];
let errors = 0;
let submitted = 0;
const sentAt = new Map<number, number>(); // by `tableIndex * 1e9 + seq`

interface Seat {
  socket: WebSocket;
  seq: number;
  /** The state the GM decides from, kept up by each entry's patch (src/client/follow.ts). */
  followed: Followed;
  state?: StatePayload;
}

function open(url: string, encounter: string, token: string): Promise<Seat> {
  const socket = new WebSocket(
    `${url.replace(/^http/, 'ws')}/api/encounters/${encounter}/live?token=${encodeURIComponent(token)}`,
  );
  const seat: Seat = { socket, seq: 0, followed: NOTHING_FOLLOWED };
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

async function main(): Promise<void> {
  const tables = await Promise.all(
    plan.tables.map(async (t) =>
      Promise.all(t.tokens.map((token) => open(plan.url, t.encounter, token))),
    ),
  );
  const deadline = Date.now() + plan.durationMs;
  const runs = tables.map(async (seats, index) => {
    const [gm, ...others] = seats as [Seat, ...Seat[]];
    for (const other of others) {
      other.socket.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type: string; seq: number };
        if (m.type !== 'entry') return;
        const at = sentAt.get(index * 1e9 + m.seq);
        if (at !== undefined) fanout.push(performance.now() - at);
      });
    }
    const answers = new Map<
      string,
      (m: { type: string; seq?: number; current?: number }) => void
    >();
    gm.socket.on('message', (data) => {
      const m = JSON.parse(String(data)) as ServerMessage;
      gm.followed = follow(gm.followed, m).followed;
      if (m.type === 'entry' && gm.followed.state !== null) {
        gm.seq = gm.followed.state.seq;
        gm.state = gm.followed.state;
      }
      if ((m.type === 'accepted' || m.type === 'refused') && m.key !== undefined) {
        answers.get(m.key)?.(m);
      }
    });
    // Tables start spread over one interval, as real tables would.
    await new Promise((r) => setTimeout(r, Math.random() * plan.intervalMs));
    while (Date.now() < deadline) {
      const takeBack = (gm.state?.undoable ?? 0) > 0 && gm.seq % 2 === 1;
      const command = gm.state?.actions[0]?.command;
      const action =
        takeBack || command === undefined
          ? { kind: 'undo', steps: 1 }
          : { kind: 'command', command };
      const key = randomUUID();
      const expect = gm.seq + 1;
      const answered = new Promise<{ type: string; seq?: number }>((resolve) =>
        answers.set(key, resolve),
      );
      const start = performance.now();
      sentAt.set(index * 1e9 + expect, start);
      gm.socket.send(JSON.stringify({ type: 'submit', expect, key, action }));
      submitted++;
      const answer = await Promise.race([
        answered,
        new Promise<{ type: string }>((r) => setTimeout(() => r({ type: 'timeout' }), 10_000)),
      ]);
      answers.delete(key);
      if (answer.type === 'accepted') ack.push(performance.now() - start);
      else errors++;
      const wait = plan.intervalMs * (0.75 + Math.random() * 0.5);
      await new Promise((r) => setTimeout(r, wait));
    }
  });
  await Promise.all(runs);
  // Let the last fan-outs land.
  await new Promise((r) => setTimeout(r, 300));
  for (const seats of tables) for (const seat of seats) seat.socket.close();
  process.stdout.write(`${JSON.stringify({ ack, fanout, errors, submitted })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
