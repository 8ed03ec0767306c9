import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The stall tests time another table's pings: they run alone, after these (vitest.stall.config.ts).
    exclude: [...configDefaults.exclude, 'test/**/*.stall.test.ts'],
    // One file more than the cores: most files wait on browsers, sockets and child processes
    // more than they compute (on two cores: 245 s at three at a time, 323 s at two, 236 s at four,
    // where an unrelated race first showed).
    maxWorkers: availableParallelism() + 1,
    // A worker runs its files one after another in one module graph instead of importing the
    // server, the rulesets and Playwright afresh for each: 323 s against 439 s for the suite at
    // two at a time (imports 19 s against 133 s). No test mocks modules or changes a module's
    // state for the next file; each starts its own servers, stores and browsers and stops them.
    isolate: false,
    // Statistical tests sample 100,000 rolls per expression; CLI tests spawn processes.
    testTimeout: 60_000,
    // Battles autosave by default; tests keep theirs out of the working tree.
    env: { MOOGLE_SAVES_DIR: join(tmpdir(), 'moogle-test-saves') },
    // The store's tests need a PostgreSQL: the machine's, or a throwaway one (docs/store.md).
    // The web tracker's tests need Debian's Chromium: installed when missing (test/web).
    globalSetup: ['test/store/global-setup.ts', 'test/web/global-setup.ts'],
  },
});
