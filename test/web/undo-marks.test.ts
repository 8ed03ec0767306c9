import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  example,
  newTable,
  type Running,
  startEncounterOver,
  startServer,
} from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { ensureWebBuilt, launch } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The log can be trusted after an undo, in real Chromium for each system: a GM acts, undoes and
 * acts again; the undone entry stays marked on the GM's screen and a player's, and the undo's
 * entry names it as each of them saw it.
 */
const CASES = [
  { system: 'ffrpg', example: 'ffrpg-wind-cave', player: 'hiro' },
  { system: 'ffviii', example: 'ffviii-iron-giant', player: 'ehlric' },
  { system: 'zodiac', example: 'zodiac-keef-and-the-ogre', player: 'keef' },
  { system: 'shining-force', example: 'shining-force-gate', player: 'max' },
] as const;

let running: Running;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuilt();
  running = await startServer('sqlite');
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await running?.stop();
  await running?.location.dispose();
});

async function waitSeq(pages: readonly Page[], seq: number): Promise<void> {
  for (const page of pages) await page.locator(`main[data-seq="${seq}"]`).waitFor();
}

describe.each(CASES)('the log on $system', (c) => {
  it('keeps an undone entry marked after later actions, on every screen', async () => {
    const { table, gmToken } = await newTable(running.store, c.system, [c.player]);
    const id = await startEncounterOver(running.url, gmToken, example(c.example), 'undo-marks');
    const token = await running.store.createToken(table.id, {
      role: 'player',
      characterId: c.player,
    });
    if (!token.ok) throw new Error(token.error.message);
    const context = await browser.newContext({ bypassCSP: true });
    try {
      const gm = await context.newPage();
      const player = await context.newPage();
      await gm.goto(`${running.url}/t/${gmToken}#/e/${encodeURIComponent(id)}`);
      await player.goto(`${running.url}/t/${token.value.token}#/e/${encodeURIComponent(id)}`);
      const everyone = [gm, player];
      await waitSeq(everyone, 0);
      const act = async (seq: number) => {
        await gm.locator('.actions .action-list button.action').first().click();
        await gm.locator('form.detail button[type="submit"]').click();
        await waitSeq(everyone, seq);
      };
      await act(1);
      await gm.getByRole('button', { name: '↶ Undo' }).click();
      await waitSeq(everyone, 2);
      await act(3);

      for (const page of everyone) {
        const undone = page.locator('.log-list li[data-seq="1"]');
        await expect.poll(() => undone.getAttribute('class')).toContain('log-undone');
        expect(await undone.textContent()).toContain('(undone)');
        const first = (await undone.locator('.log-line').first().textContent())!;
        expect(await page.locator('.log-list li[data-seq="2"]').textContent()).toBe(
          `Undid #1: ${first}`,
        );
        const later = page.locator('.log-list li[data-seq="3"]');
        expect(await later.getAttribute('class')).not.toContain('log-undone');
      }
    } finally {
      await context.close();
    }
  });
});
