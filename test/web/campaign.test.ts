import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { StatePayload } from '../../src/server/protocol.js';
import type { RosterEntry } from '../../src/store/index.js';
import {
  Client,
  example,
  type Heard,
  http,
  newTable,
  ROOT,
  startEncounterOver,
} from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { screenPath, useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The campaign page in real Chromium, for each system: a fight played to victory and finished,
 * the page shows its rewards as the system's rules gave them (in the history and the campaign
 * log), one service is quoted (cost shown, nothing saved), bought and undone (the roster back as
 * before); and a player's phone (375 px) shows their own sheet and the party.
 */
interface Case {
  readonly system: string;
  readonly example: string;
  readonly party: readonly string[];
  /** A line of the rewards as this system's rules word them. */
  readonly reward: RegExp;
  /** The service bought: its button, and how its form is filled. */
  readonly service: string;
  readonly fill: (page: Page) => Promise<void>;
  /** The quote's cost line. */
  readonly cost: RegExp;
  /** The player's sheet shows these labels. */
  readonly sheet: readonly string[];
  /** The player's character (one with abilities or spells); the party's first if absent. */
  readonly player?: string;
  /** A statistic the sheet shows: its label, and where its value is in the content entry. */
  readonly stat: readonly [string, string];
  /** An ability, spell, GF or Tech the sheet shows by name: its content folder, where its id is. */
  readonly ability: readonly [string, string];
  /**
   * A progress line the sheet shows (the GM's and the player's), worked out from the player's
   * character's lasting state after the fight: its label and its text.
   */
  readonly progress?: (state: Record<string, number | string>) => readonly [string, string];
}

interface LevelRow {
  readonly level: number;
  readonly xp: number;
}

function content(system: string, folder: string, id: string): unknown {
  return parse(readFileSync(`${ROOT}content/${system}/${folder}/${id}.yaml`, 'utf8'));
}

/** A value in a content entry by a dotted path: `attributes.MAG`, `techs.0`. */
function at(entry: unknown, path: string): string {
  let value = entry;
  for (const key of path.split('.')) value = (value as Record<string, unknown>)[key];
  return String(value);
}

const CASES: readonly Case[] = [
  {
    system: 'ffrpg',
    example: 'ffrpg-wind-cave',
    party: ['hiro', 'haze', 'mint'],
    reward: /The party wins \d+ XP and \d+ Gil\./,
    service: 'rest',
    fill: (page) => page.getByLabel('gil (optional)').fill('10'),
    cost: /Costs 30 Gil\./,
    sheet: ['Level', 'XP', 'Gil', 'HP', 'MP', 'Statistics', 'Abilities'],
    player: 'mint',
    stat: ['MAG', 'attributes.MAG'],
    ability: ['abilities', 'abilities.0'],
    // The library's one level table (the party names none): the next Level's threshold.
    progress: ({ level, xp }) => {
      const rows = (content('ffrpg', 'level-tables', 'standard') as { levels: LevelRow[] }).levels;
      const next = rows.find((r) => r.level === Number(level) + 1)!;
      return [
        'XP to the next Level',
        `${next.xp - Number(xp)} (Level ${next.level} at ${next.xp} XP)`,
      ];
    },
  },
  {
    system: 'ffviii',
    example: 'ffviii-iron-giant',
    party: ['ehlric'],
    reward: /Ehlric Lineas ends with \d+\/\d+ HP\./,
    service: 'rest',
    fill: async () => {},
    cost: /Costs nothing\./,
    sheet: ['HP', 'Spell Matrix', 'Ammunition', 'Statistics', 'Junctions, Powers and Spells'],
    stat: ['Magic Evade', 'attributes.magicEvade'],
    ability: ['guardian-forces', 'guardianForces.0.gf'],
  },
  {
    system: 'zodiac',
    example: 'zodiac-keef-and-the-ogre',
    party: ['keef'],
    reward: /Keef the Thief leaves the fight with \d+\/\d+ HP/,
    service: 'rest',
    fill: async () => {},
    cost: /Costs nothing\./,
    sheet: ['HP', 'MP', 'Permanent effects', 'Statistics', 'Techs'],
    stat: ['Attack Power', 'stats.attackPower'],
    ability: ['techs', 'techs.0'],
  },
  {
    system: 'shining-force',
    example: 'shining-force-gate',
    party: ['max', 'ken', 'hans', 'tao', 'lowe'],
    reward: /The Force receives \d+ gold/,
    service: 'buy',
    fill: async (page) => {
      await page.getByLabel('character').selectOption('max');
      await page.getByLabel('item').selectOption('medical-herb');
    },
    cost: /Costs 10 gold\./,
    sheet: ['Class', 'Level', 'EXP', 'Statistics', 'Spells'],
    player: 'tao',
    stat: ['Movement', 'stats.movement'],
    ability: ['spells', 'spells.0'],
    // Tao is a Mage: "In the first class tier, promotion becomes available at level 10".
    progress: ({ level }) => [
      'Promotion',
      Number(level) >= 10
        ? 'may be promoted at the priest, to Wizard (free)'
        : 'to Wizard at the priest from level 10',
    ],
  },
];

