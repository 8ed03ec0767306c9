import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The stall tests: another table's ping p99 must stay under 50 ms while one client does the
 * worst it may (a 20,000-battle balance run, a replay flood, a body nested 400,000 deep). On a
 * two-core machine a second test file running beside them is itself the stall they would
 * measure, so they run after the rest, one file at a time, with the machine to themselves.
 * (Spread, not mergeConfig: that would add these globs to the base's instead of replacing them.)
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.stall.test.ts'],
    exclude: [...configDefaults.exclude],
    fileParallelism: false,
  },
});
