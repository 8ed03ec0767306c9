import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The stall tests time another table's pings: they run alone, after these (vitest.stall.config.ts).
    exclude: [...configDefaults.exclude, 'test/**/*.stall.test.ts'],
    // Two files at a time at least: vitest's default, one less than the cores, is one at a time
    // on this workplace's two-core machines (three at a time was no faster: 777 s against 790).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Statistical tests sample 100,000 rolls per expression; CLI tests spawn processes.
    testTimeout: 60_000,
    // Battles autosave by default; tests keep theirs out of the working tree.
    env: { MOOGLE_SAVES_DIR: join(tmpdir(), 'moogle-test-saves') },
    // The store's tests need a PostgreSQL: the machine's, or a throwaway one (docs/store.md).
    // The web tracker's tests need Debian's Chromium: installed when missing (test/web).
    globalSetup: ['test/store/global-setup.ts', 'test/web/global-setup.ts'],
  },
});