type Entry = Extract<Heard, { type: 'entry' }>;

/** As test/server/campaign.test.ts plays one: a few real actions, then the GM drops the foes. */
async function playToVictory(gm: Client, start: StatePayload, party: readonly string[]) {
  let state = start;
  const submit = async (action: Parameters<Client['submit']>[2]): Promise<void> => {
    const answer = await gm.submit(state.seq + 1, `k${state.seq + 1}`, action);
    if (answer.type !== 'accepted') throw new Error(JSON.stringify(answer));
    state = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === answer.seq);
  };
  for (let i = 0; i < 4 && !state.outcome.over; i++) {
    const action = state.actions.find((a) => a.command.type === 'attack') ?? state.actions[0];
    if (action === undefined) break;
    await submit({ kind: 'command', command: action.command });
  }
  if (!state.outcome.over) await submit({ kind: 'gm', line: `hp ${party[0]} -5` });
  for (const c of state.view.combatants) {
    if (!party.includes(c.id) && !c.out && !state.outcome.over) {
      await submit({ kind: 'gm', line: `hp ${c.id} 0` });
    }
  }
  for (let i = 0; i < 10 && !state.outcome.over && state.actions[0]; i++) {
    await submit({ kind: 'command', command: state.actions[0].command });
  }
  expect(state.outcome).toMatchObject({ over: true });
}

function states(roster: readonly RosterEntry[]) {
  return roster.map((r) => [r.characterId, r.state]);
}

const tracker = useTracker();

