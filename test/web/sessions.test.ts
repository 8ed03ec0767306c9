import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { example, http, newTable, startEncounterOver } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * A table link opened in real Chromium: exchanged for a session, the secret gone from the
 * address bar, the history and every address the page then asks for; the page plays; another
 * device opens the same link; revoking the link ends the session's calls and its socket.
 */

const tracker = useTracker();
const contexts: BrowserContext[] = [];

afterAll(async () => {
  for (const context of contexts) await context.close();
});

/** A fresh browser (its own cookies) whose page records every socket it opens and how it closed. */
async function device(): Promise<Page> {
  const context = await tracker.browser.newContext();
  contexts.push(context);
  // The page's own WebSocket, wrapped: a string, as the test files have no DOM types.
  await context.addInitScript(`
    const seen = [];
    globalThis.__sockets = seen;
    const Original = WebSocket;
    globalThis.WebSocket = class extends Original {
      constructor(url, protocols) {
        super(url, protocols);
        const record = { url: String(url) };
        seen.push(record);
        this.addEventListener('close', (event) => { record.closed = event.code; });
      }
    };
  `);
  return context.newPage();
}

function sockets(page: Page): Promise<{ url: string; closed?: number }[]> {
  return page.evaluate('globalThis.__sockets') as Promise<{ url: string; closed?: number }[]>;
}

/** What the page's own script gets calling the API as it does: its cookie, its table named. */
function pageCall(page: Page, tableId: string, path: string): Promise<number> {
  return page.evaluate(
    async ([table, address]) =>
      (
        await fetch(address, {
          credentials: 'same-origin',
          headers: { 'x-moogle-table': encodeURIComponent(table) },
        })
      ).status,
    [tableId, path] as const,
  );
}

async function addressesOf(page: Page): Promise<string[]> {
  return page.evaluate(`[
    location.href,
    document.URL,
    ...performance.getEntriesByType('navigation').map((e) => e.name),
    ...performance.getEntriesByType('resource').map((e) => e.name),
  ]`) as Promise<string[]>;
}

