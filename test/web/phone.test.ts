import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, newTable, startEncounterOver } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The phone at 375 px, in real Chromium for each system: nothing wider than the screen, and
 * every target a fingertip (44 CSS px; WCAG 2.5.5), on the player's own turn with the actions
 * listed and with an action's dice open to enter, and the GM's screen at the same width.
 */
const CASES = [
  { system: 'ffrpg', example: 'ffrpg-wind-cave', player: 'hiro' },
  { system: 'ffviii', example: 'ffviii-iron-giant', player: 'ehlric' },
  { system: 'zodiac', example: 'zodiac-keef-and-the-ogre', player: 'keef' },
  { system: 'shining-force', example: 'shining-force-gate', player: 'max' },
] as const;

const WIDTH = 375;

/** What the GM touches on each system's clock to move a combatant. */
const CLOCK_TARGETS = {
  ffrpg: '.track g.marker[role="button"]',
  ffviii: '.track g.marker[role="button"]',
  zodiac: '.sp rect.sp-hit[role="button"]',
  'shining-force': '.board button[data-cell]',
} as const;
const tracker = useTracker();

async function waitSeq(pages: readonly Page[], seq: number): Promise<void> {
  for (const page of pages) await page.locator(`main[data-seq="${seq}"]`).waitFor();
}

async function seqOf(page: Page): Promise<number> {
  return Number(await page.locator('main[data-seq]').getAttribute('data-seq'));
}

/**
 * What is wider than the screen, and what is smaller than a fingertip, as the page lays it out.
 * Plain JavaScript run in the page: the tests' TypeScript has no DOM types. What lies inside a
 * region that scrolls sideways on purpose (the grid) is measured by its scroller; text read aloud
 * only (.visually-hidden) is no target.
 */
const PROBLEMS = `(() => {
  const width = ${WIDTH};
  const wide = [];
  const small = [];
  const shown = (el) => {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const name = (el) => {
    const text = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('name') || '').trim();
    const classes = (el.getAttribute('class') || '').trim();
    return el.tagName.toLowerCase() + (classes ? '.' + classes.split(/ +/).join('.') : '') + ' "' + text.slice(0, 40) + '"';
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el) || el.closest('.visually-hidden')) continue;
    const scroller = el.parentElement && el.parentElement.closest('.board-wrap');
    if (scroller) continue;
    const r = el.getBoundingClientRect();
    if (r.right > width + 0.5 || r.left < -0.5) wide.push(name(el) + ' spans ' + r.left.toFixed(0) + '..' + r.right.toFixed(0));
  }
  const targets = document.querySelectorAll('button, a[href], input, select, textarea, summary, [role=button]');
  for (const el of targets) {
    if (!shown(el) || el.closest('.visually-hidden')) continue;
    // A radio or a box to tick is touched through its label: the label is the target.
    const type = el.getAttribute('type');
    const target = (type === 'radio' || type === 'checkbox') && el.closest('label') ? el.closest('label') : el;
    const r = target.getBoundingClientRect();
    const text = el.tagName === 'INPUT' && type !== 'radio' && type !== 'checkbox' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA';
    // A field to type in is as wide as its row; its height is what a finger aims at.
    if (r.height < 43.5 || (!text && r.width < 43.5))
      small.push(name(target) + ' is ' + r.width.toFixed(0) + 'x' + r.height.toFixed(0));
  }
  return { wide, small, scrollWidth: document.documentElement.scrollWidth };
})()`;

function problems(page: Page): Promise<{ wide: string[]; small: string[]; scrollWidth: number }> {
  return page.evaluate(PROBLEMS);
}

