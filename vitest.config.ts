import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Statistical tests sample 100,000 rolls per expression; CLI tests spawn processes.
    testTimeout: 60_000,
    // Battles autosave by default; tests keep theirs out of the working tree.
    env: { MOOGLE_SAVES_DIR: join(tmpdir(), 'moogle-test-saves') },
    // The store's tests need a PostgreSQL: the machine's, or a throwaway one (docs/store.md).
    // The web tracker's tests need Debian's Chromium: installed when missing (test/web).
    globalSetup: ['test/store/global-setup.ts', 'test/web/global-setup.ts'],
  },
});
