import type { TestProject } from 'vitest/node';
import { findOrStartPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the store tests create their databases (see postgres-server.ts). */
    moogleTestPgAdminUrl: string;
  }
}

/** Finds or starts one PostgreSQL for the whole run; each test file makes its own database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await findOrStartPostgres((line) => console.log(line));
  project.provide('moogleTestPgAdminUrl', postgres.adminUrl);
  return () => postgres.stop();
}
