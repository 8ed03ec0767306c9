import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, newTable, startEncounterOver } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { itIn, serverState, useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * Screens that read at a glance, in real Chromium for each system: a GM's at 1280 px and a
 * player's phone at 375 px, opened once per system and reused by each check.
 */
const CASES = [
  { system: 'ffrpg', example: 'ffrpg-wind-cave', player: 'hiro' },
  { system: 'ffviii', example: 'ffviii-iron-giant', player: 'ehlric' },
  { system: 'zodiac', example: 'zodiac-keef-and-the-ogre', player: 'keef' },
  { system: 'shining-force', example: 'shining-force-gate', player: 'max' },
] as const;

const tracker = useTracker();

async function waitSeq(pages: readonly Page[], seq: number): Promise<void> {
  for (const page of pages) await page.locator(`main[data-seq="${seq}"]`).waitFor();
}

async function seqOf(page: Page): Promise<number> {
  return Number(await page.locator('main[data-seq]').getAttribute('data-seq'));
}

/**
 * What in the clock is too small to read or cut off, and the page's width, as the page lays it
 * out. Plain JavaScript run in the page: the tests' TypeScript has no DOM types.
 */
const CLOCK_PROBLEMS = `(() => {
    const problems = [];
    const clock = document.querySelector('section.clock');
    const box = clock.getBoundingClientRect();
    const inside = (r, outer) =>
      r.left >= outer.left - 0.5 &&
      r.right <= outer.right + 0.5 &&
      r.top >= outer.top - 0.5 &&
      r.bottom <= outer.bottom + 0.5;
    const walker = document.createTreeWalker(clock, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const el = node.parentElement;
      // Not shown: read aloud only, an SVG's title, a closed <details>' contents.
      if (text === '' || el.closest('.visually-hidden, title, details:not([open]) > :not(summary)'))
        continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      // SVG text is drawn at its font size times the drawing's scale.
      const svg = el.closest('svg');
      const scale = svg ? (svg.getScreenCTM()?.a ?? 1) : 1;
      const size = Number.parseFloat(getComputedStyle(el).fontSize) * scale;
      if (size < 11.95) problems.push(\`"\${text}" is \${size.toFixed(1)} px\`);
      // Inside a region that scrolls, the text must be within what scrolling reaches.
      const scroller = el.closest('.board-wrap');
      let outer = { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      if (scroller) {
        const s = scroller.getBoundingClientRect();
        outer = {
          left: s.left - scroller.scrollLeft,
          right: s.left - scroller.scrollLeft + scroller.scrollWidth,
          top: s.top - scroller.scrollTop,
          bottom: s.top - scroller.scrollTop + scroller.scrollHeight,
        };
      } else if (!inside(r, { left: 0, right: innerWidth, top: -1e6, bottom: 1e6 })) {
        problems.push(\`"\${text}" is outside the screen\`);
      }
      if (!inside(r, outer)) problems.push(\`"\${text}" is cut off its clock\`);
    }
    return { problems, scrollWidth: document.documentElement.scrollWidth };
})()`;

function clockProblems(page: Page): Promise<{ problems: string[]; scrollWidth: number }> {
  return page.evaluate(CLOCK_PROBLEMS);
}

describe.each(CASES)('the screens of $system', (c) => {
  let contexts: BrowserContext[] = [];
  let gm: Page;
  let player: Page;
  let gmToken: string;
  let id: string;

  /** The GM plays the first action on offer, whoever's turn it is; both screens see it. */
  async function gmActs(): Promise<void> {
    const next = (await seqOf(gm)) + 1;
    await gm.locator('.actions .action-list button.action').first().click();
    await gm.locator('form.detail button[type="submit"]').click();
    await waitSeq([gm, player], next);
  }

  beforeAll(async () => {
    const made = await newTable(tracker.running.store, c.system, [c.player]);
    const table = made.table;
    gmToken = made.gmToken;
    id = await startEncounterOver(tracker.running.url, gmToken, example(c.example), 'glance');
    const token = await tracker.running.store.createToken(table.id, {
      role: 'player',
      characterId: c.player,
    });
    if (!token.ok) throw new Error(token.error.message);
    const laptop = await tracker.browser.newContext({
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
    });
    const phone = await tracker.browser.newContext({
      viewport: { width: 375, height: 800 },
      isMobile: true,
      hasTouch: true,
      bypassCSP: true,
    });
    contexts = [laptop, phone];
    gm = await laptop.newPage();
    player = await phone.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}#/e/${encodeURIComponent(id)}`);
    await player.goto(`${tracker.running.url}/t/${token.value.token}#/e/${encodeURIComponent(id)}`);
    await waitSeq([gm, player], 0);
    // A turn or two in, so the clock has something behind it as well as ahead.
    for (let i = 0; i < 2; i++) await gmActs();
  }, 60_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  it('draws a clock whose every label is at least 12 px and fits, on a phone and a laptop', async () => {
    for (const [page, width] of [
      [player, 375],
      [gm, 1280],
    ] as const) {
      const { problems, scrollWidth } = await clockProblems(page);
      expect(problems, `${c.system} at ${width} px`).toEqual([]);
      expect(scrollWidth, `${c.system} at ${width} px`).toBeLessThanOrEqual(width);
    }
  });

  itIn(c.system, 'zodiac')('ticks off who has acted this tick', async () => {
    // The order as text says it too: the drawing agrees with it, on both screens.
    for (const page of [gm, player]) {
      const order = (await page.locator('pre.order').textContent()) ?? '';
      const done = [...order.matchAll(/^. (.+?): SP .*\(done this tick\)/gm)].map((m) => m[1]);
      expect(done.length).toBeGreaterThan(0);
      const acted = await page
        .locator('g.sp-row.acted text.marker-label')
        .evaluateAll((labels) => labels.map((l) => l.textContent ?? ''));
      expect(acted.filter((t) => !t.endsWith(' SP'))).toEqual(done.map((name) => `● ${name} ✓`));
    }
  });

  itIn(c.system, 'ffviii')('lists Spellshards apart from statuses', async () => {
    const next = (await seqOf(gm)) + 1;
    await gm.locator('input[name="gm-line"]').fill('shards ehlric thunder +2');
    await gm.getByRole('button', { name: 'Apply' }).click();
    await waitSeq([gm, player], next);
    for (const page of [gm, player]) {
      const card = page.locator('[data-combatant="ehlric"]');
      expect(await card.getByRole('list', { name: 'Spell Matrix' }).textContent()).toMatch(
        /Thunder ×\d/,
      );
      const statuses = card.getByRole('list', { name: 'Statuses' });
      if ((await statuses.count()) > 0)
        expect(await statuses.textContent()).not.toContain('Thunder');
    }
  });

  itIn(c.system, 'shining-force')(
    'marks every unit on the grid apart, names the terrain, and keeps cells finger-sized',
    async () => {
      for (const page of [gm, player]) {
        const marks = await page
          .locator('.board .unit')
          .evaluateAll((units) => units.map((u) => u.textContent ?? ''));
        // The example has a Goblin and a Goblin 2, a Dark Mage and a Dark Dwarf.
        expect(marks.length).toBeGreaterThan(4);
        expect(new Set(marks).size).toBe(marks.length);
        const terrain = await page.getByRole('list', { name: 'Terrain' }).textContent();
        expect(terrain).toMatch(/plain|grass|forest|hills|water|rock/);
      }
      const sizes = await player.locator('.board td.cell').evaluateAll((cells) =>
        cells.map((cell) => {
          const r = cell.getBoundingClientRect();
          return Math.min(r.width, r.height);
        }),
      );
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(44);
    },
  );

  itIn(c.system, 'shining-force')(
    "has a favicon the page's own security policy lets it show",
    async () => {
      // Without the tests' CSP bypass: the page as a browser gets it.
      const strict = await tracker.browser.newContext();
      try {
        // The GM's session, so the table's address opens the GM's screen here too.
        await strict.addCookies(await gm.context().cookies());
        const page = await strict.newPage();
        await page.goto(gm.url());
        await page.locator('main[data-seq]').waitFor();
        const href = (await page.locator('link[rel="icon"]').getAttribute('href')) ?? '';
        expect(href).toMatch(/^data:image\/svg\+xml,/);
        const width = await page.evaluate(`(async () => {
          const img = new Image();
          img.src = document.querySelector('link[rel="icon"]').href;
          await img.decode();
          return img.naturalWidth;
        })()`);
        expect(width).toBeGreaterThan(0);
      } finally {
        await strict.close();
      }
    },
  );

  // In every system, after the checks above that want the fight as the start left it: the GM
  // plays on here until the player's turn comes, and past it.
  it('tells a player in another tab that their turn has come, and stops once it has gone', async () => {
    const myTurn = () => player.locator('.your-turn').count();
    const actor = async () => (await serverState(tracker.running.url, id, gmToken)).view.actor;
    for (let i = 0; i < 30 && (await myTurn()) > 0; i++) await gmActs();
    expect(await actor()).not.toBe(c.player);
    // The player looks at another tab; the page records what it asks the phone to vibrate.
    await player.evaluate(`(() => {
      window.vibrated = [];
      navigator.vibrate = (pattern) => { window.vibrated.push(pattern); return true; };
    })()`);
    const other = await player.context().newPage();
    await other.bringToFront();
    const title = await player.title();
    expect(title).not.toContain('Your turn');
    for (let i = 0; i < 30 && (await myTurn()) === 0; i++) await gmActs();
    // The server says it is the player's character to act: the page did not just think so.
    expect(await actor()).toBe(c.player);
    expect(await myTurn()).toBe(1);
    expect(await player.title()).toBe(`● Your turn — ${title}`);
    expect(await player.evaluate('window.vibrated.length')).toBe(1);
    // The GM plays the turn for them: the title is the page's again, and nothing more vibrates.
    for (let i = 0; i < 30 && (await myTurn()) > 0; i++) await gmActs();
    expect(await actor()).not.toBe(c.player);
    expect(await player.title()).toBe(title);
    expect(await player.evaluate('window.vibrated.length')).toBe(1);
    await other.close();
  }, 120_000);

  // Last: an abandoned fight takes no more turns.
  itIn(c.system, 'ffviii')(
    'asks before abandoning, and then shows undo as unavailable and takes no more overrides',
    async () => {
      const undo = gm.getByRole('button', { name: '↶ Undo' });
      expect(await undo.isEnabled()).toBe(true);
      expect(await gm.locator('input[name="gm-line"]').count()).toBe(1);
      await gm.getByRole('button', { name: 'Abandon…' }).click();
      await gm.getByText('Abandon this fight?').waitFor();
      await gm.getByRole('button', { name: 'Keep the fight' }).click();
      expect(await gm.getByText('Abandon this fight?').count()).toBe(0);
      expect(await gm.getByText('This encounter is abandoned').count()).toBe(0);

      await gm.getByRole('button', { name: 'Abandon…' }).click();
      await gm.getByRole('button', { name: 'Yes, abandon it' }).click();
      await gm.getByText('This encounter is abandoned').waitFor();
      expect(await undo.isDisabled()).toBe(true);
      expect(await gm.getByTestId('undo-preview').textContent()).toContain(
        'can no longer be undone',
      );
      expect(await gm.locator('input[name="gm-line"]').count()).toBe(0);
      expect(await gm.getByRole('region', { name: 'Add a combatant' }).count()).toBe(0);
    },
  );
});
