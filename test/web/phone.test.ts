import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, newTable, startEncounterOver } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { itIn, serverState, useTracker } from './browser.js';

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
  let gmToken: string;
  let id: string;

  beforeAll(async () => {
    const made = await newTable(tracker.running.store, c.system, [c.player]);
    const table = made.table;
    gmToken = made.gmToken;
    id = await startEncounterOver(tracker.running.url, gmToken, example(c.example), 'phone');
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

  itIn(c.system, 'shining-force')(
    "zooms the GM's battlefield: − and Fit make the cells smaller until the whole board shows, + larger; a tap still lands on its cell, and the zoom stays",
    async () => {
      const zoom = gm.getByRole('group', { name: 'Zoom the battlefield' });
      const button = (name: string) => zoom.getByRole('button', { name, exact: true });
      const readout = gm.getByTestId('board-zoom');
      const wrap = gm.locator('.board-wrap');
      const cells = () =>
        gm.locator('.board td.cell').evaluateAll((tds) => {
          const sides = tds.map((td) => {
            const r = td.getBoundingClientRect();
            return Math.min(r.width, r.height);
          });
          return { min: Math.min(...sides), max: Math.max(...sides) };
        });
      const fits = () => wrap.evaluate((el) => el.scrollWidth <= el.clientWidth + 0.5);

      // As the phone opens it: cells a fingertip, the board panned sideways.
      expect(await readout.textContent()).toBe('100%');
      const start = await cells();
      expect(start.min).toBeGreaterThanOrEqual(44);
      expect(await fits()).toBe(false);
      for (const name of [
        'Zoom out',
        'Zoom in',
        'Fit the whole battlefield in view',
        '100%: cells a fingertip wide',
      ]) {
        const box = await button(name).boundingBox();
        expect(box, name).not.toBeNull();
        expect(Math.min(box!.width, box!.height), name).toBeGreaterThanOrEqual(44);
      }

      await button('Zoom out').tap();
      await expect.poll(() => readout.textContent()).toMatch(/^88%, cells smaller/);
      const out = await cells();
      expect(out.max).toBeLessThan(start.min);
      await button('Fit the whole battlefield in view').tap();
      await expect.poll(fits).toBe(true);
      const fit = await cells();
      expect(fit.max).toBeLessThan(start.min);
      // The whole board in view: no column past the screen's edge.
      const right = await gm
        .locator('.board')
        .evaluate((table) => table.getBoundingClientRect().right);
      expect(right).toBeLessThanOrEqual(WIDTH);
      await moveByTap();

      await button('100%: cells a fingertip wide').tap();
      await expect.poll(async () => (await cells()).min).toBeGreaterThanOrEqual(44);
      await button('Zoom in').tap();
      await expect.poll(() => readout.textContent()).toBe('125%');
      const into = await cells();
      expect(into.min).toBeGreaterThan(start.max);
      expect(await fits()).toBe(false);
      await moveByTap();

      // Kept for the page's session: through the entries just made, and a reload.
      expect(await readout.textContent()).toBe('125%');
      await gm.reload();
      await gm.locator('main[data-seq]').waitFor();
      expect(await readout.textContent()).toBe('125%');
      await button('100%: cells a fingertip wide').tap();
      await expect.poll(() => readout.textContent()).toBe('100%');
    },
    60_000,
  );

  /**
   * The GM moves a foe to a free cell, by touch in "move units" mode, at the zoom chosen: a
   * finger on the unit's cell, then on the free cell farthest right (panned to). The server's
   * state says where the unit went.
   */
  async function moveByTap(): Promise<void> {
    const before = await serverState(tracker.running.url, id, gmToken);
    const foe = before.view.combatants.find(
      (u) => !u.out && !u.party && typeof u.clock.cell === 'string',
    )!;
    await gm.getByRole('button', { name: 'Move units (GM)' }).tap();
    const free = await gm
      .locator('.board td.cell')
      .evaluateAll((tds) =>
        tds
          .filter(
            (td) =>
              td.querySelector('.unit') === null &&
              !/terrain-(rock|water|wall|mountain|river)/.test(td.className),
          )
          .map((td) => td.querySelector('[data-cell]')?.getAttribute('data-cell') ?? ''),
      );
    // The last column's first free cell: at 125% it is off the screen until panned to.
    const to = free.sort((a, b) => b.charCodeAt(0) - a.charCodeAt(0))[0]!;
    const tap = async (cell: string) => {
      const target = gm.locator(`.board button[data-cell="${cell}"]`);
      await target.scrollIntoViewIfNeeded();
      const box = (await target.boundingBox())!;
      await gm.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    };
    await tap(foe.clock.cell as string);
    await expect
      .poll(() =>
        gm.locator(`.board button[data-cell="${foe.clock.cell}"]`).getAttribute('aria-pressed'),
      )
      .toBe('true');
    const next = before.seq + 1;
    await tap(to);
    await waitSeq([gm], next);
    const after = await serverState(tracker.running.url, id, gmToken);
    expect(after.view.combatants.find((u) => u.id === foe.id)?.clock.cell).toBe(to);
    await gm.getByRole('button', { name: 'Done moving units' }).tap();
  }
});
