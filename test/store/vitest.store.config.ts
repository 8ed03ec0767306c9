import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.js';

/**
 * The project's config plus the store tests' global setup, for running them before that line
 * is in vitest.config.ts: `npx vitest run test/store --config test/store/vitest.store.config.ts`.
 */
export default mergeConfig(
  base,
  defineConfig({ test: { globalSetup: ['test/store/global-setup.ts'] } }),
);
