import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as client from '../src/client/index.js';
import * as nodeClient from '../src/client/node.js';
import * as moogle from '../src/index.js';
import { PROTOCOL_VERSION } from '../src/server/protocol.js';

const ROOT = new URL('../', import.meta.url).pathname;

describe('the package entry', () => {
  it('exports every system as a namespace, Shining Force between battles included', () => {
    for (const name of ['ffrpg', 'ffviii', 'zodiac', 'shiningForce', 'engine', 'content']) {
      expect(moogle).toHaveProperty(name);
    }
    const sf = moogle.shiningForce as Record<string, unknown>;
    for (const fn of Object.keys(sf).filter((k) => /exp|level|promot|priest|store/i.test(k))) {
      expect(typeof sf[fn]).toMatch(/function|object|number/);
    }
    expect(Object.keys(sf).some((k) => /promot/i.test(k))).toBe(true);
    expect(moogle.SYSTEMS.map((s) => s.ruleset.id)).toEqual([
      'ffrpg',
      'ffviii',
      'zodiac',
      'shining-force',
    ]);
    expect(typeof moogle.engine.gm.parseGmLine).toBe('function');
  });
});

describe('moogle/client', () => {
  const exports = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).exports;

  it('is exported with its types, for Node (over ws) and for browsers', () => {
    expect(exports['./client']).toEqual({
      types: './dist/client/index.d.ts',
      node: './dist/client/node.js',
      default: './dist/client/index.js',
    });
    expect(exports['./client/node']).toEqual({
      types: './dist/client/node.d.ts',
      default: './dist/client/node.js',
    });
    for (const names of [client, nodeClient]) {
      for (const name of ['connect', 'EncounterClient', 'follow', 'socketUrl']) {
        expect(names).toHaveProperty(name);
      }
    }
    expect(client.CLIENT_PROTOCOL).toBe(PROTOCOL_VERSION);
  });

  it('asks for a WebSocket where there is none, and has ws in Node', () => {
    // Node 20 has no WebSocket of its own: the browser entry asks for one, the Node one has ws.
    if (typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'undefined') {
      expect(() => client.connect({ url: () => 'ws://127.0.0.1:9/' })).toThrow(/WebSocket/);
    }
    const viaWs = nodeClient.connect({ url: () => 'ws://127.0.0.1:9/' });
    viaWs.close();
  });

  it('bundles for a browser without ws or anything of Node', async () => {
    const bundled = await build({
      entryPoints: [`${ROOT}src/client/index.ts`],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
    });
    const inputs = Object.keys(bundled.metafile.inputs);
    expect(inputs.filter((i) => /node_modules|^node:/.test(i))).toEqual([]);
    expect(inputs.some((i) => i.endsWith('src/server/protocol.ts'))).toBe(false);
  });

  // The built package, as an installed one is imported: `npm run build` makes dist/, built here
  // when this file runs alone before it did.
  it('resolves moogle/client to the ws client in Node', () => {
    if (!existsSync(`${ROOT}dist/client/node.js`)) {
      execFileSync(
        process.execPath,
        [`${ROOT}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'],
        {
          cwd: ROOT,
          stdio: 'inherit',
        },
      );
    }
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('moogle/client'); const n = await import('moogle/client/node'); console.log(JSON.stringify([m.connect === n.connect, typeof m.EncounterClient]))",
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual([true, 'function']);
  }, 120_000);
});
