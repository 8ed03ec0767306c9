import { afterAll, describe, expect, it } from 'vitest';
import type { CampaignLogRecord } from '../../src/store/index.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { http, newTable, useServer } from './harness.js';

afterAll(stopFallbackPostgres);

interface Outcome {
  readonly report: string[];
  readonly cost: { unit: string; amount: number } | null;
  readonly roster: { characters: Record<string, { items: { item: string }[] }>; party: unknown };
  readonly entry?: CampaignLogRecord;
}

/**
 * Services between fights over HTTP (docs/campaign.md, "The campaign log"): a quote says what a
 * service costs and does and saves nothing; buying it writes a log entry; the GM undoes the
 * newest entry and the roster is back as before. On both stores.
 */
describe.each(['sqlite', 'postgres'] as const)('the campaign log over HTTP on %s', (kind) => {
  const running = useServer(kind);

  it('Shining Force: "Medical Herb ... 10" quoted, bought and undone', async () => {
    const { table, gmToken } = await newTable(running.store, 'shining-force', ['max']);
    const url = running.url;
    // The Force's purse, set by hand as a GM's import would: outside the log.
    expect((await running.store.putRosterEntry(table.id, '@party', { gold: 100 })).ok).toBe(true);
    const herb = { type: 'buy', character: 'max', item: 'medical-herb' };
    const rosterBefore = await running.store.getRoster(table.id);

    const quote = await http<Outcome>(`${url}/api/table/services/quote`, gmToken, 'POST', herb);
    expect(quote.status).toBe(200);
    expect(quote.body.cost).toEqual({ unit: 'gold', amount: 10 });
    expect(quote.body.report.join(' ')).toMatch(/Medical Herb/);
    expect(quote.body.entry).toBeUndefined();
    expect(await running.store.getRoster(table.id)).toEqual(rosterBefore);

    const bought = await http<Outcome>(`${url}/api/table/services`, gmToken, 'POST', herb);
    expect(bought.status).toBe(200);
    expect(bought.body.cost).toEqual(quote.body.cost);
    expect(bought.body.report).toEqual(quote.body.report);
    expect(bought.body.roster.party).toEqual({ gold: 90 });
    expect(bought.body.entry).toMatchObject({ kind: 'service', service: herb, undoneAt: null });
    expect(bought.body.entry?.by).toMatch(/^gm:/);

    const log = await http<{ entries: CampaignLogRecord[] }>(
      `${url}/api/table/campaign-log`,
      gmToken,
      'GET',
    );
    expect(log.body.entries.map((e) => e.kind)).toEqual(['service', 'recruit']);
    expect(log.body.entries[1]?.report).toEqual(['Max joins the party.']);

    // Only the newest: the recruit below it is refused while the purchase stands.
    const wrong = await http(`${url}/api/table/campaign-log/undo`, gmToken, 'POST', { n: 1 });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ error: { code: 'campaign/not-newest' } });

    const undone = await http<{ undone: CampaignLogRecord; roster: Outcome['roster'] }>(
      `${url}/api/table/campaign-log/undo`,
      gmToken,
      'POST',
      { n: bought.body.entry?.n },
    );
    expect(undone.status).toBe(200);
    expect(undone.body.undone.undoneBy).toMatch(/^gm:/);
    expect(undone.body.roster.party).toEqual({ gold: 100 });
    expect((await running.store.getRoster(table.id)).map((r) => r.state)).toEqual(
      rosterBefore.map((r) => r.state),
    );
    const after = await http<{ entries: CampaignLogRecord[] }>(
      `${url}/api/table/campaign-log`,
      gmToken,
      'GET',
    );
    expect(after.body.entries[0]?.undoneAt).not.toBeNull();
  });

  it('FFRPG: an award is a cost of minus its Gil; a refused service changes nothing', async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg', ['hiro']);
    const url = running.url;
    const award = await http<Outcome>(`${url}/api/table/services`, gmToken, 'POST', {
      type: 'award',
      characters: ['hiro'],
      gil: 50,
    });
    expect(award.status).toBe(200);
    expect(award.body.cost).toEqual({ unit: 'Gil', amount: -50 });
    const before = await running.store.getRoster(table.id);
    // Refused: a rest nobody needs (Hiro is at full HP and MP). Nothing is written.
    const refused = await http(`${url}/api/table/services/quote`, gmToken, 'POST', {
      type: 'rest',
      gil: 10,
    });
    expect(refused.status).toBe(400);
    const bought = await http(`${url}/api/table/services`, gmToken, 'POST', { type: 'rest' });
    expect(bought.status).toBe(400);
    expect(await running.store.getRoster(table.id)).toEqual(before);
    const log = await running.store.campaignLog(table.id);
    expect(log.map((e) => e.kind)).toEqual(['service', 'recruit']);
  });

  it("the campaign page's answer: the GM's in full, a player's own sheet and the party's names", async () => {
    const { gmToken } = await newTable(running.store, 'shining-force', ['max', 'ken']);
    const gm = await http<{
      characters: { id: string; lines: { label: string; value: string }[] }[];
      party: { label: string; value: string }[];
      services: { type: string; fields: { name: string; kind: string }[] }[];
      items: { id: string }[];
      log: { kind: string }[];
    }>(`${running.url}/api/table/campaign`, gmToken, 'GET');
    expect(gm.status).toBe(200);
    expect(gm.body.party).toEqual([{ label: 'Gold', value: '0' }]);
    expect(gm.body.characters.map((c) => c.id)).toEqual(['ken', 'max']);
    expect(gm.body.characters[1]?.lines.map((l) => l.label)).toContain('EXP');
    expect(gm.body.services.find((f) => f.type === 'buy')?.fields).toEqual([
      { name: 'character', kind: 'character', optional: false },
      { name: 'item', kind: 'item', optional: false },
    ]);
    expect(gm.body.services.map((f) => f.type)).toEqual(
      expect.arrayContaining(['raise', 'cure-poison', 'lift-curse', 'promote', 'sell', 'repair']),
    );
    expect(gm.body.items.map((i) => i.id)).toContain('medical-herb');
    expect(gm.body.log.map((e) => e.kind)).toEqual(['recruit', 'recruit']);
    const invite = await http<{ token: string }>(
      `${running.url}/api/table/invites`,
      gmToken,
      'POST',
      {
        role: 'player',
        character: 'ken',
      },
    );
    const player = await http<Record<string, unknown>>(
      `${running.url}/api/table/campaign`,
      invite.body.token,
      'GET',
    );
    expect(player.status).toBe(200);
    expect((player.body.sheet as { id: string }).id).toBe('ken');
    expect(player.body.party).toEqual([
      { id: 'ken', name: 'Ken', down: false },
      { id: 'max', name: 'Max', down: false },
    ]);
    expect(Object.keys(player.body).sort()).toEqual(['money', 'party', 'role', 'sheet']);
  });

  it('refuses the log and undo to a player', async () => {
    const { table, gmToken } = await newTable(running.store, 'shining-force', ['max']);
    const invite = await http<{ token: string }>(
      `${running.url}/api/table/invites`,
      gmToken,
      'POST',
      {
        role: 'player',
        character: 'max',
      },
    );
    expect(invite.status).toBe(201);
    const player = invite.body.token;
    for (const [path, method] of [
      ['/api/table/campaign-log', 'GET'],
      ['/api/table/campaign-log/undo', 'POST'],
      ['/api/table/services/quote', 'POST'],
    ] as const) {
      const answer = await http(
        `${running.url}${path}`,
        player,
        method,
        method === 'POST' ? {} : undefined,
      );
      expect(answer.status).toBe(403);
    }
    expect(await running.store.campaignLog(table.id)).toHaveLength(1);
  });
});