describe.each(CASES)('the phone at 375 px in $system', (c) => {
  let contexts: BrowserContext[] = [];
  let gm: Page;
  let player: Page;

  beforeAll(async () => {
    const { table, gmToken } = await newTable(tracker.running.store, c.system, [c.player]);
    const id = await startEncounterOver(tracker.running.url, gmToken, example(c.example), 'phone');
    const token = await tracker.running.store.createToken(table.id, {
      role: 'player',
      characterId: c.player,
    });
    if (!token.ok) throw new Error(token.error.message);
    const phone = () =>
      tracker.browser.newContext({
        viewport: { width: WIDTH, height: 667 },
        isMobile: true,
        hasTouch: true,
        bypassCSP: true,
      });
    contexts = [await phone(), await phone()];
    gm = await contexts[0]!.newPage();
    player = await contexts[1]!.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}#/e/${encodeURIComponent(id)}`);
    await player.goto(`${tracker.running.url}/t/${token.value.token}#/e/${encodeURIComponent(id)}`);
    await waitSeq([gm, player], 0);
    // The GM plays everyone else until the player's turn comes.
    const mine = () => player.locator('.actions .action-list button.action').count();
    for (let i = 0; i < 30 && (await mine()) === 0; i++) {
      const next = (await seqOf(gm)) + 1;
      await gm.locator('.actions .action-list button.action').first().click();
      await gm.locator('form.detail button[type="submit"]').click();
      await waitSeq([gm, player], next);
    }
    expect(await mine()).toBeGreaterThan(0);
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  it("the player's turn, its actions listed: nothing past the screen, every target 44 px", async () => {
    const found = await problems(player);
    expect(found.wide.join('\n'), 'wider than the screen').toBe('');
    expect(found.scrollWidth).toBeLessThanOrEqual(WIDTH);
    expect(found.small.join('\n'), 'smaller than a fingertip').toBe('');
  });

  it('an action opened with its dice to enter: the same', async () => {
    await player.locator('.actions .action-list button.action').first().click();
    const enter = player.getByText('Enter dice rolled at the table');
    if ((await enter.count()) > 0) {
      await enter.click();
      await player.locator('.slots input[data-purpose]').first().waitFor();
    }
    const found = await problems(player);
    expect(found.wide.join('\n'), 'wider than the screen').toBe('');
    expect(found.scrollWidth).toBeLessThanOrEqual(WIDTH);
    expect(found.small.join('\n'), 'smaller than a fingertip').toBe('');
    await player.getByRole('button', { name: 'Choose another' }).click();
  });

  it("the GM's screen at 375 px: nothing past the screen, every target 44 px, and the fight's own examples", async () => {
    const found = await problems(gm);
    expect(found.wide.join('\n'), 'wider than the screen').toBe('');
    expect(found.scrollWidth).toBeLessThanOrEqual(WIDTH);
    expect(found.small.join('\n'), 'smaller than a fingertip').toBe('');
    const examples = await gm.getByTestId('gm-examples').textContent();
    const names = await gm
      .locator('[data-combatant]')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-combatant') ?? ''));
    expect(names.length).toBeGreaterThan(0);
    // FFRPG's Heket is FFRPG's alone.
    if (c.system !== 'ffrpg') expect(examples?.toLowerCase()).not.toContain('heket');
    expect(examples).toMatch(/hp \S+/);
  });

  it("the GM's clock at 375 px: every marker, Speed Point bar or cell the GM moves is 44 px", async () => {
    const targets = gm.locator(CLOCK_TARGETS[c.system]);
    if (c.system === 'shining-force') {
      // Moving units makes every cell a button, not only those the actor reaches.
      await gm.getByRole('button', { name: 'Move units (GM)' }).click();
      expect(await targets.count()).toBe(await gm.locator('.board td.cell').count());
    } else {
      // FFVIII's shot track is empty until the round begins: the GM plays on until it is not.
      for (let i = 0; i < 5 && (await targets.count()) === 0; i++) {
        const next = (await seqOf(gm)) + 1;
        await gm.locator('.actions .action-list button.action').first().click();
        await gm.locator('form.detail button[type="submit"]').click();
        await waitSeq([gm], next);
      }
    }
    expect(await targets.count()).toBeGreaterThan(1);
    const found = await problems(gm);
    expect(found.wide.join('\n'), 'wider than the screen').toBe('');
    expect(found.scrollWidth).toBeLessThanOrEqual(WIDTH);
    expect(found.small.join('\n'), 'smaller than a fingertip').toBe('');
    // No two of them overlap: a fingertip on one never lands on its neighbour.
    const boxes = await targets.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.right <= b.left + 0.5 ||
          b.right <= a.left + 0.5 ||
          a.bottom <= b.top + 0.5 ||
          b.bottom <= a.top + 0.5;
        expect(apart, `${JSON.stringify(a)} and ${JSON.stringify(b)} overlap`).toBe(true);
      }
    if (c.system === 'shining-force')
      await gm.getByRole('button', { name: 'Done moving units' }).click();
  });
});
