import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { example, newTable } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { screenPath, seriousViolations, serverState, useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The web tracker end to end, in real Chromium against a real server on SQLite: for each
 * system a GM and two players, each in their own browser context, play a fight from its start
 * to its end through the pages alone (the test reads the server only to check them).
 */

interface Case {
  readonly system: string;
  readonly example: string;
  /** The two players' characters (FFVIII's starter content has one: two devices of its player). */
  readonly players: readonly [string, string];
  /** The example as the test starts it: a second party member where the example has one. */
  readonly file?: (text: string) => string;
  /** The first roll of the fight, as read off a physical die: what the die shows. */
  readonly die: string;
  /** The first roll entered as a total with its modifiers, with the slot's "total" switch. */
  readonly total?: boolean;
}

const CASES: readonly Case[] = [
  // "Rob: (rolling) Woo! 15.": an Initiative called out as d10 + SPD, marked as a total.
  {
    system: 'ffrpg',
    example: 'ffrpg-wind-cave',
    players: ['hiro', 'haze'],
    die: '15',
    total: true,
  },
  { system: 'ffviii', example: 'ffviii-iron-giant', players: ['ehlric', 'ehlric'], die: '7' },
  {
    system: 'zodiac',
    example: 'zodiac-keef-and-the-ogre',
    players: ['keef', 'diff'],
    die: '5',
    file: (text) =>
      text.replace(
        '      - character: keef\n',
        '      - character: keef\n      - character: diff\n',
      ),
  },
  { system: 'shining-force', example: 'shining-force-gate', players: ['max', 'ken'], die: '42' },
];

const tracker = useTracker();

async function seqOf(page: Page): Promise<number> {
  return Number(await page.locator('main[data-seq]').getAttribute('data-seq'));
}

async function waitSeq(page: Page, seq: number): Promise<void> {
  try {
    await page.locator(`main[data-seq="${seq}"]`).waitFor({ timeout: 15_000 });
  } catch (error) {
    // What the page said instead: a refusal, or where it stands.
    const said = await page
      .locator('main')
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, laid out as read
      .innerText()
      .catch(() => '');
    throw new Error(`no entry ${seq} on ${page.url()}: ${said.slice(-2500)}`, { cause: error });
  }
}

/** Chooses the first offered action on a screen and commits it with the server's dice. */
async function actFirst(page: Page, others: readonly Page[] = []): Promise<number> {
  const before = await seqOf(page);
  await page.locator('.actions .action-list button.action').first().click();
  await page.locator('form.detail button[type="submit"]').click();
  for (const p of [page, ...others]) await waitSeq(p, before + 1);
  return before + 1;
}

async function gmLine(page: Page, line: string, others: readonly Page[]): Promise<void> {
  const before = await seqOf(page);
  await page.locator('input[name="gm-line"]').fill(line);
  await page.getByRole('button', { name: 'Apply' }).click();
  for (const p of [page, ...others]) await waitSeq(p, before + 1);
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await seriousViolations(page);
  expect(
    violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
    what,
  ).toEqual([]);
}

describe.each(CASES)('the web tracker for $system', (c) => {
  let gmContext: BrowserContext;
  let playerContexts: BrowserContext[];

  afterAll(async () => {
    await gmContext?.close();
    for (const p of playerContexts ?? []) await p.close();
  });

  it('lets a GM and two players play a fight to its end, live, and agree with the server', async () => {
    const characters = [...new Set(c.players)];
    const { table, gmToken } = await newTable(tracker.running.store, c.system, characters);
    void table;
    gmContext = await tracker.browser.newContext({
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
    });
    const gm = await gmContext.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}`);
    await expect.poll(() => gm.locator('h1').textContent()).toContain(`Test ${c.system}`);

    // Invites, from the seats on the GM's table page: each link is shown to be handed over.
    const links: string[] = [];
    for (const character of c.players) {
      const seat = gm.locator(`.seat[data-seat="${character}"]`);
      await seat.getByRole('button', { name: `New link for ${character}` }).click();
      const link = seat.locator('.new-link a');
      await expect
        .poll(async () => (await link.getAttribute('href')) ?? '')
        .not.toBe(links.at(-1) ?? '');
      links.push((await link.getAttribute('href'))!);
    }
    expect(new Set(links).size).toBe(2);

    // The GM starts the fight from the example's text, with a fixed seed.
    const text = example(c.example);
    await gm.locator('textarea[name="file"]').fill(c.file ? c.file(text) : text);
    await gm.getByLabel('Dice seed').fill(`web-${c.system}`);
    await gm.getByRole('button', { name: 'Start the encounter' }).click();
    await gm.locator('main.gm-screen[data-seq="0"]').waitFor();
    const encounterId = decodeURIComponent(/#\/e\/(.+)$/.exec(gm.url())![1]!);

    playerContexts = [];
    const players: Page[] = [];
    for (const link of links) {
      const context = await tracker.browser.newContext({
        viewport: { width: 375, height: 800 },
        isMobile: true,
        hasTouch: true,
        bypassCSP: true,
      });
      playerContexts.push(context);
      const page = await context.newPage();
      await page.goto(link);
      await page.locator('main.player-screen[data-seq="0"]').waitFor();
      players.push(page);
    }
    const everyone = [gm, ...players];
    const tokens = links.map((l) => l.split('/t/')[1]!);

    // 1. A physical die: the GM enters the first roll of the first action by hand.
    await gm.locator('.actions .action-list button.action').first().click();
    const slot = gm.locator('form.detail input[data-purpose]').first();
    await gm.getByLabel('Enter dice rolled at the table').check();
    await slot.fill(c.die);
    const purpose = (await slot.getAttribute('data-purpose'))!;
    if (c.total) await gm.locator(`form.detail input[data-total-for="${purpose}"]`).check();
    await gm.locator('form.detail button[type="submit"]').click();
    for (const p of everyone) await waitSeq(p, 1);
    await gm.locator('.log-list li[data-seq="1"]').waitFor();
    const firstEntry = await tracker.running.store.entriesSince(encounterId, 0);
    expect(JSON.stringify(firstEntry[0])).toContain(`"purpose":"${purpose}"`);
    expect(JSON.stringify(firstEntry[0])).toContain('"entered":true');
    const recorded = new RegExp(`"purpose":"${purpose}","notation":"[^"]*","total":(\\d+)`);
    const total = Number(recorded.exec(JSON.stringify(firstEntry[0]))?.[1]);
    // The others' first rolls have no modifiers: the face is the total; FFRPG's is marked.
    expect(total).toBe(Number(c.die));

    // 2. Undo, after being told what it takes back; redo is then offered.
    await actFirst(gm, players);
    const preview = await gm.getByTestId('undo-preview').textContent();
    expect(preview).toContain('Undo takes back #2');
    await gm.getByRole('button', { name: '↶ Undo' }).click();
    for (const p of everyone) await waitSeq(p, 3);
    expect((await serverState(tracker.running.url, encounterId, gmToken)).redoable).toBe(1);
    await expect
      .poll(() => gm.locator('.log-list li[data-seq="3"]').textContent())
      .toContain('Undid');

    // Play on (the GM for everyone) until a player's character is to act.
    let state = await serverState(tracker.running.url, encounterId, gmToken);
    for (let i = 0; i < 40 && !c.players.includes(state.view.actor ?? ''); i++) {
      await actFirst(gm, players);
      state = await serverState(tracker.running.url, encounterId, gmToken);
    }
    const actor = state.view.actor!;
    expect(c.players).toContain(actor);
    const at = c.players.indexOf(actor);
    const phone = players[at]!;
    const phoneContext = playerContexts[at]!;
    await phone.locator('.actions .action-list button.action').first().waitFor();
    await phone.screenshot({ path: screenPath(`${c.system}-player.png`), fullPage: true });
    await gm.screenshot({ path: screenPath(`${c.system}-gm.png`), fullPage: true });
    await expectAccessible(phone, `${c.system} player screen`);
    await expectAccessible(gm, `${c.system} GM screen`);

    // The phone offers a slot only for its own character's dice: rolls made against it, or by
    // the table, are not its to enter (the server would refuse them, role/not-your-roll).
    await phone.locator('.actions .action-list button.action').first().click();
    const label = await phone.locator('form.detail h3').textContent();
    const offered = (await serverState(tracker.running.url, encounterId, tokens[at]!)).actions.find(
      (a) => a.label === label,
    )!;
    const mine = offered.rolls.filter((r) => r.roller === actor).map((r) => r.purpose);
    if (mine.length > 0) {
      await phone.getByLabel('Enter dice rolled at the table').check();
      const shown = await phone
        .locator('form.detail input[data-purpose]')
        .evaluateAll((inputs) => inputs.map((input) => input.getAttribute('data-purpose')));
      expect(shown).toEqual(mine);
    } else {
      expect(await phone.getByLabel('Enter dice rolled at the table').count()).toBe(0);
    }
    await phone.getByRole('button', { name: 'Choose another' }).click();

    // 3. The phone drops; meanwhile the GM acts for its character; the phone, still showing
    // its turn, chooses an action; back online it catches up and hears it was refused.
    await phoneContext.setOffline(true);
    await phone.locator('.connection-offline').waitFor();
    const seqBefore = await seqOf(phone);
    await actFirst(
      gm,
      players.filter((p) => p !== phone),
    );
    await phone.locator('.actions .action-list button.action').first().click();
    await phone.locator('form.detail button[type="submit"]').click();
    await phone.locator('.pending', { hasText: 'Waiting for the connection' }).waitFor();
    await phoneContext.setOffline(false);
    await waitSeq(phone, seqBefore + 1);
    const refusal = phone.locator('.actions [role="alert"]');
    await expect.poll(() => refusal.textContent()).toContain('moved on');
    await phone.locator('.connection-open', { hasText: 'caught up' }).waitFor();
    expect(await tracker.running.store.lastSeq(encounterId)).toBe(seqBefore + 1);

    // 4. A player acts from the phone on its own turn.
    state = await serverState(tracker.running.url, encounterId, gmToken);
    for (let i = 0; i < 60 && !c.players.includes(state.view.actor ?? ''); i++) {
      await actFirst(gm, players);
      state = await serverState(tracker.running.url, encounterId, gmToken);
    }
    expect(c.players).toContain(state.view.actor);
    const turn = players[c.players.indexOf(state.view.actor!)]!;
    const dismiss = turn.getByRole('button', { name: 'Dismiss' });
    if ((await dismiss.count()) > 0) await dismiss.click();
    const reachable = turn.locator('.cell.reach button');
    if (c.system === 'shining-force') {
      // On the grid, a move is chosen by clicking a cell the unit can reach.
      const before = await seqOf(turn);
      const cell = (await reachable.first().getAttribute('data-cell'))!;
      await reachable.first().click();
      await turn.locator('form.detail button[type="submit"]').click();
      for (const p of everyone) await waitSeq(p, before + 1);
      const moved = await serverState(tracker.running.url, encounterId, gmToken);
      expect(moved.view.combatants.find((x) => x.id === state.view.actor)?.clock.cell).toBe(cell);
    } else {
      await actFirst(
        turn,
        everyone.filter((p) => p !== turn),
      );
    }

    // 5. GM overrides end the fight: every foe loses what HP it has.
    state = await serverState(tracker.running.url, encounterId, gmToken);
    for (const foe of state.view.combatants.filter((x) => !x.party && !x.out)) {
      await gmLine(gm, `damage ${foe.id} ${foe.hp! + 1000}`, players);
    }
    state = await serverState(tracker.running.url, encounterId, gmToken);
    for (let i = 0; i < 10 && !state.outcome.over; i++) {
      await actFirst(gm, players);
      state = await serverState(tracker.running.url, encounterId, gmToken);
    }
    expect(state.outcome.over).toBe(true);
    await gm.locator('.outcome').waitFor();
    for (const p of players) await p.locator('.outcome').waitFor();

    // All screens agree with the server.
    const final = await serverState(tracker.running.url, encounterId, gmToken);
    for (const p of everyone) expect(await seqOf(p)).toBe(final.seq);
    for (const combatant of final.view.combatants) {
      const card = gm.locator(`.gm-screen article[data-combatant="${combatant.id}"]`);
      if (combatant.hp !== null && combatant.maxHp !== null) {
        expect(await card.locator('.bar-label').first().textContent()).toBe(
          `HP ${combatant.hp}/${combatant.maxHp}`,
        );
      }
    }
    for (const [i, p] of players.entries()) {
      const seen = await serverState(tracker.running.url, encounterId, tokens[i]!);
      expect(seen.seq).toBe(final.seq);
      for (const combatant of seen.view.combatants) {
        const card = p.locator(`article[data-combatant="${combatant.id}"]`);
        if (combatant.hidden) {
          expect(await card.getByTestId('band').textContent()).toBe(
            combatant.band === 'fled' ? 'Fled' : `HP: ${combatant.band}`,
          );
        } else {
          expect(await card.locator('.bar-label').first().textContent()).toBe(
            `HP ${combatant.hp}/${combatant.maxHp}`,
          );
        }
      }
      const logCount = await p.locator('.log-list > li').count();
      expect(logCount).toBeGreaterThan(0);
    }

    // The GM finishes the fight and reads the report.
    await gm.getByRole('button', { name: 'Finish the fight' }).click();
    await gm.locator('.report').waitFor();
    expect((await tracker.running.store.getEncounter(encounterId))?.status).toBe('finished');
  }, 150_000);
});