describe.each(CASES)('the campaign page of $system', (c) => {
  it('shows the rewards, quotes a service, buys it and undoes it; a phone shows the sheet', async () => {
    const { url, store } = tracker.running;
    const { table, gmToken } = await newTable(store, c.system, c.party);
    const fight = await startEncounterOver(url, gmToken, example(c.example), 'campaign');
    const { client, state } = await Client.join(url, fight, gmToken);
    await playToVictory(client, state, c.party);
    client.close();
    const finished = await http<{ report: string[] }>(
      `${url}/api/encounters/${fight}/finish`,
      gmToken,
      'POST',
    );
    expect(finished.status).toBe(200);
    expect(finished.body.report.join('\n')).toMatch(c.reward);

    const context = await tracker.browser.newContext({ viewport: { width: 1024, height: 1366 } });
    const gm = await context.newPage();
    await gm.goto(`${url}/t/${gmToken}`);
    await gm.getByRole('link', { name: /The campaign/ }).click();
    // The history and the log show the rewards the rules gave, line for line.
    const history = gm.locator(`.history li[data-fight="${fight}"]`);
    await history.waitFor();
    for (const line of finished.body.report) {
      await history.getByText(line, { exact: true }).first().waitFor();
    }
    const newest = gm.locator('.campaign-log > li').first();
    expect(await newest.innerText()).toContain('after-battle');
    expect(await newest.innerText()).toMatch(c.reward);
    await gm.screenshot({ path: screenPath(`campaign-${c.system}.png`), fullPage: true });

    // The player's character's progress, as its lasting state after the fight gives it.
    const player = c.player ?? c.party[0]!;
    const lasting = (await store.getRoster(table.id)).find((r) => r.characterId === player)!;
    const progress = c.progress?.(lasting.state as Record<string, number | string>);
    if (progress !== undefined) {
      const [label, value] = progress;
      const line = gm
        .locator(`article.sheet[data-character="${player}"] .sheet-lines > div`)
        .filter({ has: gm.getByText(label, { exact: true }) });
      expect(await line.locator('dd').textContent()).toBe(value);
    }

    // Quoted: the cost shown, nothing saved.
    const before = await store.getRoster(table.id);
    await gm.getByRole('button', { name: c.service, exact: true }).click();
    await c.fill(gm);
    await gm.getByRole('button', { name: 'What would it cost?' }).click();
    const quote = gm.locator('.quote');
    await quote.waitFor();
    expect(await quote.innerText()).toMatch(c.cost);
    expect(states(await store.getRoster(table.id))).toEqual(states(before));

    // Bought: a new entry, the roster changed.
    await quote.getByRole('button', { name: 'Confirm' }).click();
    await gm.locator('.campaign-log > li', { hasText: 'service' }).first().waitFor();
    expect(states(await store.getRoster(table.id))).not.toEqual(states(before));
    const log = await store.campaignLog(table.id);
    expect(log[0]).toMatchObject({ kind: 'service', undoneAt: null });

    // Undone: the roster as before, the entry kept and marked.
    await gm.getByRole('button', { name: `Undo entry ${log[0]!.n}` }).click();
    await gm.locator(`.campaign-log > li.undone[data-entry="${log[0]!.n}"]`).waitFor();
    expect(states(await store.getRoster(table.id))).toEqual(states(before));

    // The history opens the fight read-only: nothing to act with, undo closed.
    await history.getByRole('link', { name: "Open the fight's log" }).click();
    await gm.locator('main.gm-screen').waitFor();
    await gm.getByText('The encounter is finished: its log can no longer be undone.').waitFor();
    expect(await gm.locator('.actions .action-list button.action').count()).toBe(0);
    await context.close();

    // A player's phone: their own sheet, its statistics and abilities, its progress, the party.
    const yaml = content(c.system, 'characters', player);
    const invite = await http<{ token: string }>(`${url}/api/table/invites`, gmToken, 'POST', {
      role: 'player',
      character: player,
    });
    const phone = await tracker.browser.newContext({
      viewport: { width: 375, height: 812 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await phone.newPage();
    await page.goto(`${url}/t/${invite.body.token}`);
    await page.getByRole('link', { name: 'Your character sheet' }).click();
    const sheet = page.locator(`article.sheet[data-character="${player}"]`);
    await sheet.waitFor();
    const text = await sheet.innerText();
    for (const label of c.sheet) expect(text).toContain(label);
    if (progress !== undefined) {
      const [label, value] = progress;
      const line = sheet
        .locator('.sheet-lines > div')
        .filter({ has: page.getByText(label, { exact: true }) });
      expect(await line.locator('dd').textContent()).toBe(value);
    }
    const [statLabel, statPath] = c.stat;
    const stat = sheet.locator('.sheet-stats > div', {
      has: page.getByText(statLabel, { exact: true }),
    });
    expect(await stat.locator('dd').textContent()).toBe(at(yaml, statPath));
    const [folder, abilityPath] = c.ability;
    const abilityName = at(content(c.system, folder, at(yaml, abilityPath)), 'name');
    await sheet
      .locator('.sheet-abilities li strong')
      .getByText(abilityName, { exact: true })
      .waitFor();
    expect(await page.locator('article.sheet').count()).toBe(1);
    expect(await page.locator('#party-h + ul > li').count()).toBe(c.party.length);
    const width: number = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(375);
    // Nothing on the phone reaches past its edge, and no text in the sheet is under 12 px.
    const overflow: string[] = await page.evaluate(`[...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > 375.5)
      .map((e) => e.tagName + '.' + e.className)`);
    expect(overflow).toEqual([]);
    const smallest: number = await page.evaluate(`Math.min(...[...document
      .querySelectorAll('article.sheet *')]
      .filter((e) => e.textContent.trim() !== '')
      .map((e) => parseFloat(getComputedStyle(e).fontSize)))`);
    expect(smallest).toBeGreaterThanOrEqual(12);
    await page.screenshot({ path: screenPath(`campaign-sheet-${c.system}.png`) });
    await phone.close();
  }, 180_000);
});
