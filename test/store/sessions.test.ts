import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionBounds, Store } from '../../src/store/index.js';
import { freshLocation, KINDS, type Location, open, stopFallbackPostgres } from './fixtures.js';

afterAll(stopFallbackPostgres);

const BOUNDS: SessionBounds = { sessionMs: 60_000, sessionsPerLink: 5, ticketMs: 60_000 };

describe.each(KINDS)('sessions and tickets in %s', (kind) => {
  let location: Location;
  let store: Store;

  beforeEach(async () => {
    location = await freshLocation(kind);
    store = await open(location.location);
  });

  afterEach(async () => {
    await store.close();
    await location.dispose();
  });

  async function link(): Promise<{ tableId: string; tokenId: string }> {
    const table = await store.createTable({ systemId: 'ffrpg', name: 'T' });
    if (!table.ok) throw new Error(table.error.message);
    const token = await store.createToken(table.value.id, { role: 'gm' });
    if (!token.ok) throw new Error(token.error.message);
    return { tableId: table.value.id, tokenId: token.value.info.tokenId };
  }

  it("grant their link's role, and keep nothing but hashes", async () => {
    const { tableId, tokenId } = await link();
    const made = await store.createSession(tokenId, BOUNDS);
    if (!made.ok) throw new Error(made.error.message);
    expect(await store.checkSession(made.value.session)).toEqual({
      ok: true,
      value: { role: 'gm', tokenId, tableId },
    });
    // A value of the right shape that was never made, or of the wrong shape, grants nothing.
    const forged = `moogle-session.${'A'.repeat(43)}`;
    expect(await store.checkSession(forged)).toMatchObject({ ok: false });
    expect(await store.checkSession('nonsense')).toMatchObject({ ok: false });
    const exported = await store.exportTable(tableId);
    expect(JSON.stringify(exported)).not.toContain(made.value.session.split('.')[1]);
  });

  it('a session past its time grants nothing', async () => {
    const { tokenId } = await link();
    const made = await store.createSession(tokenId, { ...BOUNDS, sessionMs: -1 });
    if (!made.ok) throw new Error(made.error.message);
    expect(await store.checkSession(made.value.session)).toMatchObject({
      ok: false,
      error: { code: 'session/expired' },
    });
  });

  it('a ticket is taken once, by one of two racing takers', async () => {
    const { tokenId } = await link();
    const made = await store.createSession(tokenId, BOUNDS);
    if (!made.ok) throw new Error(made.error.message);
    const ticket = await store.createTicket(made.value.session, BOUNDS);
    if (!ticket.ok) throw new Error(ticket.error.message);
    const taken = await Promise.all([
      store.takeTicket(ticket.value),
      store.takeTicket(ticket.value),
    ]);
    expect(taken.filter((t) => t.ok)).toHaveLength(1);
    expect(taken.find((t) => !t.ok)).toMatchObject({ error: { code: 'ticket/unknown' } });
    const stale = await store.createTicket(made.value.session, { ...BOUNDS, ticketMs: -1 });
    if (!stale.ok) throw new Error(stale.error.message);
    expect(await store.takeTicket(stale.value)).toMatchObject({
      ok: false,
      error: { code: 'ticket/expired' },
    });
  });

  it('revoking the link, or deleting its table, ends its sessions and their tickets', async () => {
    const { tableId, tokenId } = await link();
    const made = await store.createSession(tokenId, BOUNDS);
    if (!made.ok) throw new Error(made.error.message);
    const ticket = await store.createTicket(made.value.session, BOUNDS);
    if (!ticket.ok) throw new Error(ticket.error.message);
    expect(await store.revokeToken(tokenId)).toBe(true);
    expect(await store.checkSession(made.value.session)).toMatchObject({ ok: false });
    expect(await store.takeTicket(ticket.value)).toMatchObject({ ok: false });
    expect(await store.createSession(tokenId, BOUNDS)).toMatchObject({
      ok: false,
      error: { code: 'token/revoked' },
    });

    const other = await store.createToken(tableId, { role: 'spectator' });
    if (!other.ok) throw new Error(other.error.message);
    const live = await store.createSession(other.value.info.tokenId, BOUNDS);
    if (!live.ok) throw new Error(live.error.message);
    await store.createTicket(live.value.session, BOUNDS);
    expect(await store.deleteTable(tableId)).toBe(true);
    expect(await store.checkSession(live.value.session)).toMatchObject({ ok: false });
  });
});
