import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { example, newTable, startEncounterOver } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The dice entry slot in real Chromium, for each system's first roll (the table's initiative,
 * Speed Points or turn order): it says what is rolled, with the roller's numbers, and what it
 * takes; an entry that cannot be the roll is refused with every value kept and that field alone
 * marked.
 */
const CASES = [
  // Hiro's SPD is 5 in the Wind Cave: "1d10 + SPD" reads d10 + 5.
  { system: 'ffrpg', example: 'ffrpg-wind-cave', label: 'd10 + 5', range: 'die 0–10 · total 6–15' },
  { system: 'ffviii', example: 'ffviii-iron-giant', label: 'd10', range: 'die 0–10' },
  { system: 'zodiac', example: 'zodiac-keef-and-the-ogre', label: 'd8', range: 'die 1–8' },
  { system: 'shining-force', example: 'shining-force-gate', label: 'd101', range: 'die 1–101' },
] as const;

const tracker = useTracker();

async function gmScreen(system: string, file: string): Promise<Page> {
  const { gmToken } = await newTable(tracker.running.store, system);
  const id = await startEncounterOver(tracker.running.url, gmToken, file, `slot-${system}`);
  const page = await tracker.browser.newPage();
  await page.goto(`${tracker.running.url}/t/${gmToken}#/e/${encodeURIComponent(id)}`);
  await page.locator('main.gm-screen[data-seq="0"]').waitFor();
  return page;
}

describe.each(CASES)('the dice slot for $system', (c) => {
  it('says what is rolled and keeps every value when one entry is refused', async () => {
    const gm = await gmScreen(c.system, example(c.example));
    await gm.locator('.actions .action-list button.action').first().click();
    await gm.getByLabel('Enter dice rolled at the table').check();
    const slots = gm.locator('form.detail .slot');
    expect(await slots.count()).toBeGreaterThan(1);
    const first = slots.first();
    expect(await first.locator('.slot-label').textContent()).toContain(c.label);
    expect(await first.locator('.slot-range').textContent()).toContain(c.range);

    // The second roll is fine, the first cannot be (no die here shows 999).
    const inputs = gm.locator('form.detail input[data-purpose]');
    await inputs.nth(0).fill('999');
    await inputs.nth(1).fill('1');
    await gm.locator('form.detail button[type="submit"]').click();
    expect(await inputs.nth(0).getAttribute('aria-invalid')).toBe('true');
    expect(await inputs.nth(1).getAttribute('aria-invalid')).toBeNull();
    expect(await first.locator('.slot-error').textContent()).toContain('not 999');
    expect(await inputs.nth(0).inputValue()).toBe('999');
    expect(await inputs.nth(1).inputValue()).toBe('1');
    expect(await gm.locator('main').getAttribute('data-seq')).toBe('0');
    await gm.close();
  });
});

describe('a refusal from the server', () => {
  it('opens the action again as typed, the roll it names marked', async () => {
    const gm = await gmScreen('ffviii', example('ffviii-iron-giant'));
    await gm.locator('.actions .action-list button.action').first().click();
    await gm.locator('form.detail button[type="submit"]').click();
    await gm.locator('main.gm-screen[data-seq="1"]').waitFor();
    // A Draw's check is Feng Shui's action dice, whose each face the rules read: one number
    // passes the page (those dice set no bounds) and the server refuses it, naming the roll.
    await gm.locator('.actions button.action', { hasText: 'draw' }).first().click();
    await gm.getByLabel('Enter dice rolled at the table').check();
    expect(await gm.locator('form.detail .slot-label').first().textContent()).toBe(
      'positive die, negative die',
    );
    const input = gm.locator('form.detail input[data-purpose^="draw:"]');
    await input.fill('7');
    await gm.locator('form.detail button[type="submit"]').click();
    await gm.locator('form.detail .slot-error').waitFor();
    const reopened = gm.locator('form.detail input[data-purpose^="draw:"]');
    expect(await reopened.inputValue()).toBe('7');
    expect(await reopened.getAttribute('aria-invalid')).toBe('true');
    expect(await gm.locator('main').getAttribute('data-seq')).toBe('1');
    await gm.close();
  });
});
