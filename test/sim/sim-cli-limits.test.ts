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
    const listening = process.listenerCount('SIGINT');
    const run = start('sim', EXAMPLE, '-n', '100000000', '--seed', '1', '--workers', '1');
    // Ctrl-C once the run listens for it: sent before, it would reach the test runner's own
    // handler, which ends the worker (a busy machine took longer than a fixed 50 ms to get there).
    const deadline = Date.now() + 10_000;
    while (process.listenerCount('SIGINT') === listening) {
      if (Date.now() > deadline) throw new Error('the sim never listened for Ctrl-C');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.emit('SIGINT');
    expect(await run.status).toBe(130);
    expect(run.out.join('\n')).toContain('interrupted, partial result');
    expect(run.err.join('\n')).toMatch(/interrupted after \d+ of 100000000 battles/);
  });
});
