import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Statistical tests sample 100,000 rolls per expression; CLI tests spawn processes.
    testTimeout: 60_000,
  },
});
