import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/server/limits.js';
import type { TableMessage } from '../../src/server/protocol.js';
import type { Store } from '../../src/store/index.js';
import { freshLocation, KINDS, type Location, stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  type Heard,
  http,
  newTable,
  type Running,
  startEncounterOver,
  startServer,
} from './harness.js';

afterAll(stopFallbackPostgres);

const linkOf = (token: string): string => token.split('.')[0]!;

/** The table channel's socket, with a link's token. */
async function tableSocket(url: string, token: string): Promise<Client> {
  return Client.open(
    `${url.replace(/^http/, 'ws')}/api/table/live?token=${encodeURIComponent(token)}`,
  );
}

/** The next table message this accepts (the harness's client types encounter messages). */
function heard<M extends TableMessage>(
  client: Client,
  accept: (m: TableMessage) => boolean,
): Promise<M> {
  return client.until((m: Heard): m is Heard =>
    accept(m as unknown as TableMessage),
  ) as unknown as Promise<M>;
}

async function joinTable(
  url: string,
  token: string,
): Promise<{ client: Client; connected: Extract<TableMessage, { type: 'connected' }> }> {
  const client = await tableSocket(url, token);
  client.send({ type: 'hello' });
  const connected = await heard<Extract<TableMessage, { type: 'connected' }>>(
    client,
    (m) => m.type === 'connected',
  );
  return { client, connected };
}

async function playerLink(store: Store, tableId: string, characterId: string): Promise<string> {
  const made = await store.createToken(tableId, { role: 'player', characterId });
  if (!made.ok) throw new Error(made.error.message);
  return made.value.token;
}

const presenceOf =
  (type: 'joined' | 'reconnecting' | 'left', character: string) =>
  (m: TableMessage): boolean =>
    m.type === type && m.who.role === 'player' && m.who.character === character;

