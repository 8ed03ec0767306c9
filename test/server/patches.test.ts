import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatePayload, SubmitAction } from '../../src/server/protocol.js';
import type { TokenRole } from '../../src/store/index.js';
import {
  Client,
  example,
  type Heard,
  newTable,
  type Running,
  startEncounterOver,
  startServer,
} from './harness.js';

/**
 * Pushed entries carry a patch to the role's state, not the state: a client that applied every
 * patch of a long fight holds what a fresh `hello` is sent whole, for the GM, each player and a
 * spectator, in every system. The fights are random (legal actions, undos, redos, reveals),
 * several seeds each; the bytes pushed are counted against what a whole state per entry took.
 */

const FIGHTS = [
  ['ffrpg', 'ffrpg-wind-cave'],
  ['ffviii', 'ffviii-iron-giant'],
  ['zodiac', 'zodiac-keef-and-the-ogre'],
  ['shining-force', 'shining-force-gate'],
] as const;
const SEEDS = ['patch-1', 'patch-2'];
const STEPS = 70;

type Entry = Extract<Heard, { type: 'entry' }>;

/** mulberry32: the fight's choices, the same for a seed every run. */
function random(seed: string): () => number {
  let a = [...seed].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 2654435761), 7) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bytes of the entries pushed, per role: as patches now, and as whole states they were. */
const breakdown = new Map<string, number>();
const measured = new Map<string, { entries: number; patched: number; whole: number }>();

function measure(role: string, client: Client): void {
  const row = measured.get(role) ?? { entries: 0, patched: 0, whole: 0 };
  client.raw.forEach((message, i) => {
    if (message.type !== 'entry') return;
    const heard = client.messages.find(
      (m): m is Entry => m.type === 'entry' && m.seq === message.seq,
    )!;
    const { patch: _p, base: _b, ...whole } = heard;
    row.entries++;
    if (process.env.PATCH_BREAKDOWN) {
      const raw = message as Extract<typeof message, { type: 'entry' }>;
      const add = (k: string, n: number) =>
        breakdown.set(`${role} ${k}`, (breakdown.get(`${role} ${k}`) ?? 0) + n);
      add('entry', JSON.stringify(raw.entry).length);
      for (const op of raw.patch)
        add(op.path.split('/').slice(0, 3).join('/'), JSON.stringify(op).length);
    }
    row.patched += client.sizes[i]!;
    row.whole += JSON.stringify(whole).length;
  });
  measured.set(role, row);
}

