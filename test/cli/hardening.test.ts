import { describe, expect, it } from 'vitest';
import { collectVariable } from '../../src/cli/input.js';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

async function run(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (line) => out.push(line), err: (line) => err.push(line) };
  const status = await main(['node', 'moogle', ...args], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('moogle roll and odds refuse what they cannot do, in one line', () => {
  it('roll 4294967296d9kh8: the 10,000-dice limit, exit 2, no crash', async () => {
    const { status, err } = await run('roll', '4294967296d9kh8', '--seed', '1');
    expect(status).toBe(2);
    expect(err).toContain('4294967296 dice is more than the 10000 allowed in one roll');
  });

  it("odds '(1d30)d10000' is refused by the work budget, exit 2", async () => {
    const { status, err } = await run('odds', '(1d30)d10000');
    expect(status).toBe(2);
    expect(err).toContain('exact odds of (1d30)d10000 would take more than');
  });

  it('a roll of 10,000 dice rerolled 100 times each prints a bounded line', async () => {
    const { status, out } = await run('roll', '10000d4294967296r<4294967296', '--seed', '1');
    expect(status).toBe(0);
    expect(out.length).toBeLessThan(10_000);
    expect(out).toMatch(/, \.\.\. 9900 more dice\] = 42949672960000$/);
    expect(out).toContain('~98 more~ 4294967296');
  });

  it('roll --json of the same prints a bounded object, saying the per-die tree was left out', async () => {
    const { status, out } = await run(
      'roll',
      '10000d4294967296r<4294967296',
      '--seed',
      '1',
      '--json',
    );
    expect(status).toBe(0);
    expect(out.length).toBeLessThan(10_000);
    const json = JSON.parse(out);
    expect(json).toMatchObject({ total: 42949672960000, detail: null, seed: 1 });
    expect(json.detailOmitted).toMatch(/over the 1000000 printed/);
    const small = JSON.parse((await run('roll', '3d6', '--seed', '1', '--json')).out);
    expect(small.detail).not.toBeNull();
  });
});

describe('--var', () => {
  it('adds each flag to one record in place (a copy per flag made 5,000 flags take 20 s)', () => {
    const first = collectVariable('A=1');
    const second = collectVariable('B=2', first);
    expect(second).toBe(first);
    expect({ ...second }).toEqual({ A: 1, B: 2 });
  });

  it('5,000 flags are all read', async () => {
    const flags = Array.from({ length: 5000 }, (_, i) => ['--var', `V${i}=${i}`]).flat();
    const { status, out } = await run('roll', 'V4999 + V1', ...flags, '--seed', '1');
    expect(status).toBe(0);
    expect(out).toBe('V4999 + V1 = 4999 + 1 = 5000');
  });

  it('a variable named __proto__ is a variable, not a prototype', async () => {
    const { status, out } = await run('roll', '__proto__ + 1', '--var', '__proto__=4');
    expect(status).toBe(0);
    expect(out).toBe('__proto__ + 1 = 4 + 1 = 5');
  });
});
