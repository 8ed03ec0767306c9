import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * The browser tests need Debian's Chromium (playwright-core cannot download one here). A fresh
 * machine may not have it: the test command installs it, as it starts a throwaway PostgreSQL
 * for the store's tests, rather than skip the browser tests. Where it cannot (not root, no
 * apt-get), it stops the run saying what to install.
 */
export default function setup(): void {
  const chromium = process.env.MOOGLE_CHROMIUM ?? '/usr/bin/chromium';
  if (existsSync(chromium)) return;
  const root = process.getuid?.() === 0;
  if (!root || !existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `the browser tests need Chromium at ${chromium}: install it (apt-get install -y chromium) or set MOOGLE_CHROMIUM`,
    );
  }
  process.stderr.write('web tests: Chromium is missing; installing it with apt-get\n');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!existsSync(chromium)) throw new Error(`apt-get installed chromium, but not at ${chromium}`);
}
