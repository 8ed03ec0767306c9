import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connected, ServerMessage } from '../../src/server/protocol.js';
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
  newTable,
  type Running,
  type ServeProcess,
  spawnServe,
  startEncounterOver,
  startServer,
} from './harness.js';

afterAll(stopFallbackPostgres);

type Presence = Extract<ServerMessage, { type: 'joined' | 'reconnecting' | 'left' }>;

const linkOf = (token: string): string => token.split('.')[0]!;

/** The next presence message of this kind about this character (or role). */
function presence(client: Client, type: Presence['type'], character: string): Promise<Presence> {
  return client.until(
    (m): m is Presence =>
      m.type === type && (m.who.role === 'player' ? m.who.character === character : false),
  );
}

async function encounterWithLinks(
  store: Store,
  url: string,
): Promise<{ id: string; gmToken: string; player: (c: string) => Promise<string> }> {
  const { table, gmToken } = await newTable(store, 'ffrpg');
  const id = await startEncounterOver(url, gmToken, example('ffrpg-wind-cave'), 'presence');
  const player = async (characterId: string): Promise<string> => {
    const made = await store.createToken(table.id, { role: 'player', characterId });
    if (!made.ok) throw new Error(made.error.message);
    return made.value.token;
  };
  return { id, gmToken, player };
}

describe.each(KINDS)('presence (%s)', (kind) => {
  let quick: Running;
  let patient: Running;

  beforeAll(async () => {
    // One server whose grace runs out at once, one whose grace outlasts every test.
    quick = await startServer(kind, undefined, { presenceGraceMs: 50 });
    patient = await startServer(kind, undefined, { presenceGraceMs: 600_000 });
  });

  afterAll(async () => {
    await quick?.stop();
    await patient?.stop();
  });

  it('tells the GM which link joined and left, the players only who, and lists who is here', async () => {
    const { id, gmToken, player } = await encounterWithLinks(quick.store, quick.url);
    const { client: gm, state } = await Client.join(quick.url, id, gmToken);
    expect(state.connected).toEqual([
      { role: 'gm', link: linkOf(gmToken), sockets: 1, status: 'connected' },
    ]);
    const haze = await player('haze');
    const { client: watcher, state: seen } = await Client.join(quick.url, id, haze);
    // A player sees roles and characters, never a link.
    expect(seen.connected).toEqual([
      { role: 'gm', sockets: 1, status: 'connected' },
      { role: 'player', character: 'haze', sockets: 1, status: 'connected' },
    ]);
    const joined = await presence(gm, 'joined', 'haze');
    expect(joined.link).toBe(linkOf(haze));

    // Two devices on one link join once, and leave once, when the last one goes.
    const hiro = await player('hiro');
    const first = await Client.connect(quick.url, id, hiro);
    const second = await Client.connect(quick.url, id, hiro);
    const hiroJoined = await presence(gm, 'joined', 'hiro');
    expect(hiroJoined.link).toBe(linkOf(hiro));
    const toPlayer = await presence(watcher, 'joined', 'hiro');
    expect(toPlayer.link).toBeUndefined();
    expect(JSON.stringify(toPlayer)).not.toContain(linkOf(hiro));
    const { client: gm2, state: later } = await Client.join(quick.url, id, gmToken);
    expect(later.connected).toContainEqual({
      role: 'player',
      character: 'hiro',
      link: linkOf(hiro),
      sockets: 2,
      status: 'connected',
    });
    first.close();
    second.close();
    const reconnecting = await presence(gm, 'reconnecting', 'hiro');
    expect(reconnecting.connected).toContainEqual({
      role: 'player',
      character: 'hiro',
      link: linkOf(hiro),
      sockets: 0,
      status: 'reconnecting',
    });
    const left = await presence(gm, 'left', 'hiro');
    expect(left.link).toBe(linkOf(hiro));
    expect(left.connected.map((c: Connected) => c.link)).toEqual([linkOf(gmToken), linkOf(haze)]);
    await presence(watcher, 'left', 'hiro');
    const joins = gm.messages.filter(
      (m) => m.type === 'joined' && m.who.role === 'player' && m.who.character === 'hiro',
    );
    expect(joins).toHaveLength(1);
    for (const c of [gm, gm2, watcher]) c.close();
  });

  it('shows a link back within the grace as reconnecting, then joined, never left; a revoked one leaves at once', async () => {
    const { id, gmToken, player } = await encounterWithLinks(patient.store, patient.url);
    const { client: gm } = await Client.join(patient.url, id, gmToken);
    const mint = await player('mint');
    const phone = await Client.connect(patient.url, id, mint);
    await presence(gm, 'joined', 'mint');
    phone.close();
    await presence(gm, 'reconnecting', 'mint');
    const { client: again } = await Client.join(patient.url, id, mint);
    const back = await presence(gm, 'joined', 'mint');
    expect(back.connected).toContainEqual({
      role: 'player',
      character: 'mint',
      link: linkOf(mint),
      sockets: 1,
      status: 'connected',
    });
    expect(gm.messages.some((m) => m.type === 'left')).toBe(false);

    expect(await patient.store.revokeToken(linkOf(mint))).toBe(true);
    patient.server.hub.revoke(linkOf(mint));
    const left = await presence(gm, 'left', 'mint');
    expect(left.connected.map((c: Connected) => c.link)).toEqual([linkOf(gmToken)]);
    expect(again.closed ?? (await again.next('refused').catch(() => undefined))).toBeDefined();
    gm.close();
  });
});