describe.each(KINDS)('the table channel (%s)', (kind) => {
  let server: Running;

  beforeAll(async () => {
    server = await startServer(kind, undefined, { presenceGraceMs: 50 });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('tells every screen of the table that an encounter started and ended, and the roster and links changed', async () => {
    const { table, gmToken } = await newTable(server.store, 'ffrpg');
    const hiro = await playerLink(server.store, table.id, 'hiro');
    const { client: gm } = await joinTable(server.url, gmToken);
    const { client: phone, connected } = await joinTable(server.url, hiro);
    // A player sees who, never a link.
    expect(connected.connected).toContainEqual({
      role: 'player',
      character: 'hiro',
      sockets: 1,
      status: 'connected',
    });
    expect(connected.connected.every((c) => c.link === undefined)).toBe(true);

    const id = await startEncounterOver(server.url, gmToken, example('ffrpg-wind-cave'));
    for (const screen of [gm, phone]) {
      const started = await heard<Extract<TableMessage, { type: 'encounter-started' }>>(
        screen,
        (m) => m.type === 'encounter-started',
      );
      expect(started).toMatchObject({ type: 'encounter-started', id });
    }

    const abandoned = await http(`${server.url}/api/encounters/${id}/abandon`, gmToken, 'POST');
    expect(abandoned.status).toBe(200);
    expect(await heard(phone, (m) => m.type === 'encounter-ended')).toEqual({
      type: 'encounter-ended',
      id,
      status: 'abandoned',
    });

    const recruited = await http(`${server.url}/api/table/roster`, gmToken, 'POST', {
      character: 'hiro',
    });
    expect(recruited.status).toBe(201);
    await heard(phone, (m) => m.type === 'roster-changed');

    const made = await http(`${server.url}/api/table/invites`, gmToken, 'POST', {
      role: 'spectator',
    });
    expect(made.status).toBe(201);
    await heard(gm, (m) => m.type === 'invites-changed');
    gm.close();
    phone.close();
  });

  it("counts a link at the table while it holds an encounter's socket or the channel's, and tells the GM which link", async () => {
    const { table, gmToken } = await newTable(server.store, 'ffrpg');
    const id = await startEncounterOver(server.url, gmToken, example('ffrpg-wind-cave'));
    const haze = await playerLink(server.store, table.id, 'haze');
    const { client: gm } = await joinTable(server.url, gmToken);

    // The player opens only the fight: it is at the table all the same.
    const { client: fight } = await Client.join(server.url, id, haze);
    const joined = await heard<Extract<TableMessage, { type: 'joined' | 'reconnecting' | 'left' }>>(
      gm,
      presenceOf('joined', 'haze'),
    );
    expect(joined.link).toBe(linkOf(haze));
    // Its table screen too: one link, still one presence (no second `joined`).
    const { client: page } = await joinTable(server.url, haze);
    fight.close();
    page.close();
    await heard(gm, presenceOf('reconnecting', 'haze'));
    const left = await heard<Extract<TableMessage, { type: 'joined' | 'reconnecting' | 'left' }>>(
      gm,
      presenceOf('left', 'haze'),
    );
    expect(left.connected.some((c) => c.link === linkOf(haze))).toBe(false);
    expect(
      gm.messages.filter((m) => presenceOf('joined', 'haze')(m as unknown as TableMessage)),
    ).toHaveLength(1);
    gm.close();
  });

  it('closes the table socket of a revoked link at once with 4001 and says why; the link cannot open it again', async () => {
    const { table, gmToken } = await newTable(server.store, 'ffrpg');
    const mint = await playerLink(server.store, table.id, 'mint');
    const { client: gm } = await joinTable(server.url, gmToken);
    const { client: phone } = await joinTable(server.url, mint);
    const revoked = await http(
      `${server.url}/api/table/invites/${linkOf(mint)}`,
      gmToken,
      'DELETE',
    );
    expect(revoked.status).toBe(200);
    const refused = await heard(phone, (m) => m.type === 'refused');
    expect(refused).toEqual({
      type: 'refused',
      code: 'auth/revoked',
      message: 'this link was revoked',
    });
    await expect.poll(() => phone.closed?.code).toBe(4001);
    await heard(gm, presenceOf('left', 'mint'));
    await heard(gm, (m) => m.type === 'invites-changed');

    const again = await tableSocket(server.url, mint);
    expect(await heard(again, (m) => m.type === 'refused')).toMatchObject({
      code: 'auth/invalid',
    });
    gm.close();
  });

  it('bounds a link to its sockets, answers a bad message, and refuses a socket without a link', async () => {
    const { table, gmToken } = await newTable(server.store, 'ffrpg');
    const rinoa = await playerLink(server.store, table.id, 'rinoa');
    const sockets: Client[] = [];
    for (let i = 0; i < 8; i++) sockets.push((await joinTable(server.url, rinoa)).client);
    const ninth = await tableSocket(server.url, rinoa);
    expect(await heard(ninth, (m) => m.type === 'refused')).toMatchObject({
      code: 'server/link-full',
    });
    await expect.poll(() => ninth.closed?.code).toBe(1008);

    const first = sockets[0]!;
    first.send({ type: 'submit', nested: [[[[]]]] });
    expect(await heard(first, (m) => m.type === 'refused')).toMatchObject({
      code: 'message/invalid',
    });
    first.send({ type: 'ping' });
    await heard(first, (m) => m.type === 'pong');
    // Bounded as an encounter's socket is: too deep is refused before it is read, and past
    // the burst a message is refused as too fast.
    let deep: unknown = [];
    for (let i = 0; i < SERVER_LIMITS.jsonDepth; i++) deep = [deep];
    first.send({ type: 'hello', deep });
    expect(await heard(first, (m) => m.type === 'refused')).toMatchObject({
      code: 'message/invalid',
      message: `a message nests at most ${SERVER_LIMITS.jsonDepth} arrays and objects deep`,
    });
    const second = sockets[1]!;
    for (let i = 0; i <= SERVER_LIMITS.messageBurst; i++) second.send({ type: 'ping' });
    expect(await heard(second, (m) => m.type === 'refused')).toMatchObject({
      code: 'message/too-fast',
    });
    for (const s of sockets) s.close();

    const nobody = await Client.open(`${server.url.replace(/^http/, 'ws')}/api/table/live`);
    expect(await heard(nobody, (m) => m.type === 'refused')).toMatchObject({
      code: 'auth/missing',
    });
    void gmToken;
  });
});

describe('the table channel across two servers on one PostgreSQL', () => {
  let location: Location;
  let a: Running;
  let b: Running;

  beforeAll(async () => {
    location = await freshLocation('postgres');
    a = await startServer('postgres', location, { presenceGraceMs: 50 });
    b = await startServer('postgres', location, { presenceGraceMs: 50 });
  }, 60_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await location?.dispose();
  });

  it("tells a phone on one server of the GM's new encounter on the other, and the GM there who is here", async () => {
    const { table, gmToken } = await newTable(a.store, 'ffrpg');
    const hiro = await playerLink(a.store, table.id, 'hiro');
    const { client: gm } = await joinTable(a.url, gmToken);
    const { client: phone, connected } = await joinTable(b.url, hiro);
    // B asked A on opening the table: the GM on A is listed for the phone on B.
    if (!connected.connected.some((c) => c.role === 'gm')) {
      await heard(phone, (m) => m.type === 'joined' && m.who.role === 'gm');
    }
    await heard(gm, presenceOf('joined', 'hiro'));

    const id = await startEncounterOver(a.url, gmToken, example('ffrpg-wind-cave'));
    expect(await heard(phone, (m) => m.type === 'encounter-started')).toMatchObject({ id });
    // The phone follows into the fight on B; the GM on A sees it still at the table, and then
    // the finish, heard by B, reaches the fight's own socket there as its status.
    const { client: fight } = await Client.join(b.url, id, hiro);
    const ended = await http(`${a.url}/api/encounters/${id}/abandon`, gmToken, 'POST');
    expect(ended.status).toBe(200);
    await heard(phone, (m) => m.type === 'encounter-ended');
    await fight.until(
      // Since patches, a change with no new entry comes as `changed`, the state after it.
      (m): m is Extract<Heard, { type: 'changed' }> =>
        m.type === 'changed' && m.status === 'abandoned',
    );

    // Revoked on A, the phone's table socket on B is closed.
    const revoked = await http(`${a.url}/api/table/invites/${linkOf(hiro)}`, gmToken, 'DELETE');
    expect(revoked.status).toBe(200);
    await expect.poll(() => phone.closed?.code, { timeout: 10_000 }).toBe(4001);
    await heard(gm, presenceOf('left', 'hiro'));
    gm.close();
  }, 30_000);
});
