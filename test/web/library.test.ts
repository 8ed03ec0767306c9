import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { http, newTable, ROOT } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { seriousViolations, useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * The GM's content library in real Chromium, for every system: a new character and a new
 * monster written in the forms made from their schemas. A wrong field first: the server's
 * refusal is shown beside that field and nothing is saved; put right, the entry is saved and
 * listed, and the table's library over HTTP has it.
 */

const tracker = useTracker();

interface Listing {
  readonly entries: readonly { kind: string; id: string; name: string }[];
}

/** Where each system writes a sheet's maximum HP. */
const HP_FIELD: Readonly<Record<string, string>> = {
  ffrpg: 'stats.hp',
  ffviii: 'hp',
  zodiac: 'stats.hp',
  'shining-force': 'stats.hp',
};

async function listed(tableId: string, token: string): Promise<Listing['entries']> {
  const got = await http<Listing>(
    `${tracker.running.url}/api/tables/${tableId}/content`,
    token,
    'GET',
  );
  expect(got.status).toBe(200);
  return got.body.entries;
}

async function write(
  gm: Page,
  system: string,
  sheet: 'character' | 'monster',
  id: string,
  name: string,
  check: (id: string) => Promise<boolean>,
): Promise<void> {
  const kind = `${system}/${sheet}`;
  await gm.locator('select[name="new-kind"]').selectOption(kind);
  await gm.getByRole('button', { name: 'New', exact: true }).click();
  const form = gm.locator('form.content-form');
  await form.locator('input[name="id"]').fill(id);
  await form.locator('input[name="name"]').fill(name);
  const hp = HP_FIELD[system]!;
  // A new Shining Force member's form asks for its class from the start: the roster wants one.
  if (kind === 'shining-force/character') {
    await form.locator('select[name="class"]').selectOption('swordsman');
  }

  // A negative HP: refused, shown beside the HP field, and nothing saved.
  await form.locator(`input[name="${hp}"]`).fill('-5');
  await form.getByRole('button', { name: 'Save' }).click();
  const issue = form.locator(`.field-issue[data-path="${hp}"]`);
  await issue.waitFor();
  expect((await issue.textContent())?.trim()).not.toBe('');
  // The field it belongs to is the HP field's own row.
  expect(
    await form.locator(`[data-field="${hp}"] .field-issue`).count(),
    'the issue sits in the field',
  ).toBe(1);
  expect(await check(id)).toBe(false);

  // Put right, previewed before it is saved: its HP as an encounter has it, nothing saved yet.
  await form.locator(`input[name="${hp}"]`).fill('40');
  await gm.getByRole('button', { name: 'Preview' }).click();
  const maxHp = gm.locator('.preview-numbers div', { hasText: 'Max HP' });
  await maxHp.waitFor();
  expect(await maxHp.locator('dd').textContent()).toBe('40');
  expect(await check(id)).toBe(false);

  // Saved, and listed.
  await form.getByRole('button', { name: 'Save' }).click();
  await gm.locator(`[data-entry="${kind}/${id}"]`).waitFor();
  expect(await gm.getByRole('status').textContent()).toContain(`Saved`);
  expect(await check(id)).toBe(true);
}

describe('the content library page', () => {
  for (const system of ['ffrpg', 'ffviii', 'zodiac', 'shining-force']) {
    it(`${system}: the GM writes a new character and a new monster; a wrong HP is shown in place and saves nothing`, async () => {
      const { table, gmToken } = await newTable(tracker.running.store, system);
      const context = await tracker.browser.newContext({
        viewport: { width: 1280, height: 900 },
        bypassCSP: true,
      });
      const gm = await context.newPage();
      await gm.goto(`${tracker.running.url}/t/${gmToken}`);
      await gm.getByRole('link', { name: 'Content library' }).click();
      await gm.getByRole('heading', { name: 'Content library' }).waitFor();
      await gm.locator('[data-entry]').first().waitFor();
      const before = await listed(table.id, gmToken);

      const has = (kind: string) => async (id: string) =>
        (await listed(table.id, gmToken)).some((e) => e.kind === kind && e.id === id);
      await write(gm, system, 'character', 'test-hero', 'Test Hero', has(`${system}/character`));
      await write(gm, system, 'monster', 'test-fiend', 'Test Fiend', has(`${system}/monster`));

      const after = await listed(table.id, gmToken);
      expect(after.length).toBe(before.length + 2);
      expect(after.find((e) => e.id === 'test-hero')?.name).toBe('Test Hero');
      expect(await seriousViolations(gm)).toEqual([]);
      await context.close();
    });
  }

  it('ffrpg: a content pack uploads all or nothing; a wrong file is named with its path', async () => {
    const { table, gmToken } = await newTable(tracker.running.store, 'ffrpg');
    const context = await tracker.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const gm = await context.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}#/library`);
    await gm.locator('[data-entry]').first().waitFor();
    const before = await listed(table.id, gmToken);
    const knife =
      'format: 1\nkind: ffrpg/weapon\nid: pack-knife\nname: Pack Knife\ndamage: d6\nskill: Daggers\n';
    const broken = 'format: 1\nkind: ffrpg/weapon\nid: pack-club\nname: Pack Club\ndamage: 2d\n';
    const input = gm.locator('input[name="pack"]');

    await input.setInputFiles([
      { name: 'knife.yaml', mimeType: 'application/yaml', buffer: Buffer.from(knife) },
      { name: 'club.yaml', mimeType: 'application/yaml', buffer: Buffer.from(broken) },
    ]);
    const row = gm.locator('.pack-issues tbody tr').first();
    await row.waitFor();
    expect(await row.locator('td').nth(0).textContent()).toContain('club.yaml');
    expect(await row.locator('td').nth(1).textContent()).toBe('damage');
    expect((await listed(table.id, gmToken)).length).toBe(before.length);

    // The same, put right, as one .zip.
    const zip = zipSync({
      'weapons/knife.yaml': strToU8(knife),
      'weapons/club.yaml': strToU8(broken.replace('2d', '2d6')),
    });
    await input.setInputFiles([
      { name: 'pack.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) },
    ]);
    await gm.locator('[data-entry="ffrpg/weapon/pack-club"]').waitFor();
    expect(await gm.getByRole('status').last().textContent()).toContain('Imported pack.zip');
    expect((await listed(table.id, gmToken)).length).toBe(before.length + 2);
    await context.close();
  });

  it("ffrpg: the GM downloads the library: the export route's pack, which another table imports whole and moogle battle --content plays", async () => {
    const { url, store } = tracker.running;
    const { table, gmToken } = await newTable(store, 'ffrpg');
    // The GM's own content, so the pack is more than the starter content: a renamed Heket and
    // a new weapon.
    const heket = await http<{ version: number; body: Record<string, unknown> }>(
      `${url}/api/tables/${table.id}/content/ffrpg/monster/heket`,
      gmToken,
      'GET',
    );
    const renamed = await http(
      `${url}/api/tables/${table.id}/content/ffrpg/monster/heket`,
      gmToken,
      'PUT',
      {
        body: { ...heket.body.body, name: 'Heket of the Pack' },
        expectedVersion: heket.body.version,
      },
    );
    expect(renamed.status).toBe(200);
    const knife = await http(
      `${url}/api/tables/${table.id}/content/ffrpg/weapon/pack-knife`,
      gmToken,
      'PUT',
      { body: { name: 'Pack Knife', damage: 'd6', skill: 'Daggers' }, expectedVersion: 0 },
    );
    expect(knife.status).toBe(200);

    const context = await tracker.browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const gm = await context.newPage();
    await gm.goto(`${url}/t/${gmToken}#/library`);
    await gm.locator('[data-entry="ffrpg/weapon/pack-knife"]').waitFor();
    const [download] = await Promise.all([
      gm.waitForEvent('download'),
      gm.getByRole('link', { name: 'Download the library (.zip)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('ffrpg-library.zip');
    // Kept as the browser names it: the upload takes a pack by its .zip name.
    const folder = mkdtempSync(join(tmpdir(), 'moogle-pack-'));
    const saved = join(folder, download.suggestedFilename());
    await download.saveAs(saved);
    const bytes = readFileSync(saved);

    // The route's own pack, byte for byte; and its files are the library's JSON export's.
    const route = await fetch(`${url}/api/tables/${table.id}/content/export?format=zip`, {
      headers: { authorization: `Bearer ${gmToken}` },
    });
    expect(route.status).toBe(200);
    expect(Buffer.from(await route.arrayBuffer()).equals(bytes)).toBe(true);
    const exported = async (id: string, token: string) => {
      const got = await http<{ system: string; files: { name: string; text: string }[] }>(
        `${url}/api/tables/${id}/content/export`,
        token,
        'GET',
      );
      expect(got.status).toBe(200);
      return Object.fromEntries(got.body.files.map((f) => [f.name, f.text]));
    };
    const unzipped = Object.fromEntries(
      Object.entries(unzipSync(new Uint8Array(bytes))).map(([name, b]) => [name, strFromU8(b)]),
    );
    const files = await exported(table.id, gmToken);
    expect(unzipped).toEqual(files);
    expect(Object.keys(files)).toContain('weapons/pack-knife.json');
    expect(JSON.parse(files['monsters/heket.json']!)).toMatchObject({
      kind: 'ffrpg/monster',
      id: 'heket',
      name: 'Heket of the Pack',
    });

    // Another table (the starter content only) imports the downloaded file as it is: the same
    // entries, the same files.
    const other = await newTable(store, 'ffrpg');
    await gm.goto(`${url}/t/${other.gmToken}#/library`);
    await gm.locator('[data-entry]').first().waitFor();
    expect((await listed(other.table.id, other.gmToken)).some((e) => e.id === 'pack-knife')).toBe(
      false,
    );
    await gm.locator('input[name="pack"]').setInputFiles(saved);
    await gm.locator('[data-entry="ffrpg/weapon/pack-knife"]').waitFor();
    expect(await gm.getByRole('status').last().textContent()).toContain(
      'Imported ffrpg-library.zip',
    );
    const names = (entries: Listing['entries']) =>
      entries.map((e) => `${e.kind}/${e.id}: ${e.name}`).sort();
    expect(names(await listed(other.table.id, other.gmToken))).toEqual(
      names(await listed(table.id, gmToken)),
    );
    expect(await exported(other.table.id, other.gmToken)).toEqual(files);
    await context.close();

    // Unpacked into a folder, it is the content moogle battle plays: the Heket by its new name.
    const unpacked = join(folder, 'content');
    try {
      for (const [name, text] of Object.entries(unzipped)) {
        mkdirSync(dirname(join(unpacked, name)), { recursive: true });
        writeFileSync(join(unpacked, name), text);
      }
      const out: string[] = [];
      const io: Io = { out: (line) => out.push(line), err: (line) => out.push(line) };
      const status = await main(
        [
          'node',
          'moogle',
          'battle',
          `${ROOT}examples/ffrpg-wind-cave.yaml`,
          '--content',
          unpacked,
          '--seed',
          '1',
          '--auto',
          '--no-autosave',
        ],
        io,
      );
      expect(status, out.join('\n')).toBe(0);
      expect(out.join('\n')).toContain('Heket of the Pack');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('ffrpg: the GM duplicates, edits and deletes; a stale save and a used weapon are refused and say why', async () => {
    const { table, gmToken } = await newTable(tracker.running.store, 'ffrpg');
    const context = await tracker.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const gm = await context.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}#/library`);
    const heket = gm.locator('[data-entry="ffrpg/monster/heket"]');
    await heket.waitFor();
    const form = gm.locator('form.content-form');

    // Duplicate: a free id, the same fields.
    await heket.getByRole('button', { name: 'Duplicate' }).click();
    expect(await form.locator('input[name="id"]').inputValue()).toBe('heket-2');
    await form.locator('input[name="name"]').fill('Heket the Second');
    await form.getByRole('button', { name: 'Save' }).click();
    const copy = gm.locator('[data-entry="ffrpg/monster/heket-2"]');
    await copy.waitFor();
    const entry = await http<{ version: number; body: Record<string, unknown> }>(
      `${tracker.running.url}/api/tables/${table.id}/content/ffrpg/monster/heket-2`,
      gmToken,
      'GET',
    );
    const original = await http<{ body: Record<string, unknown> }>(
      `${tracker.running.url}/api/tables/${table.id}/content/ffrpg/monster/heket`,
      gmToken,
      'GET',
    );
    expect(entry.body.body).toEqual({ ...original.body.body, name: 'Heket the Second' });

    // Edit, while someone else saves it first: refused, and said so.
    await copy.getByRole('button', { name: 'Edit' }).click();
    expect(await form.locator('input[name="id"]').getAttribute('readonly')).not.toBeNull();
    await http(
      `${tracker.running.url}/api/tables/${table.id}/content/ffrpg/monster/heket-2`,
      gmToken,
      'PUT',
      {
        body: { ...entry.body.body, name: 'Changed elsewhere' },
        expectedVersion: entry.body.version,
      },
    );
    await form.locator('input[name="name"]').fill('Heket Mine');
    await form.getByRole('button', { name: 'Save' }).click();
    await gm.getByText('someone changed this entry').waitFor();
    await gm.getByRole('button', { name: 'Load their version' }).click();
    await expect
      .poll(() => form.locator('input[name="name"]').inputValue())
      .toBe('Changed elsewhere');
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Delete asks first; a weapon a character uses is refused, naming why.
    await copy.getByRole('button', { name: 'Delete' }).click();
    await copy.getByRole('button', { name: 'Yes, delete' }).click();
    await copy.waitFor({ state: 'detached' });
    const sword = gm.locator('[data-entry="ffrpg/weapon/broadsword"]');
    await sword.getByRole('button', { name: 'Delete' }).click();
    await sword.getByRole('button', { name: 'Yes, delete' }).click();
    await gm.getByText('Not deleted').waitFor();
    expect(await gm.getByRole('status').textContent()).toMatch(/haze/i);
    expect((await listed(table.id, gmToken)).some((e) => e.id === 'broadsword')).toBe(true);
    await context.close();
  });
});
