import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { stopFallbackPostgres } from '../store/fixtures.js';
import {
  addToSide,
  openBuilder,
  screenPath,
  seriousViolations,
  serverState,
  useTracker,
} from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The encounter builder in real Chromium: the GM picks content into sides, sets options (and,
 * on Shining Force, cells on the field), reads the file it makes, and starts a fight that then
 * plays. FFRPG's countdown then shows a Slow ability's Charge Time and a fixed event.
 */

const tracker = useTracker();

async function preview(gm: Page): Promise<string> {
  return gm.locator('textarea[name="file"]').inputValue();
}

async function start(gm: Page, seed: string): Promise<string> {
  await gm.getByLabel('Dice seed').fill(seed);
  await gm.getByRole('button', { name: 'Start the encounter' }).click();
  await gm.locator('main.gm-screen[data-seq="0"]').waitFor();
  return decodeURIComponent(/#\/e\/(.+)$/.exec(gm.url())![1]!);
}

/** The GM commits an offered action (the first, or the first whose label matches). */
async function act(gm: Page, label?: RegExp): Promise<void> {
  const seq = Number(await gm.locator('main[data-seq]').getAttribute('data-seq'));
  const actions = gm.locator('.actions .action-list button.action');
  await (label ? actions.filter({ hasText: label }) : actions).first().click();
  await gm.locator('form.detail button[type="submit"]').click();
  await gm.locator(`main[data-seq="${seq + 1}"]`).waitFor();
}

async function gmLine(gm: Page, line: string): Promise<void> {
  const seq = Number(await gm.locator('main[data-seq]').getAttribute('data-seq'));
  await gm.locator('input[name="gm-line"]').fill(line);
  await gm.getByRole('button', { name: 'Apply' }).click();
  await gm.locator(`main[data-seq="${seq + 1}"]`).waitFor();
}

describe('the encounter builder', () => {
  it('FFRPG: the Wind Cave picked by hand, with a fixed event; the countdown shows the event and Sleep charging', async () => {
    const { gm, gmToken, context } = await openBuilder(tracker, 'ffrpg', ['hiro', 'haze', 'mint']);

    // Nobody picked yet: the server refuses the file and names the place in it.
    await gm.getByRole('button', { name: 'Start the encounter' }).click();
    await expect
      .poll(() => gm.locator('.builder [role="alert"]').textContent())
      .toMatch(/^sides\[0\]\.combatants/);

    await gm.locator('input[name="encounter-name"]').fill('The Wind Cave, built');
    for (const c of ['hiro', 'haze', 'mint']) await addToSide(gm, 0, `character:${c}`);
    await gm.locator('fieldset.side[data-side="1"]').getByLabel('Side name').fill('The Heket');
    await addToSide(gm, 1, 'monster:heket');
    await gm.getByRole('button', { name: 'Add a fixed event' }).click();
    await gm.locator('[data-event="0"]').getByLabel('Event').fill('The ceiling comes down');
    await gm.locator('[data-event="0"]').getByLabel('Initiative').fill('2');
    await gm.locator('input[name="option-xpToKnockedOut"]').check();
    const file = await preview(gm);
    expect(file).toContain('name: The Wind Cave, built');
    expect(file).toContain('party: true');
    expect(file).toContain('levelTable: standard');
    expect(file).toContain('id: the-ceiling-comes-down');
    expect(file).toContain('xpToKnockedOut: true');
    // Defaults stay out of the file: only what the GM changed is there.
    expect(file).not.toContain('botchAlwaysFails');

    const violations = await seriousViolations(gm);
    expect(
      violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' '))}`),
    ).toEqual([]);

    const id = await start(gm, 'builder-ffrpg');
    let state = await serverState(tracker.running.url, id, gmToken);
    expect(state.view.combatants.map((c) => c.id)).toEqual(['hiro', 'haze', 'mint', 'heket']);
    // The fixed event is on the track, on its count.
    for (let i = 0; i < 10 && state.view.clock['event:the-ceiling-comes-down'] === undefined; i++) {
      await act(gm);
      state = await serverState(tracker.running.url, id, gmToken);
    }
    await gm.locator('[data-marker="event:the-ceiling-comes-down"]').waitFor();

    // Mint declares Sleep (Slow 2): the track shows where its Charge Time runs out.
    for (let i = 0; i < 20 && state.view.actor !== 'mint'; i++) {
      await act(gm);
      state = await serverState(tracker.running.url, id, gmToken);
    }
    expect(state.view.actor).toBe('mint');
    // Someone acts between Mint's count and Sleep's: the GM's clock override puts one there,
    // so the Charge Time is seen running rather than going off at once.
    const now = state.view.clock.initiative as number;
    const later = state.view.combatants.find(
      (c) =>
        c.id !== 'mint' && typeof c.clock.initiative === 'number' && c.clock.initiative < now - 1,
    )!;
    await gmLine(gm, `clock ${later.id} ${now - 1}`);
    await act(gm, /sleep/i);
    state = await serverState(tracker.running.url, id, gmToken);
    const mint = state.view.combatants.find((c) => c.id === 'mint')!;
    expect(mint.clock.charging).toBe('Sleep');
    const charge = gm.locator('[data-marker="charge:mint"]');
    await expect.poll(() => charge.textContent()).toContain("Mint's Sleep");
    expect(await gm.locator('.track').getAttribute('aria-label')).toContain(
      `Mint's Sleep goes off at ${mint.clock.charge}`,
    );
    await gm.locator('.clock').screenshot({ path: screenPath('ffrpg-countdown.png') });
    await context.close();
  }, 120_000);

  it('Shining Force: units start on free cells, one moved by clicking the field; the fight plays', async () => {
    const { gm, gmToken, context } = await openBuilder(tracker, 'shining-force', ['max', 'ken']);
    await gm
      .locator('fieldset.side[data-side="0"]')
      .getByLabel('Side name')
      .fill('The Shining Force');
    await gm.locator('fieldset.side[data-side="1"]').getByLabel('Side name').fill('Runefaust');
    await addToSide(gm, 0, 'character:max');
    await addToSide(gm, 0, 'character:ken');
    await addToSide(gm, 1, 'monster:goblin', 2);
    // The second goblin is named as the file names it.
    await gm.getByRole('button', { name: 'Move Goblin 2', exact: true }).waitFor();
    const cells = gm.locator('.builder [data-testid="cell"]');
    expect(await cells.allTextContents()).toEqual(['A1', 'A2', 'H1', 'H2']);

    // Ken moves: "Move Ken", then a free cell of the field.
    await gm.getByRole('button', { name: 'Move Ken', exact: true }).click();
    await gm.locator('.builder-board button[data-cell="B4"]').click();
    expect(await cells.allTextContents()).toEqual(['A1', 'B4', 'H1', 'H2']);
    const file = await preview(gm);
    expect(file).toContain('force: true');
    expect(file).toContain('id: goblin-2');
    expect(file).toContain('at: B4');
    await gm.locator('input[name="option-maxRounds"]').fill('30');
    await gm.locator('input[name="option-maxRounds"]').blur();
    expect(await preview(gm)).toContain('maxRounds: 30');
    await gm.locator('.builder').screenshot({ path: screenPath('builder-shining-force.png') });
    const violations = await seriousViolations(gm);
    expect(
      violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' '))}`),
    ).toEqual([]);

    const id = await start(gm, 'builder-sf');
    const state = await serverState(tracker.running.url, id, gmToken);
    expect(Object.fromEntries(state.view.combatants.map((c) => [c.id, c.clock.cell]))).toEqual({
      max: 'A1',
      ken: 'B4',
      goblin: 'H1',
      'goblin-2': 'H2',
    });
    await act(gm);
    await act(gm);
    expect((await serverState(tracker.running.url, id, gmToken)).seq).toBe(2);
    await context.close();
  }, 120_000);
});
