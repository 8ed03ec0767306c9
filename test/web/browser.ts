import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { ROOT, type Running, startServer } from '../server/harness.js';

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
