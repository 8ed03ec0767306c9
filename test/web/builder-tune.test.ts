import { afterAll, describe, expect, it } from 'vitest';
import { newTable } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { seriousViolations, useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The builder's balance in real Chromium: the draft's predicted win rate appears as it is
 * built, and a tune of how many ogres Keef faces runs with its progress bar and writes its
 * answer into the draft with "Use this".
 */

const tracker = useTracker();

describe('the builder’s balance', () => {
  it('predicts the draft, tunes the ogre count with progress, and Use this puts it in the draft', async () => {
    const { gmToken } = await newTable(tracker.running.store, 'zodiac', ['keef']);
    const context = await tracker.browser.newContext({
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
    });
    const gm = await context.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}`);
    await expect
      .poll(() => gm.locator('textarea[name="file"]').inputValue())
      .toContain('format: 1');
    const add = async (side: number, value: string) => {
      const fieldset = gm.locator(`fieldset.side[data-side="${side}"]`);
      await fieldset.locator('select').selectOption(value);
      await fieldset.getByRole('button', { name: 'Add', exact: true }).click();
    };
    await add(0, 'character:keef');
    await add(1, 'monster:ogre');

    const predicted = gm.locator('[data-testid="predicted"]');
    await expect
      .poll(() => predicted.textContent(), { timeout: 60_000 })
      .toMatch(/Predicted party win rate: \d+% \(95% interval \d+%–\d+%, 300 battles\)/);

    await gm.locator('select[name="tune-field"]').selectOption('count');
    await gm.locator('input[name="tune-high"]').fill('6');
    await gm.locator('input[name="tune-target"]').fill('25');
    await gm.getByRole('button', { name: 'Start the tune' }).click();
    await gm.locator('[data-testid="tune-progress"]').waitFor();
    const result = gm.locator('[data-testid="tune-result"]');
    await result.waitFor({ timeout: 120_000 });
    const text = (await result.textContent()) ?? '';
    expect(text).toMatch(/(\d+) × Ogre: party win rate \d+% \(95% interval \d+%–\d+%/);
    expect(text).toMatch(/on target|the closest we could get/);
    const count = Number(/(\d+) × Ogre/.exec(text)![1]);

    const violations = await seriousViolations(gm);
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await gm.getByRole('button', { name: 'Use this' }).click();
    await expect
      .poll(async () => {
        const file = await gm.locator('textarea[name="file"]').inputValue();
        return file.match(/monster: ogre/g)?.length ?? 0;
      })
      .toBe(count);
    await context.close();
  }, 240_000);
});
