import { afterAll, describe, expect, it } from 'vitest';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { addToSide, openBuilder, seriousViolations, useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The builder's balance in real Chromium: the draft's predicted win rate appears as it is
 * built, and a tune of how many ogres Keef faces runs with its progress bar and writes its
 * answer into the draft with "Use this"; so does a tune of the ogre's HP (its `maxHp:`), and the
 * encounter started from that draft has the ogre at that HP.
 */

const tracker = useTracker();

describe('the builder’s balance', () => {
  it('predicts the draft, tunes the ogre count with progress, and Use this puts it in the draft', async () => {
    const { gm, context } = await openBuilder(tracker, 'zodiac', ['keef']);
    await addToSide(gm, 0, 'character:keef');
    await addToSide(gm, 1, 'monster:ogre');

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

  it('tunes the ogre’s HP, and Use this puts maxHp in the draft and the ogre at it in the fight', async () => {
    const { gm, context } = await openBuilder(tracker, 'zodiac', ['keef']);
    await addToSide(gm, 0, 'character:keef');
    await addToSide(gm, 1, 'monster:ogre');
    expect(await gm.locator('textarea[name="file"]').inputValue()).not.toContain('maxHp');

    await gm.locator('select[name="tune-field"]').selectOption('hp');
    await gm.locator('input[name="tune-low"]').fill('100');
    await gm.locator('input[name="tune-high"]').fill('4000');
    await gm.locator('input[name="tune-target"]').fill('75');
    await gm.getByRole('button', { name: 'Start the tune' }).click();
    const result = gm.locator('[data-testid="tune-result"]');
    await result.waitFor({ timeout: 120_000 });
    const text = (await result.textContent()) ?? '';
    expect(text).toMatch(/Ogre at (\d+) HP: party win rate \d+%/);
    expect(text).not.toContain('no maximum-HP override');
    const hp = Number(/Ogre at (\d+) HP/.exec(text)![1]);
    // Not the sheet's 900: the fight below must show the draft's value, not the sheet's.
    expect(hp).not.toBe(900);

    await gm.getByRole('button', { name: 'Use this' }).click();
    await expect
      .poll(() => gm.locator('textarea[name="file"]').inputValue())
      .toMatch(new RegExp(`maxHp: ${hp}\\b`));
    const ogre = gm.locator('fieldset.side[data-side="1"] li[data-combatant="ogre"]');
    expect(await ogre.locator('[data-testid="max-hp"]').textContent()).toBe(`${hp} HP`);

    await gm.getByRole('button', { name: 'Start the encounter' }).click();
    await gm.locator('main.gm-screen[data-seq="0"]').waitFor();
    const card = gm.locator('article[data-combatant="ogre"]');
    await expect
      .poll(() => card.locator('.bar-label').first().textContent())
      .toBe(`HP ${hp}/${hp}`);
    await context.close();
  }, 240_000);
});
