import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { http, newTable } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { readQr, seqOf, serverState, useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * Issue 25's whole evening at the table, in real Chromium, for each system, through the pages
 * alone (the server's API is read only to check what they show): the GM writes a new character
 * (a wrong field first: shown in place, nothing saved) and a new monster in the library, puts
 * the character on the roster, builds a fight of them and starts it; a player joins by the seat's
 * QR code on a phone and plays a turn; the GM ends the fight by touch and finishes it; the
 * campaign page shows the rewards the rules gave, a service is quoted, bought and undone; the GM
 * starts a second fight and the phone, left open, follows into it.
 */
interface Case {
  readonly system: string;
  /** Where the system writes a sheet's maximum HP (as test/web/library.test.ts has it). */
  readonly hp: string;
  /** The hero's fields besides id, name and HP that it needs to fight (on its turn). */
  readonly character: (form: Locator) => Promise<void>;
  /** The monster's other fields: what beating it gives, where the system's rules give anything. */
  readonly monster: (form: Locator) => Promise<void>;
  /** A line of the rewards as this system's rules word them, for the new character and monster. */
  readonly reward: RegExp;
  /**
   * What the campaign page then shows of the rewards: a line of the party's or the hero's sheet
   * by its label, and where its value is in the log's report (the first group).
   */
  readonly shown: readonly (readonly [string, RegExp])[];
  /** The service bought: its button, how its form is filled, and the quote's cost line. */
  readonly service: string;
  readonly fill: (page: Page) => Promise<void>;
  readonly cost: RegExp;
  /** The GM takes a point of the hero's HP by touch, so that a rest has something to do. */
  readonly hurt: boolean;
}

const HERO = { id: 'flow-hero', name: 'Flow Hero' };
const FIEND = { id: 'flow-fiend', name: 'Flow Fiend' };
/** What beating the fiend gives, as the GM writes it on its sheet (FFRPG; Shining Force gold). */
const XP = 300;
const GIL = 120;
const GOLD = 30;

/** An optional group of fields is added with its "+ Label" button; then its boxes are filled. */
async function fillOptional(form: Locator, group: string, values: Record<string, string>) {
  const add = form.locator(`button[name="${group}+"]`);
  if ((await add.count()) > 0) await add.click();
  for (const [key, value] of Object.entries(values)) {
    await form.locator(`input[name="${group}.${key}"]`).fill(value);
  }
}

const CASES: readonly Case[] = [
  {
    system: 'ffrpg',
    hp: 'stats.hp',
    character: async () => {},
    monster: (form) => fillOptional(form, 'rewards', { xp: String(XP), gil: String(GIL) }),
    reward: new RegExp(`The party wins ${XP} XP and ${GIL} Gil\\.`),
    // The one standing character takes the whole share.
    shown: [
      ['XP', new RegExp(`Flow Hero gains ${XP} XP \\((\\d+) in all\\)`)],
      ['Gil', new RegExp(`Flow Hero receives ${GIL} Gil \\((\\d+) in all\\)`)],
      ['HP', /Flow Hero ends with (\d+\/\d+) HP/],
    ],
    service: 'rest',
    fill: (page) => page.getByLabel('gil (optional)').fill('10'),
    cost: /Costs 10 Gil\./,
    hurt: true,
  },
  {
    system: 'ffviii',
    hp: 'hp',
    character: async () => {},
    monster: async () => {},
    reward: /Flow Hero ends with \d+\/40 HP\./,
    shown: [['HP', /Flow Hero ends with (\d+\/\d+) HP/]],
    service: 'rest',
    fill: async () => {},
    cost: /Costs nothing\./,
    hurt: true,
  },
  {
    system: 'zodiac',
    hp: 'stats.hp',
    // Speed: the form starts it at 0, and at 0 a ZODIAC combatant gains no Speed Points.
    character: (form) => form.locator('input[name="stats.speed"]').fill('20'),
    monster: (form) => form.locator('input[name="stats.speed"]').fill('10'),
    reward: /Flow Hero leaves the fight with \d+\/40 HP/,
    shown: [
      ['HP', /Flow Hero leaves the fight with (\d+\/\d+) HP/],
      ['MP', /Flow Hero leaves the fight with \d+\/\d+ HP and (\d+\/\d+) MP/],
    ],
    service: 'rest',
    fill: async () => {},
    cost: /Costs nothing\./,
    hurt: true,
  },
  {
    system: 'shining-force',
    hp: 'stats.hp',
    // A Force member levels up in a class: a new member's form asks for one from the start.
    character: async (form) => {
      await form.locator('select[name="class"]').selectOption('swordsman');
    },
    monster: async (form) => {
      await form.locator('input[name="gold"]').fill(String(GOLD));
    },
    // The Force starts with no gold: all it has is the fiend's.
    reward: new RegExp(`The Force receives ${GOLD} gold \\(${GOLD} in all\\)`),
    shown: [['Gold', /The Force receives \d+ gold \((\d+) in all\)/]],
    service: 'buy',
    fill: async (page) => {
      await page.getByLabel('character').selectOption(HERO.id);
      await page.getByLabel('item').selectOption('medical-herb');
    },
    cost: /Costs 10 gold\./,
    hurt: false,
  },
];

const tracker = useTracker();
const contexts: BrowserContext[] = [];

afterAll(async () => {
  for (const context of contexts) await context.close();
});

async function newContext(phone: boolean): Promise<BrowserContext> {
  const context = await tracker.browser.newContext(
    phone
      ? { viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true, bypassCSP: true }
      : { viewport: { width: 1280, height: 900 }, bypassCSP: true },
  );
  contexts.push(context);
  return context;
}

/** Chooses the first offered action on a screen and commits it; every page shows its entry. */
async function actFirst(page: Page, others: readonly Page[]): Promise<void> {
  const before = await seqOf(page);
  await page.locator('.actions .action-list button.action').first().click();
  await page.locator('form.detail button[type="submit"]').click();
  for (const p of [page, ...others]) await waitSeq(p, before + 1);
}

/** Waits for a page to show an entry; failing, says what the page said instead. */
async function waitSeq(page: Page, seq: number): Promise<void> {
  try {
    await page.locator(`main[data-seq="${seq}"]`).waitFor({ timeout: 15_000 });
  } catch (error) {
    // What the page said instead: a refusal, or what it offers.
    const said = await page
      .locator('.actions, [role="alert"], .refusal')
      .allInnerTexts()
      .catch(() => []);
    throw new Error(`no entry ${seq} on ${page.url()}: ${said.join('\n').slice(-2500)}`, {
      cause: error,
    });
  }
}

/** One GM touch on the fight's screen: it waits for the entry it makes. */
async function touch(gm: Page, act: () => Promise<void>): Promise<void> {
  const before = await seqOf(gm);
  await act();
  await waitSeq(gm, before + 1);
}

interface Listing {
  readonly entries: readonly { kind: string; id: string; name: string }[];
}

/** 1. The library: a sheet written in its form, a wrong HP first (shown beside it, unsaved). */
async function writeSheet(
  gm: Page,
  c: Case,
  tableId: string,
  gmToken: string,
  sheet: 'character' | 'monster',
  who: { id: string; name: string },
  more: (form: Locator) => Promise<void>,
): Promise<void> {
  const kind = `${c.system}/${sheet}`;
  const listing = async () => {
    const got = await http<Listing>(
      `${tracker.running.url}/api/tables/${tableId}/content`,
      gmToken,
      'GET',
    );
    expect(got.status).toBe(200);
    return got.body.entries;
  };
  const before = await listing();
  await gm.locator('select[name="new-kind"]').selectOption(kind);
  await gm.getByRole('button', { name: 'New', exact: true }).click();
  const form = gm.locator('form.content-form');
  await form.locator('input[name="id"]').fill(who.id);
  await form.locator('input[name="name"]').fill(who.name);
  await more(form);
  if (sheet === 'character') {
    await form.locator(`input[name="${c.hp}"]`).fill('-5');
    await form.getByRole('button', { name: 'Save' }).click();
    // The server's refusal, beside the HP field itself; the library as it was.
    const issue = form.locator(`[data-field="${c.hp}"] .field-issue`);
    await issue.waitFor();
    expect((await issue.textContent())?.trim()).not.toBe('');
    expect(await listing(), 'a refused sheet saves nothing').toEqual(before);
  }
  // The hero 40 HP; the fiend 400, so that it stands until the GM ends the fight.
  await form.locator(`input[name="${c.hp}"]`).fill(sheet === 'character' ? '40' : '400');
  await form.getByRole('button', { name: 'Save' }).click();
  await gm.locator(`[data-entry="${kind}/${who.id}"]`).waitFor();
  const after = await listing();
  expect(after.length).toBe(before.length + 1);
  expect(after).toContainEqual(expect.objectContaining({ kind, id: who.id, name: who.name }));
}

/** The GM's table page, by the way back each page offers. */
async function toTable(gm: Page, system: string): Promise<void> {
  await gm
    .getByRole('button', { name: `← Test ${system}` })
    .or(gm.getByRole('button', { name: 'Back to the table' }))
    .or(gm.getByRole('link', { name: '← Back to the table' }))
    .first()
    .click();
  await gm.locator('main.table-page').waitFor();
  await expect.poll(() => gm.locator('textarea[name="file"]').inputValue()).toContain('format: 1');
}

/** 2. The builder: the hero against the fiend, started with a seed; returns the fight's id. */
async function buildAndStart(gm: Page, seed: string): Promise<string> {
  for (const [side, value] of [
    [0, `character:${HERO.id}`],
    [1, `monster:${FIEND.id}`],
  ] as const) {
    const fieldset = gm.locator(`fieldset.side[data-side="${side}"]`);
    await fieldset.locator('select').selectOption(value);
    await fieldset.getByRole('button', { name: 'Add', exact: true }).click();
  }
  await expect.poll(() => gm.locator('textarea[name="file"]').inputValue()).toContain(FIEND.id);
  await gm.getByLabel('Dice seed').fill(seed);
  await gm.getByRole('button', { name: 'Start the encounter' }).click();
  await gm.locator('main.gm-screen[data-seq="0"]').waitFor();
  return decodeURIComponent(/#\/e\/(.+)$/.exec(gm.url())![1]!);
}

/** 3. The hero's seat: a new link, its QR code read as a phone's camera would. */
async function seatLink(gm: Page): Promise<string> {
  const seat = gm.locator(`.seat[data-seat="${HERO.id}"]`);
  await seat.getByRole('button', { name: `New link for ${HERO.id}` }).click();
  await seat.getByRole('img', { name: /QR code of the new link/ }).waitFor();
  const shown = (await seat.locator('.new-link a').getAttribute('href'))!;
  const decoded = await readQr(gm);
  expect(decoded).toBe(shown);
  return decoded!;
}

/** The GM plays (for everyone) until the hero is to act; the phone then takes its turn. */
async function playerTurn(gm: Page, phone: Page, fight: string, gmToken: string): Promise<void> {
  let state = await serverState(tracker.running.url, fight, gmToken);
  for (let i = 0; i < 30 && state.view.actor !== HERO.id && !state.outcome.over; i++) {
    await actFirst(gm, [phone]);
    state = await serverState(tracker.running.url, fight, gmToken);
  }
  expect(state.view.actor).toBe(HERO.id);
  await phone.locator('.actions .action-list button.action').first().waitFor();
  const before = state.seq;
  await actFirst(phone, [gm]);
  const last = (await tracker.running.store.entriesSince(fight, before))[0]!;
  expect(JSON.stringify(last)).toContain(`"actor":"${HERO.id}"`);
}

/** 4. The GM ends the fight by typing the fiend's HP to 0 on its card, and finishes it. */
async function endAndFinish(
  gm: Page,
  phone: Page,
  c: Case,
  fight: string,
  gmToken: string,
): Promise<void> {
  if (c.hurt) {
    const hero = gm.locator(`article[data-combatant="${HERO.id}"]`);
    await touch(gm, () => hero.getByRole('button', { name: `${HERO.name} HP minus 1` }).click());
  }
  const card = gm.locator(`article[data-combatant="${FIEND.id}"]`);
  const field = card.getByRole('textbox', { name: `${FIEND.name} HP`, exact: true });
  await touch(gm, async () => {
    await field.fill('0');
    await field.press('Enter');
  });
  let state = await serverState(tracker.running.url, fight, gmToken);
  for (let i = 0; i < 10 && !state.outcome.over; i++) {
    await actFirst(gm, [phone]);
    state = await serverState(tracker.running.url, fight, gmToken);
  }
  expect(state.outcome.over).toBe(true);
  await gm.locator('.outcome').waitFor();
  await phone.locator('.outcome').waitFor();
  await gm.getByRole('button', { name: 'Finish the fight' }).click();
  await gm.locator('.report').waitFor();
}

interface LogEntry {
  readonly n: number;
  readonly kind: string;
  readonly report: readonly string[];
  readonly undoneAt: string | null;
}

async function campaignLog(gmToken: string): Promise<readonly LogEntry[]> {
  const got = await http<{ entries: LogEntry[] }>(
    `${tracker.running.url}/api/table/campaign-log`,
    gmToken,
    'GET',
  );
  expect(got.status).toBe(200);
  return got.body.entries;
}

type Lines = readonly (readonly [string, string])[];

/** The campaign page's lines of the party and of the hero's sheet, label and value, as shown. */
async function pageLines(gm: Page): Promise<Lines> {
  const rows = gm.locator(
    `.party-lines > div, article.sheet[data-character="${HERO.id}"] .sheet-lines > div`,
  );
  const labels = await rows.locator('dt').allTextContents();
  const values = await rows.locator('dd').allTextContents();
  return labels.map((label, i) => [label, values[i]!] as const);
}

/** The same lines as the server's campaign answer has them. */
async function serverLines(gmToken: string): Promise<Lines> {
  type Line = { label: string; value: string };
  const got = await http<{ party: Line[]; characters: { id: string; lines: Line[] }[] }>(
    `${tracker.running.url}/api/table/campaign`,
    gmToken,
    'GET',
  );
  expect(got.status).toBe(200);
  const hero = got.body.characters.find((x) => x.id === HERO.id)!;
  return [...got.body.party, ...hero.lines].map((l) => [l.label, l.value] as const);
}

/** 5. The campaign page: the rewards as the log has them; a service quoted, bought, undone. */
async function rewardsAndService(gm: Page, c: Case, fight: string, gmToken: string) {
  await gm.getByRole('link', { name: /The campaign/ }).click();
  const history = gm.locator(`.history li[data-fight="${fight}"]`);
  await history.waitFor();
  const rewards = (await campaignLog(gmToken))[0]!;
  expect(rewards.kind).toBe('after-battle');
  const report = rewards.report.join('\n');
  expect(report).toMatch(c.reward);
  // The fight's history and the campaign log show the report line for line.
  for (const line of rewards.report) {
    await history.getByText(line, { exact: true }).first().waitFor();
  }
  const newest = gm.locator('.campaign-log > li').first();
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, laid out as read
  expect(await newest.innerText()).toMatch(c.reward);
  // The party and the hero's sheet: as the server has them, the rewards' figures among them.
  const before = await pageLines(gm);
  expect(before).toEqual(await serverLines(gmToken));
  for (const [label, where] of c.shown) {
    const value = where.exec(report)?.[1];
    expect(value, `${label} in the report`).toBeDefined();
    expect(before).toContainEqual([label, value]);
  }

  // Quoted: the cost shown before Confirm, nothing saved.
  await gm.getByRole('button', { name: c.service, exact: true }).click();
  await c.fill(gm);
  await gm.getByRole('button', { name: 'What would it cost?' }).click();
  const quote = gm.locator('.quote');
  await quote.waitFor();
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, laid out as read
  expect(await quote.innerText()).toMatch(c.cost);
  expect((await campaignLog(gmToken))[0]!.n, 'a quote saves nothing').toBe(rewards.n);
  expect(await pageLines(gm)).toEqual(before);

  // Bought: a new entry, and the page shows what it changed.
  await quote.getByRole('button', { name: 'Confirm' }).click();
  await gm.locator('.campaign-log > li', { hasText: 'service' }).first().waitFor();
  const entry = (await campaignLog(gmToken))[0]!;
  expect(entry).toMatchObject({ kind: 'service', undoneAt: null });
  await expect.poll(() => pageLines(gm)).not.toEqual(before);
  expect(await pageLines(gm)).toEqual(await serverLines(gmToken));

  // Undone: the entry kept and marked, the page back as before.
  await gm.getByRole('button', { name: `Undo entry ${entry.n}` }).click();
  await gm.locator(`.campaign-log > li.undone[data-entry="${entry.n}"]`).waitFor();
  await expect.poll(() => pageLines(gm)).toEqual(before);
  expect(await serverLines(gmToken)).toEqual(before);
  expect((await campaignLog(gmToken))[0]!.undoneAt).not.toBeNull();
}

describe.each(CASES)('a campaign evening of $system in Chromium', (c) => {
  it('library, roster, builder, a phone by QR, rewards, a service undone, and the next fight', async () => {
    const { table, gmToken } = await newTable(tracker.running.store, c.system);
    const gm = await (await newContext(false)).newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}`);

    // 1. The library: the hero (a wrong HP first) and the fiend.
    await gm.getByRole('link', { name: 'Content library' }).click();
    await gm.locator('[data-entry]').first().waitFor();
    await writeSheet(gm, c, table.id, gmToken, 'character', HERO, c.character);
    await writeSheet(gm, c, table.id, gmToken, 'monster', FIEND, c.monster);

    // 2. The hero joins the roster (its seat, its lasting state), and the first fight starts.
    await toTable(gm, c.system);
    const roster = gm.locator('section[aria-labelledby="roster-h"]');
    await roster.getByLabel('Character').selectOption(HERO.id);
    await roster.getByRole('button', { name: 'Add to the roster' }).click();
    await gm
      .locator(`.seat[data-seat="${HERO.id}"]`)
      .or(roster.getByRole('alert'))
      .first()
      .waitFor();
    expect(await roster.getByRole('alert').count(), (await roster.textContent()) ?? '').toBe(0);

    // 3. The hero's player: the link read off the QR code, opened on a phone.
    const link = await seatLink(gm);
    const first = await buildAndStart(gm, `flow-${c.system}-1`);
    const phone = await (await newContext(true)).newPage();
    await phone.goto(link);
    await phone.locator('main.player-screen[data-seq="0"]').waitFor();
    expect(phone.url()).toContain(`#/e/${encodeURIComponent(first)}`);
    // Marked so: a reload would lose it, and following must not reload.
    await phone.evaluate('globalThis.__sameDocument = true');
    await playerTurn(gm, phone, first, gmToken);

    // 4. The end, by the GM's touch, and the rewards applied.
    await endAndFinish(gm, phone, c, first, gmToken);

    // 5. The campaign page.
    await toTable(gm, c.system);
    await rewardsAndService(gm, c, first, gmToken);

    // 6. The second fight: the phone, left open, follows into it by itself.
    await toTable(gm, c.system);
    const second = await buildAndStart(gm, `flow-${c.system}-2`);
    expect(second).not.toBe(first);
    await expect.poll(() => phone.url()).toContain(`#/e/${encodeURIComponent(second)}`);
    await phone.locator('main.player-screen[data-seq="0"]').waitFor();
    expect(await phone.evaluate('globalThis.__sameDocument')).toBe(true);
    // The hero starts it from the roster's lasting state: HP carried where the system keeps it
    // (Shining Force restores everyone standing after a battle, and keeps no HP line).
    const carried = (await serverLines(gmToken)).find(([label]) => label === 'HP')?.[1];
    const bar = phone.locator(`article[data-combatant="${HERO.id}"] .bar-label`).first();
    await expect.poll(() => bar.textContent()).toBe(`HP ${carried ?? '40/40'}`);
  }, 120_000);
});
