import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { Store, StoreKind } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import { findOrStartPostgres, freshDatabase, type TestPostgres } from './postgres-server.js';

export const KINDS: readonly StoreKind[] = ['sqlite', 'postgres'];

let fallback: Promise<TestPostgres> | undefined;

/**
 * The PostgreSQL of this run: the global setup's, or, when a run has none (the setup not yet in
 * vitest.config.ts, one file run alone), found or started by this file's worker.
 */
async function adminUrl(): Promise<string> {
  const provided = inject('moogleTestPgAdminUrl');
  if (provided) return provided;
  fallback ??= findOrStartPostgres(() => {});
  return (await fallback).adminUrl;
}

export async function stopFallbackPostgres(): Promise<void> {
  const started = fallback;
  // Test files may share a worker (vitest.config.ts): the next one starts its own again.
  fallback = undefined;
  if (started) await (await started).stop();
}

/** A fresh, empty location of one kind: a SQLite file in a new folder, or a new database. */
export interface Location {
  readonly kind: StoreKind;
  readonly location: string;
  dispose(): Promise<void>;
}

export async function freshLocation(kind: StoreKind): Promise<Location> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-store-test-'));
    return {
      kind,
      location: join(dir, 'data', 'moogle.db'),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = await freshDatabase(await adminUrl());
  return { kind, location: database.url, dispose: database.drop };
}

export async function open(location: string): Promise<Store> {
  const opened = await openStore(location);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

const built = new Map<string, Promise<string>>();

/**
 * A child script of this folder bundled into one plain JavaScript file (npm packages left
 * external), so each writer process the kill and race tests start loads in a fraction of the
 * time `--import tsx` takes to compile the engine on every start. Same source, bundled once per
 * test file, under node_modules/.cache so its packages resolve.
 */
export function bundledChild(name: string): Promise<string> {
  let script = built.get(name);
  if (script === undefined) {
    script = bundle(name);
    built.set(name, script);
  }
  return script;
}

async function bundle(name: string): Promise<string> {
  const { build } = await import('esbuild');
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const outfile = join(
    root,
    'node_modules',
    '.cache',
    'moogle-store-test',
    `${name}-${randomUUID()}.mjs`,
  );
  await build({
    entryPoints: [fileURLToPath(new URL(`./${name}.ts`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}
