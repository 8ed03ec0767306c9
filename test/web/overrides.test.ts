import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, newTable, startEncounterOver } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { itIn, screenPath, seriousViolations, useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The GM's overrides by touch, in real Chromium on a tablet for each system: HP by − and + and
 * by typing, a status from the system's picker and its one-click end, a move on the clock (or
 * the Shining Force grid), a combatant added from the table's content and removed. Each touch
 * makes exactly one log entry, worded as the typed `gm` line's is, and undo takes it back.
 */
interface Case {
  readonly system: string;
  readonly example: string;
  /** The combatant the GM works on, by id, and its name on the card. */
  readonly who: string;
  readonly name: string;
  /** HP typed in place: below its maximum. */
  readonly hp: number;
  readonly status: { readonly id: string; readonly timer: string; readonly says: RegExp };
  /** The side and sheet a newcomer is added from. */
  readonly side: string;
  readonly newcomer: string;
  /** How the clock is moved: on a drawn track, on ZODIAC's SP bars, or on the card (turn order). */
  readonly clock: 'track' | 'sp' | 'card';
  /** How the log says it moved to `value`. */
  readonly moved: (value: string) => RegExp;
  readonly removed: RegExp;
  /** A figure of the clock set apart from it (FFVIII's shot debt): its stepper and its log line. */
  readonly counter?: { readonly label: string; readonly says: RegExp };
}

const CASES: readonly Case[] = [
  {
    system: 'ffrpg',
    example: 'ffrpg-wind-cave',
    who: 'heket',
    name: 'Heket',
    hp: 50,
    status: { id: 'poison', timer: '3', says: /Heket: Poison \(3\)/ },
    side: 'enemies',
    newcomer: 'heket',
    clock: 'track',
    moved: (v) => new RegExp(`Heket now acts on Initiative ${v}\\b`),
    removed: /Extra One is dismissed/,
  },
  {
    system: 'ffviii',
    example: 'ffviii-iron-giant',
    who: 'iron-giant',
    name: 'Iron Giant',
    hp: 50,
    status: { id: 'slow', timer: '2', says: /Iron Giant is slowed for 2 rounds/ },
    side: 'giant',
    newcomer: 'iron-giant',
    clock: 'track',
    moved: (v) => new RegExp(`Iron Giant next shot ${v}\\b`),
    removed: /Extra One is sent off/,
    counter: { label: 'Shot debt', says: /GM: Iron Giant shot debt 1\b/ },
  },
  {
    system: 'zodiac',
    example: 'zodiac-keef-and-the-ogre',
    who: 'ogre',
    name: 'Ogre',
    hp: 50,
    status: { id: 'poison', timer: '4', says: /Ogre gets Poison for 4 ticks/ },
    side: 'monsters',
    newcomer: 'harpy',
    clock: 'sp',
    moved: (v) => new RegExp(`Ogre's SP \\d+ -> ${v}\\b`),
    removed: /Extra One is dismissed/,
  },
  {
    system: 'shining-force',
    example: 'shining-force-gate',
    who: 'goblin',
    name: 'Goblin',
    hp: 5,
    status: { id: 'poison', timer: '3', says: /Goblin is poisoned, 3 turns/ },
    side: 'runefaust',
    newcomer: 'giant-bat',
    clock: 'card',
    moved: (v) => new RegExp(`Goblin moves from place \\d+ to ${v} `),
    removed: /Extra One leaves the battle/,
  },
];

const tracker = useTracker();

async function seqOf(page: Page): Promise<number> {
  return Number(await page.locator('main[data-seq]').getAttribute('data-seq'));
}

/** An entry's lines as the GM's log shows them. */
async function logText(page: Page, seq: number): Promise<string> {
  const item = page.locator(`.log-list li[data-seq="${seq}"]`);
  await item.waitFor();
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, laid out as read
  return item.innerText();
}