describe('patches on a long random fight', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startServer('sqlite');
  });
  afterAll(async () => {
    await running?.stop();
    await running?.location.dispose();
    const lines = [...measured].map(
      ([role, { entries, patched, whole }]) =>
        `${role}: ${entries} entries, ${Math.round(patched / entries)} bytes each (a whole state: ${Math.round(whole / entries)}), ${(whole / patched).toFixed(1)}x`,
    );
    console.log(`bytes per pushed entry\n${lines.join('\n')}`);
    if (process.env.PATCH_BREAKDOWN)
      console.log([...breakdown].sort((a, b) => b[1] - a[1]).slice(0, 30));
  });

  describe.each(FIGHTS)('%s', (system, file) => {
    it.each(SEEDS)(
      'a client that applied every patch holds what a fresh hello sends (%s)',
      async (seed) => {
        const { table, gmToken } = await newTable(running.store, system);
        const id = await startEncounterOver(running.url, gmToken, example(file), seed);
        const token = async (role: TokenRole): Promise<string> => {
          const made = await running.store.createToken(table.id, role);
          if (!made.ok) throw new Error(made.error.message);
          return made.value.token;
        };
        const gm = await Client.join(running.url, id, gmToken);
        const party = gm.state.view.combatants.filter((c) => c.party).map((c) => c.id);
        expect(party.length).toBeGreaterThan(0);
        const roles: [string, TokenRole][] = [
          ...party
            .slice(0, 2)
            .map((c): [string, TokenRole] => [`player ${c}`, { role: 'player', characterId: c }]),
          ['spectator', { role: 'spectator' }],
        ];
        const watchers = await Promise.all(
          roles.map(async ([name, role]) => ({
            name,
            role,
            ...(await Client.join(running.url, id, await token(role))),
          })),
        );
        const clients = [{ name: 'gm', role: { role: 'gm' } as TokenRole, ...gm }, ...watchers];
        const next = random(`${system}-${seed}`);
        const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
        const stateOf = (client: Client): StatePayload => client.followed.state!;
        let seq = gm.state.seq;
        // A socket may send 20 messages a second (SERVER_LIMITS.messagesPerSecond): on a quiet
        // machine this loop is faster, and a refused message would leave the fight waiting.
        const lastSent = new Map<Client, number>();
        const paced = async (client: Client): Promise<void> => {
          const wait = (lastSent.get(client) ?? 0) + 55 - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          lastSent.set(client, Date.now());
        };
        for (let step = 0; step < STEPS; step++) {
          const held = stateOf(gm.client);
          const roll = next();
          let action: SubmitAction;
          if (roll < 0.08 && held.undoable > 0)
            action = { kind: 'undo', steps: 1 + Math.floor(next() * 2) };
          else if (roll < 0.12 && held.redoable > 0) action = { kind: 'redo', steps: 1 };
          else if (roll < 0.18) {
            // A reveal (or hiding again) changes what the others see without an entry.
            const target = pick(held.view.combatants).id;
            await paced(gm.client);
            gm.client.send({
              type: 'reveal',
              combatant: target,
              revealed: !held.revealed.includes(target),
            });
            continue;
          } else if (held.outcome.over || held.actions.length === 0) {
            if (held.undoable === 0) break;
            action = { kind: 'undo', steps: 1 };
          } else {
            // A player acts for its own character when it may; the GM for everyone else.
            const actor = watchers.find(
              (w) => stateOf(w.client).actions.length > 0 && next() < 0.5,
            );
            const from = actor?.client ?? gm.client;
            const offered = stateOf(from).actions;
            const chosen = pick(offered);
            await paced(from);
            const answer = await from.submit(seq + 1, `${seed}-${step}`, {
              kind: 'command',
              command: chosen.command,
            });
            expect(answer.type, JSON.stringify(answer)).toBe('accepted');
            seq = (answer as Extract<Heard, { type: 'accepted' }>).seq;
            for (const c of clients)
              await c.client.until((m): m is Entry => m.type === 'entry' && m.seq === seq);
            continue;
          }
          await paced(gm.client);
          const answer = await gm.client.submit(seq + 1, `${seed}-${step}`, action);
          expect(answer.type, JSON.stringify(answer)).toBe('accepted');
          seq = (answer as Extract<Heard, { type: 'accepted' }>).seq;
          for (const c of clients)
            await c.client.until((m): m is Entry => m.type === 'entry' && m.seq === seq);
        }
        expect(seq).toBeGreaterThan(STEPS / 3);
        for (const { name, role, client } of clients) {
          // A new link of the same role: its arrival is told to everyone (`joined`), so the lists
          // of who is connected agree too once the old socket has answered a ping after it.
          const fresh = await Client.join(running.url, id, await token(role));
          client.send({ type: 'ping' });
          await client.next('pong');
          expect(client.unfit).toBeUndefined();
          const { type: _t, ...whole } = fresh.state;
          expect(stateOf(client), name).toEqual(whole);
          expect(client.followed.entries.map((e) => e.seq)).toEqual(
            Array.from({ length: seq }, (_, i) => i + 1),
          );
          measure(name.startsWith('player') ? 'player' : name, client);
          fresh.client.close();
        }
        for (const c of clients) c.client.close();
      },
      120_000,
    );
  });
});