describe('presence across two processes on one PostgreSQL', () => {
  let location: Location;
  let store: Store;
  let a: ServeProcess;
  let b: ServeProcess;
  let c: ServeProcess;

  beforeAll(async () => {
    location = await freshLocation('postgres');
    store = await open(location.location);
    [a, b, c] = await Promise.all([
      spawnServe(location.location),
      spawnServe(location.location),
      spawnServe(location.location),
    ]);
  }, 60_000);

  afterAll(async () => {
    for (const p of [a, b, c]) p?.child.kill('SIGTERM');
    await store?.close();
    await location?.dispose();
  });

  it("lists a player connected to one process in the GM's state on another, and its leaving reaches it", async () => {
    const { id, gmToken, player } = await encounterWithLinks(store, a.url);
    const hiro = await player('hiro');
    // The player is on B before A holds the encounter: A learns of it by asking.
    const { client: phone } = await Client.join(b.url, id, hiro);
    const { client: gm, state } = await Client.join(a.url, id, gmToken);
    const listed = (list: readonly Connected[]): boolean =>
      list.some((x) => x.link === linkOf(hiro) && x.status === 'connected');
    if (!listed(state.connected)) await presence(gm, 'joined', 'hiro');
    const { client: gm2, state: later } = await Client.join(a.url, id, gmToken);
    expect(later.connected).toContainEqual({
      role: 'player',
      character: 'hiro',
      link: linkOf(hiro),
      sockets: 1,
      status: 'connected',
    });

    // A player joining on C while the GM watches on A.
    const haze = await player('haze');
    const { client: other } = await Client.join(c.url, id, haze);
    const joined = await presence(gm, 'joined', 'haze');
    expect(joined.link).toBe(linkOf(haze));

    phone.close();
    await presence(gm, 'reconnecting', 'hiro');
    const left = await presence(gm, 'left', 'hiro');
    expect(left.connected.some((x) => x.link === linkOf(hiro))).toBe(false);

    // A link revoked while on C has left at once on A: it cannot come back.
    const mint = await player('mint');
    const { client: revoked } = await Client.join(c.url, id, mint);
    await presence(gm, 'joined', 'mint');
    expect(await store.revokeToken(linkOf(mint))).toBe(true);
    await presence(gm, 'left', 'mint');
    expect(
      gm.messages.some(
        (m) => m.type === 'reconnecting' && m.who.role === 'player' && m.who.character === 'mint',
      ),
    ).toBe(false);
    revoked.close();

    // A process that stops takes its sockets with it: A hears it go.
    c.child.kill('SIGTERM');
    await presence(gm, 'reconnecting', 'haze');
    other.close();
    for (const x of [gm, gm2]) x.close();
  });
});

describe('presence of a process gone silent (PostgreSQL)', () => {
  it('drops the sockets of a process not heard from in three beats', async () => {
    const location = await freshLocation('postgres');
    const options = { presenceBeatMs: 100, presenceGraceMs: 50 };
    const x = await startServer('postgres', location, options);
    const y = await startServer('postgres', location, options);
    try {
      const { id, gmToken, player } = await encounterWithLinks(y.store, y.url);
      const { client: gm } = await Client.join(y.url, id, gmToken);
      const { client: phone } = await Client.join(x.url, id, await player('hiro'));
      await presence(gm, 'joined', 'hiro');
      // X stops beating without saying it goes, as a killed process would; its socket stays.
      x.server.hub.close();
      const left = await presence(gm, 'left', 'hiro');
      expect(left.connected.map((c) => c.role)).toEqual(['gm']);
      expect(phone.closed).toBeUndefined();
      for (const c of [gm, phone]) c.close();
    } finally {
      await x.stop();
      await y.stop();
      await location.dispose();
    }
  });
});
