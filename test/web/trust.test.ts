import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { example, newTable, startEncounterOver } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * A tracker the table can trust, in real Chromium for each system: a GM acts, undoes and acts
 * again; the undone entry stays marked on the GM's screen and a player's, and the undo's entry
 * names it as each of them saw it. A foe that fled reads fled, not out or down.
 */
const CASES = [
  { system: 'ffrpg', example: 'ffrpg-wind-cave', player: 'hiro', foe: 'heket' },
  { system: 'ffviii', example: 'ffviii-iron-giant', player: 'ehlric', foe: 'iron-giant' },
  { system: 'zodiac', example: 'zodiac-keef-and-the-ogre', player: 'keef', foe: 'ogre' },
  { system: 'shining-force', example: 'shining-force-gate', player: 'max', foe: 'goblin' },
] as const;

const tracker = useTracker();

async function waitSeq(pages: readonly Page[], seq: number): Promise<void> {
  for (const page of pages) await page.locator(`main[data-seq="${seq}"]`).waitFor();
}

/** A fresh encounter of the case, open on the GM's screen and its player's, at entry 0. */
async function opened(c: (typeof CASES)[number]) {
  const { table, gmToken } = await newTable(tracker.running.store, c.system, [c.player]);
  const id = await startEncounterOver(
    tracker.running.url,
    gmToken,
    example(c.example),
    'undo-marks',
  );
  const token = await tracker.running.store.createToken(table.id, {
    role: 'player',
    characterId: c.player,
  });
  if (!token.ok) throw new Error(token.error.message);
  // Two browsers: in one, the player's link would replace the GM's session at this table.
  const gmBrowser = await tracker.browser.newContext({ bypassCSP: true });
  const playerBrowser = await tracker.browser.newContext({ bypassCSP: true });
  const gm = await gmBrowser.newPage();
  const player = await playerBrowser.newPage();
  await gm.goto(`${tracker.running.url}/t/${gmToken}#/e/${encodeURIComponent(id)}`);
  await player.goto(`${tracker.running.url}/t/${token.value.token}#/e/${encodeURIComponent(id)}`);
  await waitSeq([gm, player], 0);
  const context = {
    close: async () => {
      await gmBrowser.close();
      await playerBrowser.close();
    },
  };
  return { context, gm, player };
}

describe.each(CASES)('the tracker on $system', (c) => {
  it('keeps an undone entry marked after later actions, on every screen', async () => {
    const { context, gm, player } = await opened(c);
    try {
      const everyone = [gm, player];
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

  it('shows a foe the GM removed as fled as fled, not out, on every screen', async () => {
    const { context, gm, player } = await opened(c);
    try {
      await gm.locator('input[name="gm-line"]').fill(`remove ${c.foe} fled`);
      await gm.getByRole('button', { name: 'Apply' }).click();
      await waitSeq([gm, player], 1);
      for (const page of [gm, player]) {
        const card = page.locator(`article[data-combatant="${c.foe}"]`).first();
        await expect.poll(() => card.getByTestId('out').textContent()).toBe(' ↗ fled');
      }
      // The player does not see the foe's HP: its band says fled, not down.
      const band = player.locator(`article[data-combatant="${c.foe}"]`).first().getByTestId('band');
      expect(await band.textContent()).toBe('Fled');
    } finally {
      await context.close();
    }
  });
});