describe('a table link in Chromium', () => {
  it('is exchanged for a session: the page plays from an address without the secret, on this device and another', async () => {
    const { table, gmToken } = await newTable(tracker.running.store, 'ffrpg');
    const secret = gmToken.split('.')[1]!;
    const id = await startEncounterOver(
      tracker.running.url,
      gmToken,
      example('ffrpg-wind-cave'),
      'sessions',
    );
    const gm = await device();
    const redirects: number[] = [];
    gm.on('response', (response) => {
      if (response.url().includes('/t/')) redirects.push(response.status());
    });
    await gm.goto(`${tracker.running.url}/t/${gmToken}#/e/${encodeURIComponent(id)}`);
    await gm.locator('main.gm-screen[data-seq="0"]').waitFor();

    // The browser was sent on (303) to the table's own address, the encounter kept.
    expect(redirects).toEqual([303]);
    expect(gm.url()).toBe(
      `${tracker.running.url}/table/${encodeURIComponent(table.id)}#/e/${encodeURIComponent(id)}`,
    );
    const navigation = (await gm.evaluate(`({
      redirectCount: performance.getEntriesByType('navigation')[0].redirectCount,
      history: history.length,
    })`)) as { redirectCount: number; history: number };
    expect(navigation.redirectCount).toBe(1);
    for (const address of [...(await addressesOf(gm)), ...(await sockets(gm)).map((s) => s.url)]) {
      expect(address).not.toContain(secret);
    }
    // Each socket, the encounter's and the table's, opened with a one-use ticket of the session.
    const opened = await sockets(gm);
    expect(new Set(opened.map((s) => new URL(s.url).pathname))).toEqual(
      new Set([`/api/encounters/${encodeURIComponent(id)}/live`, '/api/table/live']),
    );
    for (const socket of opened)
      expect(new URL(socket.url).searchParams.get('ticket')).toBeTruthy();
    // The cookie is out of the page's reach, and other sites' requests never carry it.
    expect(await gm.evaluate('document.cookie')).toBe('');
    const cookies = await gm.context().cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookies[0]!.value).not.toContain(secret);

    // It plays: the GM's first action lands as entry 1.
    await gm.locator('.actions .action-list button.action').first().click();
    await gm.locator('form.detail button[type="submit"]').click();
    await gm.locator('main.gm-screen[data-seq="1"]').waitFor();

    // Going back leaves the table: the link's address was never an entry of the history.
    await gm.goBack();
    expect(gm.url()).not.toContain(secret);
    expect(navigation.history).toBeLessThanOrEqual(2);
    // Reloading the table's address needs no link: the session opens it.
    await gm.goto(`${tracker.running.url}/table/${encodeURIComponent(table.id)}`);
    await expect.poll(() => gm.locator('h1').textContent()).toContain('Test ffrpg');

    // A new device opens the same link, and plays on too.
    const laptop = await device();
    await laptop.goto(`${tracker.running.url}/t/${gmToken}#/e/${encodeURIComponent(id)}`);
    await laptop.locator('main.gm-screen[data-seq="1"]').waitFor();
    expect(laptop.url()).not.toContain(secret);
  });

  it('works when followed from another site, whose requests carry no session', async () => {
    const { table, gmToken } = await newTable(tracker.running.store, 'ffrpg');
    const page = await device();
    // A chat's page on another site: 127.0.0.1 and localhost are two sites to a browser.
    const here = new URL(tracker.running.url);
    const foreign = `http://localhost:${here.port}`;
    await page.goto(`${foreign}/healthz`);
    await page.setContent(`<a href="${tracker.running.url}/t/${gmToken}">the table</a>`);
    await page.click('a');
    await expect.poll(() => page.locator('h1').textContent()).toContain('Test ffrpg');
    expect(page.url()).toBe(`${tracker.running.url}/table/${encodeURIComponent(table.id)}`);
    // From the other site's page, a request to this server goes without the session.
    const other = await page.context().newPage();
    await other.goto(`${foreign}/healthz`);
    const sent = other.waitForRequest((r) => r.url().startsWith(`${tracker.running.url}/api/`));
    await other.evaluate(
      async ([url, tableId]) => {
        await fetch(`${url}/api/table?table=${encodeURIComponent(tableId)}`, {
          credentials: 'include',
          mode: 'no-cors',
        }).catch(() => undefined);
      },
      [tracker.running.url, table.id] as const,
    );
    // SameSite=Strict: the cookie stays home.
    expect((await (await sent).allHeaders()).cookie).toBeUndefined();
    // The same request from the table's own page carries it.
    const own = page.waitForRequest((r) => r.url().includes('/api/table'));
    await page.reload();
    expect((await (await own).allHeaders()).cookie).toMatch(/^moogle-[0-9a-f]{24}=/);
  });

  it("ends when the link is revoked: the session's calls get 401 and its socket closes with 4001", async () => {
    const { table, gmToken } = await newTable(tracker.running.store, 'ffrpg', ['hiro']);
    const id = await startEncounterOver(
      tracker.running.url,
      gmToken,
      example('ffrpg-wind-cave'),
      'revoked',
    );
    const made = await tracker.running.store.createToken(table.id, {
      role: 'player',
      characterId: 'hiro',
    });
    if (!made.ok) throw new Error(made.error.message);
    const phone = await device();
    await phone.goto(`${tracker.running.url}/t/${made.value.token}#/e/${encodeURIComponent(id)}`);
    await phone.locator('main.player-screen[data-seq="0"]').waitFor();
    expect(await pageCall(phone, table.id, '/api/table')).toBe(200);

    const revoked = await http(
      `${tracker.running.url}/api/table/invites/${made.value.info.tokenId}`,
      gmToken,
      'DELETE',
    );
    expect(revoked.status).toBe(200);
    // Both of the page's sockets: the encounter's and the table's channel (docs/web.md).
    await expect
      .poll(async () => (await sockets(phone)).map((s) => [s.url.split('?')[0], s.closed]))
      .toEqual(
        expect.arrayContaining([
          [expect.stringContaining(`/api/encounters/${encodeURIComponent(id)}/live`), 4001],
          [expect.stringContaining('/api/table/live'), 4001],
        ]),
      );
    expect((await sockets(phone)).every((s) => s.closed === 4001)).toBe(true);
    await phone.getByText('This encounter does not open with this link').waitFor();
    expect(await pageCall(phone, table.id, '/api/table')).toBe(401);
    // Its table's address now says to open a link again.
    await phone.goto(`${tracker.running.url}/table/${encodeURIComponent(table.id)}`);
    await phone.getByText('open your table link again').waitFor();
  });
});
