import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS, stopFallbackPostgres } from '../store/fixtures.js';
import { Client, example, http, newTable, type Running, startServer } from './harness.js';

afterAll(stopFallbackPostgres);

type Refusal = { error: { code: string; message: string } };

/** Each quota lowered to a few, so a test reaches it in a handful of requests. */
const QUOTAS = {
  encountersPerTable: 2,
  rosterPerTable: 3,
  liveLinksPerTable: 3,
  linksPerTable: 5,
  entriesPerEncounter: 3,
} as const;
/** Over a roster of one, under that and one Wind Cave setup. */
const CONTENT = 6_000;

describe.each(KINDS)('per-table quotas on %s', (kind) => {
  let running: Running;
  let small: Running;
  const cave = example('ffrpg-wind-cave');
  beforeAll(async () => {
    running = await startServer(kind, undefined, { limits: QUOTAS });
    small = await startServer(kind, undefined, { limits: { tableContentBytes: CONTENT } });
  });
  afterAll(async () => {
    for (const r of [running, small]) {
      await r?.stop();
      await r?.location.dispose();
    }
  });
  const encounter = (token: string, on = running) =>
    http<{ id: string } & Refusal>(`${on.url}/api/table/encounters`, token, 'POST', {
      file: cave,
      seed: 'quota',
    });

  it('encounters a table keeps: 409 quota/encounters', async () => {
    const { gmToken } = await newTable(running.store, 'ffrpg');
    expect((await encounter(gmToken)).status).toBe(201);
    expect((await encounter(gmToken)).status).toBe(201);
    const refused = await encounter(gmToken);
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'quota/encounters' } } });
    expect(refused.body.error.message).toMatch(/at most 2 encounters/);
  });

  it('roster rows: 409 quota/roster, the party row counted', async () => {
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const recruit = (character: string) =>
      http<Refusal>(`${running.url}/api/table/roster`, gmToken, 'POST', { character });
    expect((await recruit('hiro')).status).toBe(201);
    expect((await recruit('haze')).status).toBe(201);
    const refused = await recruit('mint');
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'quota/roster' } } });
    expect(refused.body.error.message).toMatch(/at most 2 characters/);
  });

  it('live links (409 quota/live-links), and links ever made (409 quota/links)', async () => {
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const invite = () =>
      http<{ invite: { tokenId: string } } & Refusal>(
        `${running.url}/api/table/invites`,
        gmToken,
        'POST',
        { role: 'spectator' },
      );
    const revoke = (id: string) =>
      http(`${running.url}/api/table/invites/${id}`, gmToken, 'DELETE');
    // The GM's own link is the first of three.
    const first = await invite();
    expect(first.status).toBe(201);
    expect((await invite()).status).toBe(201);
    expect(await invite()).toMatchObject({
      status: 409,
      body: { error: { code: 'quota/live-links' } },
    });
    // Revoking frees a live link, not a row: the fifth link is the last.
    expect((await revoke(first.body.invite.tokenId)).status).toBe(200);
    const fourth = await invite();
    expect(fourth.status).toBe(201);
    expect((await revoke(fourth.body.invite.tokenId)).status).toBe(200);
    expect((await invite()).status).toBe(201);
    expect((await invite()).body.error.code).toBe('quota/live-links');
    const listed = await http<{ invites: unknown[] }>(
      `${running.url}/api/table/invites`,
      gmToken,
      'GET',
    );
    const live = listed.body.invites as { tokenId: string; revokedAt: string | null }[];
    const spectator = live.find((l, i) => i > 0 && l.revokedAt === null)!;
    expect((await revoke(spectator.tokenId)).status).toBe(200);
    expect(await invite()).toMatchObject({ status: 409, body: { error: { code: 'quota/links' } } });
  });

  it("a table's stored content: 409 quota/content for a new encounter, a recruit, a service", async () => {
    const { table, gmToken } = await newTable(small.store, 'ffrpg', ['hiro']);
    const before = await small.store.tableUsage(table.id);
    expect(before.contentBytes).toBeGreaterThan(0);
    expect(before.contentBytes).toBeLessThan(CONTENT);
    expect((await encounter(gmToken, small)).status).toBe(201);
    const after = await small.store.tableUsage(table.id);
    expect(after).toMatchObject({ encounters: 1, rosterRows: 2, liveLinks: 1, links: 1 });
    expect(after.contentBytes).toBeGreaterThan(CONTENT);
    const refused = await encounter(gmToken, small);
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'quota/content' } } });
    expect(refused.body.error.message).toMatch(/at most 6000 bytes/);
    const post = (path: string, body: unknown) =>
      http<Refusal>(`${small.url}${path}`, gmToken, 'POST', body);
    expect((await post('/api/table/roster', { character: 'haze' })).body.error.code).toBe(
      'quota/content',
    );
    expect((await post('/api/table/services', { type: 'rest' })).body.error.code).toBe(
      'quota/content',
    );
  });

  it("entries in one encounter's log: a submit is refused quota/entries", async () => {
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const created = await encounter(gmToken);
    const { client, state } = await Client.join(running.url, created.body.id, gmToken);
    try {
      const command = state.actions[0]!.command;
      const steps = [
        { kind: 'command', command },
        { kind: 'undo', steps: 1 },
        { kind: 'redo', steps: 1 },
      ] as const;
      for (const [i, action] of steps.entries()) {
        expect((await client.submit(i + 1, `q${i}`, action)).type).toBe('accepted');
      }
      const refused = await client.submit(4, 'q3', { kind: 'undo', steps: 1 });
      expect(refused).toMatchObject({ type: 'refused', code: 'quota/entries' });
    } finally {
      client.close();
    }
  });
});
