import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { example, http, newTable } from '../server/harness.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { readQr, seqOf, seriousViolations, serverState, useTracker } from './browser.js';

afterAll(stopFallbackPostgres);

/**
 * Seats at the table, in real Chromium: the GM makes a player's link and shows it as a QR code;
 * a phone opens the address the code holds and follows the GM into each fight as it starts; the
 * GM sees it connected, and marked on the card; revoking the link tells the phone at once.
 */

const tracker = useTracker();
const contexts: BrowserContext[] = [];

afterAll(async () => {
  for (const context of contexts) await context.close();
});

/** Chooses the first offered action on a screen and commits it with the server's dice. */
async function actFirst(page: Page, others: readonly Page[]): Promise<void> {
  const before = await seqOf(page);
  await page.locator('.actions .action-list button.action').first().click();
  await page.locator('form.detail button[type="submit"]').click();
  for (const p of [page, ...others]) {
    await p.locator(`main[data-seq="${before + 1}"]`).waitFor({ timeout: 15_000 });
  }
}

async function startFromBuilder(gm: Page, seed: string): Promise<string> {
  await gm.locator('textarea[name="file"]').fill(example('ffrpg-wind-cave'));
  await gm.getByLabel('Dice seed').fill(seed);
  await gm.getByRole('button', { name: 'Start the encounter' }).click();
  await gm.locator('main.gm-screen[data-seq="0"]').waitFor();
  return decodeURIComponent(/#\/e\/(.+)$/.exec(gm.url())![1]!);
}

describe('seats at the table in Chromium', () => {
  it("a phone joins by the QR code's address, follows the GM into each fight and plays; revoking its link tells it at once", async () => {
    const { gmToken } = await newTable(tracker.running.store, 'ffrpg', ['hiro', 'haze', 'mint']);
    const gmContext = await tracker.browser.newContext({
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
    });
    contexts.push(gmContext);
    const gm = await gmContext.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}`);
    const hiroSeat = gm.locator('.seat[data-seat="hiro"]');
    await hiroSeat.getByText('No link yet.').waitFor();

    // A new link for Hiro: its address once, and a QR code of it with an accessible name.
    await hiroSeat.getByRole('button', { name: 'New link for hiro' }).click();
    const qr = hiroSeat.getByRole('img', { name: /QR code of the new link for hiro/ });
    await qr.waitFor();
    const shown = (await hiroSeat.locator('.new-link a').getAttribute('href'))!;
    expect(shown).toMatch(/\/t\/[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{43}$/);
    const decoded = await readQr(gm);
    expect(decoded).toBe(shown);
    const link = hiroSeat.locator('li[data-link]');
    await expect.poll(() => link.getAttribute('data-seen')).toBe('not connected');
    expect(await seriousViolations(gm)).toEqual([]);

    // The phone opens the decoded address: the table page, and the GM sees it connected.
    const phoneContext = await tracker.browser.newContext({
      viewport: { width: 375, height: 800 },
      isMobile: true,
      hasTouch: true,
    });
    contexts.push(phoneContext);
    const phone = await phoneContext.newPage();
    await phone.goto(decoded!);
    await phone.getByText('you play hiro').waitFor();
    await expect.poll(() => link.getAttribute('data-seen')).toBe('connected');
    // Marked so: a reload would lose it, and following must not reload.
    await phone.evaluate('globalThis.__sameDocument = true');

    // The GM starts a fight: the phone moves to it by itself.
    const first = await startFromBuilder(gm, 'seats-1');
    await phone.locator('main.player-screen[data-seq="0"]').waitFor();
    expect(phone.url()).toContain(`#/e/${encodeURIComponent(first)}`);

    // The GM's card of Hiro says a connected player holds it; the GM plays on until Hiro's turn.
    const hiroCard = gm.locator('article[data-combatant="hiro"]');
    await expect
      .poll(() => hiroCard.getByTestId('played-by').textContent())
      .toContain('played by a connected player');
    expect(
      await gm.locator('article[data-combatant="haze"] [data-testid="played-by"]').count(),
    ).toBe(0);
    let state = await serverState(tracker.running.url, first, gmToken);
    for (let i = 0; i < 40 && state.view.actor !== 'hiro'; i++) {
      await actFirst(gm, [phone]);
      state = await serverState(tracker.running.url, first, gmToken);
    }
    expect(state.view.actor).toBe('hiro');
    await expect
      .poll(() => hiroCard.getByTestId('played-by').textContent())
      .toContain('you may act for Hiro');

    // Hiro's player takes the turn from the phone.
    await actFirst(phone, [gm]);
    const after = await serverState(tracker.running.url, first, gmToken);
    const last = (await tracker.running.store.entriesSince(first, after.seq - 1))[0]!;
    expect(JSON.stringify(last)).toContain('"actor":"hiro"');

    // The GM abandons the fight: the phone says so at once.
    await gm.getByRole('button', { name: 'Abandon…' }).click();
    await gm.getByRole('button', { name: 'Yes, abandon it' }).click();
    await phone.getByText('The GM abandoned this fight.').waitFor();

    // A second fight: the phone follows into it, in the same document.
    await gm.getByRole('button', { name: /← Test ffrpg/ }).click();
    const second = await startFromBuilder(gm, 'seats-2');
    expect(second).not.toBe(first);
    await expect.poll(() => phone.url()).toContain(`#/e/${encodeURIComponent(second)}`);
    await phone.locator('main.player-screen[data-seq="0"]').waitFor();
    expect(await phone.evaluate('globalThis.__sameDocument')).toBe(true);

    // The GM revokes Hiro's link from the seats: the phone is told at once.
    await gm.getByRole('button', { name: /← Test ffrpg/ }).click();
    await expect.poll(() => link.getAttribute('data-seen')).toBe('connected');
    await hiroSeat.getByRole('button', { name: "Revoke hiro's link" }).click();
    await hiroSeat.getByRole('button', { name: 'Yes, revoke' }).click();
    await phone.getByRole('alert').filter({ hasText: 'This link was revoked' }).first().waitFor();
    await expect.poll(() => link.getAttribute('data-seen')).toBe('revoked');
  }, 120_000);

  it("lists the GM's own link as this screen's, makes a co-GM's link, and revokes it; never its own", async () => {
    const { table, gmToken } = await newTable(tracker.running.store, 'ffrpg', ['hiro']);
    const gmContext = await tracker.browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(gmContext);
    const gm = await gmContext.newPage();
    await gm.goto(`${tracker.running.url}/t/${gmToken}`);
    const gmSeat = gm.locator('.seat[data-seat="@gm"]');
    await gmSeat.getByRole('heading', { name: 'Game masters' }).waitFor();
    const own = gmSeat.locator('li[data-link]', { has: gm.getByTestId('this-screen') });
    await expect.poll(() => own.getAttribute('data-seen')).toBe('connected');
    expect(await own.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
    // Nor by hand: the API refuses the link a request comes with.
    const ownId = (await own.getAttribute('data-link'))!;
    const refused = await http<{ error: { code: string } }>(
      `${tracker.running.url}/api/table/invites/${ownId}`,
      gmToken,
      'DELETE',
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invite/own-link');

    await gmSeat.getByRole('button', { name: 'New link for a co-GM' }).click();
    await gmSeat
      .getByRole('img', {
        name: /QR code of the new link for Game masters: scan it with the co-GM's device/,
      })
      .waitFor();
    const coLink = (await gmSeat.locator('.new-link a').getAttribute('href'))!;
    const coContext = await tracker.browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(coContext);
    const coGm = await coContext.newPage();
    await coGm.goto(coLink);
    // The co-GM's screen is a GM's: it has the seats too.
    await coGm.locator('.seat[data-seat="@gm"]').waitFor();
    const coId = /\/t\/([A-Za-z0-9_-]{12})\./.exec(coLink)![1]!;
    const coRow = gmSeat.locator(`li[data-link="${coId}"]`);
    await expect.poll(() => coRow.getAttribute('data-seen')).toBe('connected');
    await coRow.getByRole('button', { name: 'Revoke this link' }).click();
    await coRow.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => coRow.getAttribute('data-seen')).toBe('revoked');
    const after = await tracker.running.store.listTokens(table.id);
    expect(after.find((t) => t.tokenId === coId)?.revokedAt).not.toBeNull();
    expect(after.find((t) => t.tokenId === ownId)?.revokedAt).toBeNull();
  }, 120_000);
});
