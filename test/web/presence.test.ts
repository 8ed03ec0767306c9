import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  example,
  newTable,
  type Running,
  startEncounterOver,
  startServer,
} from '../server/harness.js';
import { ensureWebBuilt, launch, seriousViolations } from './browser.js';

let running: Running;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuilt();
  running = await startServer('sqlite', undefined, { presenceGraceMs: 300 });
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await running?.stop();
  await running?.location.dispose();
});

describe("the GM screen's list of who is connected", () => {
  it('shows a player coming, on two devices, reconnecting and gone', async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg', ['hiro']);
    const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'), 'web');
    const made = await running.store.createToken(table.id, { role: 'player', characterId: 'hiro' });
    if (!made.ok) throw new Error(made.error.message);
    const context = await browser.newContext({ bypassCSP: true });
    try {
      const gm = await context.newPage();
      await gm.goto(`${running.url}/t/${gmToken}#/e/${encodeURIComponent(id)}`);
      const list = gm.getByRole('region', { name: 'Connected' }).locator('li');
      await expect.poll(() => list.allTextContents()).toEqual(['GM']);

      const first = await Client.connect(running.url, id, made.value.token);
      const second = await Client.connect(running.url, id, made.value.token);
      await expect.poll(() => list.allTextContents()).toEqual(['GM', 'Hiro']);
      // The count of devices arrives with the next state: a reload of the GM's page.
      await gm.reload();
      await expect.poll(() => list.allTextContents()).toEqual(['GM', 'Hiro (2 devices)']);
      expect(await seriousViolations(gm)).toEqual([]);

      first.close();
      second.close();
      await expect.poll(() => list.allTextContents()).toContain('Hiro (reconnecting…)');
      await expect.poll(() => list.allTextContents()).toEqual(['GM']);
    } finally {
      await context.close();
    }
  });
});
