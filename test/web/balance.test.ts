import { afterAll, describe, expect, it } from 'vitest';
import { Client, example, newTable, startEncounterOver, useServer } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { ensureWebBuilt, launch, screenPath } from './browser.js';

afterAll(stopFallbackPostgres);

interface Sse {
  readonly status: number;
  readonly events: { event: string; data: unknown }[];
}

/** Reads a balance stream; `abortAfter` closes it after that many events, as a page's Cancel. */
async function balance(url: string, query: string, abortAfter?: number): Promise<Sse> {
  const controller = new AbortController();
  const response = await fetch(`${url}?${query}`, { signal: controller.signal });
  const events: Sse['events'] = [];
  if (!response.ok || response.body === null) {
    return { status: response.status, events: [{ event: 'error', data: await response.json() }] };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown;
        events.push({ event, data });
        if (abortAfter !== undefined && events.length >= abortAfter) {
          controller.abort();
          return { status: response.status, events };
        }
        end = buffer.indexOf('\n\n');
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: response.status, events };
}

describe('the balance route', () => {
  const running = useServer('sqlite');

  it('streams progress, then a report whose counts add up to the battles asked for', async () => {
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'));
    const route = `${running.url}/api/encounters/${id}/balance`;
    const { status, events } = await balance(route, `token=${gmToken}&battles=300&seed=s`);
    expect(status).toBe(200);
    expect(events[0]).toEqual({ event: 'progress', data: { done: 0, battles: 300 } });
    const report = events.at(-1)!;
    expect(report.event).toBe('report');
    const r = report.data as {
      battles: number;
      wins: Record<string, { count: number; rate: number; ci95: [number, number] }>;
      draws: number;
      unfinished: number;
      interrupted: boolean;
      combatants: { survival: number }[];
    };
    expect(r.battles).toBe(300);
    expect(r.interrupted).toBe(false);
    const wins = Object.values(r.wins).reduce((sum, w) => sum + w.count, 0);
    expect(wins + r.draws + r.unfinished).toBe(300);
    for (const w of Object.values(r.wins)) {
      expect(w.ci95[0]).toBeLessThanOrEqual(w.rate);
      expect(w.ci95[1]).toBeGreaterThanOrEqual(w.rate);
    }
    expect(r.combatants).toHaveLength(4);
    // The same seed plays the same battles.
    const again = await balance(route, `token=${gmToken}&battles=300&seed=s`);
    expect(again.events.at(-1)!.data).toMatchObject({ wins: r.wins, rounds: expect.anything() });
  });

  it('simulates from the encounter as it stands: the Heket at 10 HP, then a newcomer', async () => {
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'));
    const { client, state } = await Client.join(running.url, id, gmToken);
    const played = [
      { kind: 'command', command: state.actions[0]!.command },
      { kind: 'gm', line: 'hp heket 10' },
    ] as const;
    for (const [i, action] of played.entries()) {
      expect((await client.submit(state.seq + i + 1, `mid-${i}`, action)).type).toBe('accepted');
    }
    const route = `${running.url}/api/encounters/${id}/balance`;
    // Random play for the party, so that from the start the Heket wins a fair share.
    const policy = encodeURIComponent('party=random,enemies=tactician');
    const query = `token=${gmToken}&battles=300&seed=mid&policy=${policy}`;
    interface Report {
      from: string;
      entry?: number;
      battles: number;
      wins: Record<string, { rate: number; ci95: [number, number] }>;
      rounds: { mean: number };
      combatants: { id: string; meanDamageTaken: number }[];
    }
    const now = (await balance(route, query)).events.at(-1)!;
    const start = (await balance(route, `${query}&from=start`)).events.at(-1)!;
    expect(now.event).toBe('report');
    expect(start.event).toBe('report');
    const fromNow = now.data as Report;
    const fromStart = start.data as Report;
    expect(fromNow).toMatchObject({ from: 'now', entry: 2, battles: 300 });
    expect(fromStart.from).toBe('start');
    expect(fromStart.entry).toBeUndefined();
    // The intervals do not even meet: the Heket's 190 HP lost are in what the battles start from.
    expect(fromNow.wins.party!.ci95[0]).toBeGreaterThan(fromStart.wins.party!.ci95[1]);
    expect(fromNow.rounds.mean).toBeLessThan(fromStart.rounds.mean);
    const heket = fromNow.combatants.find((c) => c.id === 'heket')!;
    expect(heket.meanDamageTaken).toBeLessThanOrEqual(10);
    // Same seed, same state: the same report.
    expect((await balance(route, query)).events.at(-1)!.data).toEqual(fromNow);

    const added = await client.submit(state.seq + 3, 'mid-add', {
      kind: 'gm',
      line: 'add heket to enemies',
    });
    expect(added.type).toBe('accepted');
    client.close();
    const later = (await balance(route, `token=${gmToken}&battles=50&seed=mid`)).events.at(-1)!;
    expect(later.data).toMatchObject({ from: 'now', entry: 3 });
    expect((later.data as Report).combatants.map((c) => c.id)).toEqual([
      'hiro',
      'haze',
      'mint',
      'heket',
      'heket-2',
    ]);
    expect((await balance(route, `token=${gmToken}&from=later`)).status).toBe(400);
  });

  it('is the GM’s alone, bounded, and stops when the page goes', async () => {
    const { table, gmToken } = await newTable(running.store, 'zodiac');
    const id = await startEncounterOver(running.url, gmToken, example('zodiac-keef-and-the-ogre'));
    const route = `${running.url}/api/encounters/${id}/balance`;
    const player = await running.store.createToken(table.id, {
      role: 'player',
      characterId: 'keef',
    });
    if (!player.ok) throw new Error(player.error.message);
    expect((await balance(route, `token=${player.value.token}`)).status).toBe(403);
    expect((await balance(route, 'token=nope')).status).toBe(401);
    expect((await balance(route, `token=${gmToken}&battles=20001`)).status).toBe(400);
    const other = await newTable(running.store, 'zodiac');
    expect((await balance(route, `token=${other.gmToken}`)).status).toBe(404);

    // A long run, left after its first events: live play goes on meanwhile, and once it is
    // stopped the server takes new runs again (it holds at most two at once).
    const long = balance(route, `token=${gmToken}&battles=20000`, 2);
    const { client, state } = await Client.join(running.url, id, gmToken);
    const answer = await client.submit(state.seq + 1, 'during', {
      kind: 'command',
      command: state.actions[0]!.command,
    });
    expect(answer.type).toBe('accepted');
    client.close();
    expect((await long).events.map((e) => e.event)).toEqual(['progress', 'progress']);
    let after: Sse | undefined;
    for (let i = 0; i < 50; i++) {
      after = await balance(route, `token=${gmToken}&battles=50`);
      if (after.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(after?.events.at(-1)?.event).toBe('report');
  });

  it('shows win rates, rounds and survival as charts on the GM screen', async () => {
    await ensureWebBuilt();
    const browser = await launch();
    try {
      const { gmToken } = await newTable(running.store, 'ffviii', ['ehlric']);
      const id = await startEncounterOver(running.url, gmToken, example('ffviii-iron-giant'));
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${running.url}/t/${gmToken}#/e/${id}`);
      await page.locator('main.gm-screen').waitFor();
      await page.getByLabel('Battles').fill('200');
      // From the encounter as it stands unless the GM asks for its start.
      expect(await page.getByLabel('from now (entry 0)').isChecked()).toBe(true);
      expect(await page.getByLabel('from the start').isChecked()).toBe(false);
      await page.getByRole('button', { name: 'Simulate' }).click();
      const report = page.locator('.balance-report');
      await report.waitFor({ timeout: 30_000 });
      expect(await report.locator('p').first().textContent()).toContain(
        '200 battles from now (entry 0)',
      );
      expect(await report.locator('svg[role="img"]').count()).toBe(3);
      expect(await report.locator('svg').first().getAttribute('aria-label')).toMatch(
        /Win rates: .*wins \d+\.\d% \(95% \d+\.\d% to \d+\.\d%\)/,
      );
      await page.locator('.balance').screenshot({ path: screenPath('ffviii-balance.png') });
    } finally {
      await browser.close();
    }
  });
});
