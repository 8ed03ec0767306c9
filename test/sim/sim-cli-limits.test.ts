import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

// The smallest example: these tests are about the command, not the rules.
const EXAMPLE = 'examples/ffviii-iron-giant.yaml';

function start(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (line) => out.push(line), err: (line) => err.push(line) };
  const status = main(['node', 'moogle', ...args], io);
  return { status, out, err };
}

describe('moogle sim refuses and bounds', () => {
  it("refuses --seed '' as battle does", async () => {
    const run = start('sim', EXAMPLE, '-n', '10', '--seed', '');
    expect(await run.status).toBe(2);
    expect(run.err.join('\n')).toContain('--seed must be 1 to 200 characters');
  });

  it('lowers --workers to the number of cores, and says so', async () => {
    const run = start('sim', EXAMPLE, '-n', '20', '--seed', '1', '--workers', '64');
    expect(await run.status).toBe(0);
    const cores = availableParallelism();
    if (cores < 64) {
      expect(run.err).toContain(`moogle: --workers 64 lowered to ${cores}, the number of cores`);
    }
  });

  it('an interrupted sim prints its partial result and exits 130', async () => {
    const before = new Set(process.listeners('SIGINT'));
    const run = start('sim', EXAMPLE, '-n', '100000000', '--seed', '1', '--workers', '1');
    // Ctrl-C to the sim alone, once it listens: `process.emit` would also reach whatever else
    // listens in this worker (the runner's own handler, a `serve` another file ran here), and
    // sent before the sim listens it reaches only those (a busy machine took over 50 ms).
    const deadline = Date.now() + 10_000;
    let added = process.listeners('SIGINT').filter((l) => !before.has(l));
    while (added.length === 0) {
      if (Date.now() > deadline) throw new Error('the sim never listened for Ctrl-C');
      await new Promise((resolve) => setTimeout(resolve, 10));
      added = process.listeners('SIGINT').filter((l) => !before.has(l));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const listener of added) {
      process.removeListener('SIGINT', listener);
      (listener as (signal: NodeJS.Signals) => void)('SIGINT');
    }
    expect(await run.status).toBe(130);
    expect(run.out.join('\n')).toContain('interrupted, partial result');
    expect(run.err.join('\n')).toMatch(/interrupted after \d+ of 100000000 battles/);
  });
});