describe.each(CASES)('the GM overrides $system by touch', (c) => {
  let context: BrowserContext;
  let gm: Page;
  let encounterId: string;
  let card: Locator;

  beforeAll(async () => {
    const { gmToken } = await newTable(tracker.running.store, c.system);
    encounterId = await startEncounterOver(
      tracker.running.url,
      gmToken,
      example(c.example),
      'touch',
    );
    // A tablet held by the GM: touch, and a screen narrower than a laptop's.
    context = await tracker.browser.newContext({
      viewport: { width: 1024, height: 1366 },
      hasTouch: true,
      bypassCSP: true,
    });
    gm = await context.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}#/e/${encodeURIComponent(encounterId)}`);
    await gm.locator('main.gm-screen[data-seq="0"]').waitFor();
    // The round begins, so that everyone has a place on the clock.
    await gm.locator('.actions .action-list button.action').first().click();
    await gm.locator('form.detail button[type="submit"]').click();
    await gm.locator('main.gm-screen[data-seq="1"]').waitFor();
    card = gm.locator(`article[data-combatant="${c.who}"]`);
    await card.locator('.gm-controls').waitFor();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  /** One touch: exactly one new entry in the log (the server's too), its lines returned. */
  async function touch(act: () => Promise<void>): Promise<string> {
    const before = await seqOf(gm);
    await act();
    await gm.locator(`main.gm-screen[data-seq="${before + 1}"]`).waitFor();
    const text = await logText(gm, before + 1);
    expect(await tracker.running.store.entriesSince(encounterId, before)).toHaveLength(1);
    // Nothing else follows it (a second submit of the same touch would be entry before + 2).
    await gm.waitForTimeout(150);
    expect(await seqOf(gm)).toBe(before + 1);
    return text;
  }

  it('changes HP by − and +, and sets it by typing; the log reads as the typed line', async () => {
    const minus = await touch(() =>
      card.getByRole('button', { name: `${c.name} HP minus 1` }).click(),
    );
    expect(minus).toContain(c.name);
    // The same change typed: the log words it the same, the figures aside.
    const typed = await touch(async () => {
      await gm.locator('input[name="gm-line"]').fill(`hp ${c.who} -1`);
      await gm.getByRole('button', { name: 'Apply' }).click();
    });
    const words = (text: string) => text.replace(/\d+/g, '#');
    expect(words(minus)).toBe(words(typed));
    const plus = await touch(() =>
      card.getByRole('button', { name: `${c.name} HP plus 1` }).click(),
    );
    expect(plus).toContain(c.name);

    const field = card.getByRole('textbox', { name: `${c.name} HP`, exact: true });
    // Escape puts the value back and sends nothing.
    const shown = await field.inputValue();
    const seq = await seqOf(gm);
    await field.fill('7');
    await field.press('Escape');
    await expect.poll(() => field.inputValue()).toBe(shown);
    expect(await seqOf(gm)).toBe(seq);
    const set = await touch(async () => {
      await field.fill(String(c.hp));
      await field.press('Enter');
    });
    expect(set).toContain(String(c.hp));
    await expect.poll(() => field.inputValue()).toBe(String(c.hp));
  });

  it('adds a status from the system’s picker, and ends it with one click', async () => {
    const picker = card.getByLabel(`${c.name} status to add`);
    if (c.system === 'ffviii') await picker.fill(c.status.id);
    else await picker.selectOption(c.status.id);
    await card.getByLabel(`${c.name} status duration`, { exact: false }).fill(c.status.timer);
    const added = await touch(() => card.getByRole('button', { name: 'Add status' }).click());
    expect(added).toMatch(c.status.says);
    const chip = card.getByRole('button', { name: new RegExp(`^End ${c.status.id} on`, 'i') });
    await chip.waitFor();
    const ended = await touch(() => chip.click());
    expect(ended).toMatch(/ends|no longer|cured/);
    await expect.poll(() => chip.count()).toBe(0);
  });

  it('moves the combatant on the clock by dragging, and by picking then an arrow', async () => {
    if (c.clock === 'card') {
      const moved = await touch(() =>
        card.getByRole('button', { name: `${c.name} Turn plus 1` }).click(),
      );
      const place = /Goblin moves from place (\d+) to (\d+) in the turn order/.exec(moved);
      expect(Number(place?.[2])).toBe(Number(place?.[1]) + 1);
      expect(moved).toMatch(c.moved(place![2]!));
      return;
    }
    const marker =
      c.clock === 'track'
        ? gm.locator(`g[data-marker="turn:${c.who}"]`)
        : gm.locator(`g[data-sp-row="${c.who}"]`);
    // Picked with a tap, then moved one step by the arrow the bar offers.
    await marker.click();
    const arrows = gm.getByRole('group', { name: `Moving ${c.name}` }).getByRole('button', {
      name: new RegExp(`^Move ${c.name} to \\d+$`),
    });
    const target = (await arrows.first().getAttribute('aria-label'))!.replace(/^.* to /, '');
    const stepped = await touch(() => arrows.first().click());
    expect(stepped).toMatch(c.moved(target));

    // Dragged to a value the drawing labels.
    const svg = gm.locator(c.clock === 'track' ? 'svg.track' : 'svg.sp');
    const now =
      c.clock === 'track'
        ? Number(
            / at (\d+): move$/.exec((await marker.getAttribute('aria-label')) ?? '')?.[1] ?? 'NaN',
          )
        : Number(
            / (\d+) SP: move$/.exec(
              (await marker.locator('rect.sp-hit').getAttribute('aria-label')) ?? '',
            )?.[1],
          );
    const labels = svg.locator('text.tick-label');
    let goal: { value: number; x: number } | undefined;
    for (const label of await labels.all()) {
      const value = Number(await label.textContent());
      const box = await label.boundingBox();
      if (box !== null && value !== now && value > 1) goal = { value, x: box.x + box.width / 2 };
    }
    expect(goal).toBeDefined();
    const shape = marker.locator(c.clock === 'track' ? 'circle, rect' : 'rect.sp-bar').first();
    const from = (await shape.boundingBox()) ?? (await marker.boundingBox())!;
    const y = from.y + from.height / 2;
    const dragged = await touch(async () => {
      await gm.mouse.move(from.x + from.width / 2, y);
      await gm.mouse.down();
      await gm.mouse.move(goal!.x, y, { steps: 8 });
      await gm.mouse.up();
    });
    expect(dragged).toMatch(c.moved(String(goal!.value)));

    if (c.counter !== undefined) {
      const counter = c.counter;
      const debt = await touch(() =>
        card.getByRole('button', { name: `${c.name} ${counter.label} plus 1` }).click(),
      );
      expect(debt).toMatch(counter.says);
    }
  });

  itIn(c.system, 'shining-force')(
    'moves a unit on the grid: tapped then its cell tapped, and dragged; a taken cell is refused',
    async () => {
      const board = gm.locator('table.board');
      await gm.getByRole('button', { name: 'Move units (GM)' }).click();
      const seq = await seqOf(gm);
      const goblin = board.locator('button[data-cell="G2"]');
      await goblin.click();
      await expect.poll(() => goblin.getAttribute('aria-pressed')).toBe('true');
      // G4 holds Goblin 2: a tap there picks that unit instead, and nothing is sent.
      await board.locator('button[data-cell="G4"]').click();
      expect(await seqOf(gm)).toBe(seq);
      await expect.poll(() => goblin.getAttribute('aria-pressed')).toBe('false');
      await goblin.click();
      const free = await freeCellNear(board, ['G3', 'F3', 'F2', 'F1', 'G1', 'H1']);
      const tapped = await touch(() => board.locator(`button[data-cell="${free}"]`).click());
      expect(tapped).toContain(`Goblin is put on ${free} (from G2)`);
      await gm.getByRole('button', { name: 'Done moving units' }).click();

      // Dragged onto a taken cell: the rules refuse it, on the unit's card, and log nothing.
      const taken = await seqOf(gm);
      await gm.locator('[data-unit="goblin"]').dragTo(board.locator('td:has([data-cell="G4"])'));
      await expect.poll(() => card.getByRole('alert').textContent()).toContain('stands on G4');
      expect(await seqOf(gm)).toBe(taken);

      const next = await freeCellNear(board, ['F2', 'F3', 'F1', 'E2', 'E3', 'E1']);
      const dragged = await touch(() =>
        gm.locator('[data-unit="goblin"]').dragTo(board.locator(`td:has([data-cell="${next}"])`)),
      );
      expect(dragged).toContain(`Goblin is put on ${next} (from ${free})`);
    },
  );

  it('adds a combatant from the table’s content, and removes it after a confirmation', async () => {
    const panel = gm.getByRole('region', { name: 'Add a combatant' });
    await panel.getByLabel('Who').selectOption(c.newcomer);
    await panel.getByLabel('Side').selectOption(c.side);
    await panel.getByLabel('Name').fill('Extra One');
    const added = await touch(() => panel.getByRole('button', { name: 'Add' }).click());
    expect(added).toContain('Extra One joins');
    const extra = gm.locator('article[data-combatant="extra-one"]');
    await extra.waitFor();

    await extra.getByRole('button', { name: 'Remove Extra One…' }).click();
    // Nothing is sent before the reason is chosen; keeping it takes the question away.
    const seq = await seqOf(gm);
    await extra.getByRole('button', { name: 'Keep it' }).click();
    expect(await seqOf(gm)).toBe(seq);
    await extra.getByRole('button', { name: 'Remove Extra One…' }).click();
    const removed = await touch(() => extra.getByRole('button', { name: 'Dismiss it' }).click());
    expect(removed).toMatch(c.removed);

    // Undo takes back the last touch, named as it was.
    const undone = await touch(() => gm.getByRole('button', { name: '↶ Undo' }).click());
    expect(undone).toContain('Undid');
    expect(undone).toMatch(c.removed);
    await expect
      .poll(() => extra.getByRole('button', { name: 'Remove Extra One…' }).count())
      .toBe(1);
  });

  it('gives every touch control a fingertip’s size (44 px) and a name, and passes axe', async () => {
    const controls = card.locator('.gm-controls button, .gm-controls input, .gm-controls select');
    expect(await controls.count()).toBeGreaterThan(3);
    for (const control of await controls.all()) {
      const box = await control.boundingBox();
      expect(box, await control.evaluate((e) => e.outerHTML.slice(0, 120))).not.toBeNull();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      expect(box!.width).toBeGreaterThanOrEqual(44);
    }
    const chips = card.locator('.chip-remove');
    for (const chip of await chips.all()) {
      const box = await chip.boundingBox();
      expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
    }
    // With a status on, a marker picked and a removal asked, as the GM would see them.
    const picker = card.getByLabel(`${c.name} status to add`);
    if (c.system === 'ffviii') await picker.fill(c.status.id);
    else await picker.selectOption(c.status.id);
    await card.getByLabel(`${c.name} status duration`, { exact: false }).fill(c.status.timer);
    await touch(() => card.getByRole('button', { name: 'Add status' }).click());
    for (const chip of await card.locator('.chip-remove').all()) {
      const box = await chip.boundingBox();
      expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
    }
    if (c.clock !== 'card')
      await gm
        .locator(
          c.clock === 'track' ? `g[data-marker="turn:${c.who}"]` : `g[data-sp-row="${c.who}"]`,
        )
        .click();
    await card.getByRole('button', { name: `Remove ${c.name}…` }).click();
    await gm.screenshot({ path: screenPath(`gm-overrides-${c.system}.png`), fullPage: true });
    const violations = await seriousViolations(gm);
    expect(
      violations.map(
        (v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
    await card.getByRole('button', { name: 'Keep it' }).click();
  });
});

/** The first of these cells with no unit on it and ground a unit may stand on. */
async function freeCellNear(board: Locator, cells: readonly string[]): Promise<string> {
  for (const cell of cells) {
    const td = board.locator(`td:has([data-cell="${cell}"])`);
    const cls = (await td.getAttribute('class')) ?? '';
    if (/terrain-(rock|water|wall|mountain|river)/.test(cls)) continue;
    if ((await td.locator('.unit').count()) > 0) continue;
    return cell;
  }
  throw new Error(`no free cell among ${cells.join(', ')}`);
}
