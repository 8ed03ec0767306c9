import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsqr from 'jsqr';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StatePayload } from '../../src/server/protocol.js';
import { http, newTable, ROOT, type Running, startServer } from '../server/harness.js';

/**
 * Debian's Chromium driven by playwright-core: `npx playwright install` cannot download a
 * browser here, so the system's is used (`apt-get install -y chromium`, as .ci/run does).
 */
export const CHROMIUM = process.env.MOOGLE_CHROMIUM ?? '/usr/bin/chromium';

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
}

/** The built pages: built here when a test runs before `npm run build` did. */
export async function ensureWebBuilt(): Promise<void> {
  if (existsSync(`${ROOT}dist-web/index.html`)) return;
  const { build } = await import('vite');
  await build({ configFile: `${ROOT}web/vite.config.ts`, logLevel: 'warn' });
}

/**
 * Where a test's screenshot of `name` goes: docs/screens/ (the README's and docs' pictures) only
 * when `MOOGLE_SCREENS=docs` asks for them to be written again; else the system's temporary folder,
 * so `npm test` never changes a tracked file (the balance panel's chart differs run to run).
 */
export function screenPath(name: string): string {
  const folder =
    process.env.MOOGLE_SCREENS === 'docs'
      ? `${ROOT}docs/screens`
      : join(tmpdir(), 'moogle-screens');
  mkdirSync(folder, { recursive: true });
  return join(folder, name);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** axe-core's serious and critical violations on the page as it stands. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } })
      .axe;
    return (await axe.run()).violations as AxeViolation[];
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** What a browser test plays against: a server on a fresh SQLite file, and one Chromium. */
export interface Tracker {
  readonly running: Running;
  readonly browser: Browser;
}

/**
 * Starts the built tracker's server and a Chromium before the file's tests, and stops both after
 * them: every browser test file began with the same dozen lines.
 */
export function useTracker(): Tracker {
  let running: Running | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    await ensureWebBuilt();
    running = await startServer('sqlite');
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    await running?.location.dispose();
  });
  return {
    get running() {
      if (running === undefined) throw new Error('the tracker starts in beforeAll');
      return running;
    },
    get browser() {
      if (browser === undefined) throw new Error('the tracker starts in beforeAll');
      return browser;
    },
  };
}

/**
 * `it` for a test that belongs to one system of a `describe.each` over the four: the others do
 * not register it at all (rather than count it as skipped in every run).
 */
export function itIn(
  current: string,
  wanted: string,
): (name: string, test: () => Promise<void>, timeout?: number) => void {
  return current === wanted ? (name, test, timeout) => it(name, test, timeout) : () => {};
}

/** The entry number a screen shows. */
export async function seqOf(page: Page): Promise<number> {
  return Number(await page.locator('main[data-seq]').getAttribute('data-seq'));
}

/** What the server sends a link's holder as the encounter's state: what its screen should show. */
export async function serverState(
  url: string,
  encounterId: string,
  token: string,
): Promise<StatePayload> {
  const got = await http<StatePayload>(`${url}/api/encounters/${encounterId}`, token, 'GET');
  expect(got.status).toBe(200);
  return got.body;
}

/** jsqr is CommonJS: its function is the module under Node, its types say `default`. */
const decodeQr = (typeof jsqr === 'function' ? jsqr : jsqr.default) as typeof jsqr.default;

/** The QR code as drawn on the page, in pixels: its SVG painted on a canvas, read back. */
async function qrPixels(page: Page): Promise<{ data: number[]; width: number; height: number }> {
  // A string: the test files have no DOM types.
  return page.evaluate(`(async () => {
    const svg = document.querySelector('.new-link .qr svg');
    const image = new Image();
    image.src = 'data:image/svg+xml;charset=utf-8,' +
      encodeURIComponent(new XMLSerializer().serializeToString(svg));
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    context.fillStyle = 'white';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    return { data: [...pixels.data], width: pixels.width, height: pixels.height };
  })()`) as Promise<{ data: number[]; width: number; height: number }>;
}

/** The address the page's QR code holds, read as a phone's camera would. */
export async function readQr(page: Page): Promise<string | undefined> {
  const { data, width, height } = await qrPixels(page);
  return decodeQr(Uint8ClampedArray.from(data), width, height)?.data;
}

/**
 * The GM of a new table of `system` at the encounter builder, on a laptop's screen, once the
 * builder's file writer has loaded (the preview holds a file).
 */
export async function openBuilder(
  tracker: Tracker,
  system: string,
  characters: readonly string[],
): Promise<{ gm: Page; gmToken: string; context: BrowserContext }> {
  const { gmToken } = await newTable(tracker.running.store, system, characters);
  const context = await tracker.browser.newContext({
    viewport: { width: 1280, height: 900 },
    bypassCSP: true,
  });
  const gm = await context.newPage();
  await gm.goto(`${tracker.running.url}/t/${gmToken}`);
  await expect.poll(() => gm.locator('textarea[name="file"]').inputValue()).toContain('format: 1');
  return { gm, gmToken, context };
}

/** Adds content (`monster:ogre`, `character:keef`) to a side of the builder, `count` of it. */
export async function addToSide(
  gm: Page,
  side: number,
  value: string,
  count?: number,
): Promise<void> {
  const fieldset = gm.locator(`fieldset.side[data-side="${side}"]`);
  await fieldset.locator('select').selectOption(value);
  if (count !== undefined) await fieldset.getByLabel('How many').fill(String(count));
  await fieldset.getByRole('button', { name: 'Add', exact: true }).click();
}
