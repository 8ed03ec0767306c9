/**
 * The server's CPU per submit, in one process, for profiling (`node --cpu-prof --import tsx
 * bench/submit-cpu.ts [sqlite|postgres] [submits]`): one table, a GM, three players and two
 * spectators connected, the GM submitting a command and taking it back in turn. The
 * process's CPU time (this process holds the clients too) over the submits, per submit.
 */

import { invite } from '../src/server/tables.js';
import {
  Client,
  example,
  type Heard,
  newTable,
  startEncounterOver,
  startServer,
} from '../test/server/harness.js';
import { freshLocation, type Location } from '../test/store/fixtures.js';
import { findOrStartPostgres, freshDatabase } from '../test/store/postgres-server.js';

const kind = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
const SUBMITS = Number(process.argv[3] ?? 400);

/** A new database on the PostgreSQL the tests would use (outside vitest, found or started here). */
async function postgresLocation(): Promise<Location> {
  const postgres = await findOrStartPostgres(() => {});
  const database = await freshDatabase(postgres.adminUrl);
  return {
    kind: 'postgres',
    location: database.url,
    dispose: async () => {
      await database.drop();
      await postgres.stop();
    },
  };
}

const location = kind === 'postgres' ? await postgresLocation() : await freshLocation(kind);
const running = await startServer(kind, location);
const { table, gmToken } = await newTable(running.store, 'ffrpg', ['hiro', 'haze', 'mint']);
const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'), 'cpu');
const { client: gm, state } = await Client.join(running.url, id, gmToken);
const others: Client[] = [];
for (const role of ['hiro', 'haze', 'mint', undefined, undefined] as const) {
  const made = await invite(
    running.store,
    table,
    role === undefined ? { role: 'spectator' } : { role: 'player', characterId: role },
  );
  if (!made.ok) throw new Error(made.error.message);
  others.push((await Client.join(running.url, id, made.value.token)).client);
}
let last = state.seq;
let actions = state.actions;
const run = async (n: number) => {
  for (let i = 0; i < n; i++) {
    const action =
      i % 2 === 0
        ? { kind: 'command' as const, command: actions[0]!.command }
        : { kind: 'undo' as const, steps: 1 };
    // A socket may send 20 messages a second: paced, the waits cost no CPU.
    const pace = new Promise((resolve) => setTimeout(resolve, 52));
    const answer = await gm.submit(last + 1, `k-${last}-${i}`, action);
    if (answer.type !== 'accepted') throw new Error(JSON.stringify(answer));
    const entry = await gm.until(
      (m): m is Extract<Heard, { type: 'entry' }> => m.type === 'entry' && m.seq === answer.seq,
    );
    last = entry.seq;
    actions = entry.actions;
    await pace;
  }
};
await run(40);
const before = process.cpuUsage();
const started = performance.now();
await run(SUBMITS);
const used = process.cpuUsage(before);
console.log(
  `${kind}: ${((used.user + used.system) / 1000 / SUBMITS).toFixed(2)} ms CPU per submit (server and six clients in one process), ${((performance.now() - started) / SUBMITS).toFixed(2)} ms each by the clock`,
);
for (const c of [gm, ...others]) c.close();
await running.stop();
await location.dispose();
