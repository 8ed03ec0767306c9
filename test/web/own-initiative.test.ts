import type { BrowserContext } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { example, newTable, startEncounterOver } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * FFRPG's Initiative entered on a player's phone in real Chromium: "Rob: (rolling) Woo! 15."
 * The phone offers its own character's slot (d10 + Hiro's SPD of 5), refuses a die no d10 shows
 * in its field, holds the 10; the GM's screen shows Hiro's as entered by players; the GM's
 * begin-round uses it, and the log says it was rolled at the table.
 */
const tracker = useTracker();

describe('a player enters its own Initiative on its phone', () => {
  let phone: BrowserContext | undefined;
  afterAll(async () => {
    await phone?.close();
  });

  it('"Rob: (rolling) Woo! 15.": held, shown to the GM, used when the round begins', async () => {
    const { table, gmToken } = await newTable(tracker.running.store, 'ffrpg');
    const id = await startEncounterOver(
      tracker.running.url,
      gmToken,
      example('ffrpg-wind-cave'),
      'own-initiative',
    );
    const link = await tracker.running.store.createToken(table.id, {
      role: 'player',
      characterId: 'hiro',
    });
    if (!link.ok) throw new Error(link.error.message);

    const gm = await tracker.browser.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}#/e/${encodeURIComponent(id)}`);
    await gm.locator('main.gm-screen[data-seq="0"]').waitFor();
    const hiroOnGm = gm.locator('.order-rolls li[data-purpose="initiative:hiro"]');
    expect(await hiroOnGm.getAttribute('data-held')).toBe('no');

    phone = await tracker.browser.newContext({
      viewport: { width: 375, height: 800 },
      isMobile: true,
      hasTouch: true,
    });
    const player = await phone.newPage();
    await player.goto(`${tracker.running.url}/t/${link.value.token}#/e/${encodeURIComponent(id)}`);
    await player.locator('main.player-screen[data-seq="0"]').waitFor();
    const form = player.locator('form.order-roll');
    expect(await form.locator('h2').textContent()).toContain('Your Initiative');
    expect(await form.locator('.slot-label').textContent()).toBe('d10 + 5');
    expect(await form.locator('.slot-range').textContent()).toContain('die 0–10');
    // Only its own: no slot for Haze, Mint or the Heket on Hiro's phone.
    expect(await player.locator('input[data-order-purpose]').count()).toBe(1);

    const input = form.locator('input[data-order-purpose="initiative:hiro"]');
    await input.fill('11');
    await form.locator('button[type="submit"]').click();
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('.slot-error').textContent()).toContain('not 11');

    await input.fill('10');
    await form.locator('button[type="submit"]').click();
    await form.locator('.order-roll-held[data-held="yes"]').waitFor();
    expect(await form.locator('.order-roll-held').textContent()).toContain('Entered: 10');

    // The GM's screen: Hiro's is in, the others' not.
    await gm.locator('.order-rolls li[data-purpose="initiative:hiro"][data-held="yes"]').waitFor();
    expect(await gm.locator('#order-rolls-h').textContent()).toContain('1 of 3');
    expect(await hiroOnGm.textContent()).toContain('Hiro: 10');
    expect(
      await gm.locator('.order-rolls li[data-purpose="initiative:haze"]').getAttribute('data-held'),
    ).toBe('no');

    // The GM begins the round; the server rolls the rest.
    await gm.locator('.actions button.action', { hasText: /round/i }).first().click();
    await gm.locator('form.detail button[type="submit"]').click();
    await gm.locator('main.gm-screen[data-seq="1"]').waitFor();
    await player.locator('main.player-screen[data-seq="1"]').waitFor();
    const line = gm.locator('.log-list li[data-seq="1"] .log-detail', { hasText: 'Hiro:' });
    expect(await line.textContent()).toMatch(/= 15.*rolled at the table/);
    expect(
      await gm
        .locator('.log-list li[data-seq="1"] .log-detail', { hasText: 'Haze:' })
        .textContent(),
    ).not.toContain('rolled at the table');
    // Spent: the next round's starts empty, on both screens.
    expect(await form.locator('.order-roll-held').getAttribute('data-held')).toBe('');
    expect(await hiroOnGm.getAttribute('data-held')).toBe('no');
    await gm.close();
  });
});
