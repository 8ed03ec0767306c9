import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

const BIN = fileURLToPath(new URL('../../bin/moogle.js', import.meta.url));

/** Runs the CLI in this process and captures what it prints. */
async function run(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (line) => out.push(line), err: (line) => err.push(line) };
  const status = await main(['node', 'moogle', ...args], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('moogle roll', () => {
  it('prints the one-line explanation: 4d6kh3 = [6, 5, 1d, 5] = 16', async () => {
    const { status, out } = await run('roll', '4d6kh3', '--dice', '6,5,1,5');
    expect(status).toBe(0);
    expect(out).toBe('4d6kh3 = [6, 5, 1d, 5] = 16');
  });

  it('is repeatable with --seed', async () => {
    const a = await run('roll', '10d10kh3+d%', '--seed', '99');
    const b = await run('roll', '10d10kh3+d%', '--seed', '99');
    expect(a.out).toBe(b.out);
    expect(a.out).toMatch(/^10d10kh3\+d% = \[.*\] \+ \[\d0\+\d\] = \d+$/);
  });

  it('takes variables: 2 x AGI + d12 with AGI 10 (the Valiant Rifle)', async () => {
    const { out } = await run('roll', '2*AGI + d12', '--var', 'AGI=10', '--dice', '7');
    expect(out).toBe('2*AGI + d12 = 2 * 10 + [7] = 27');
  });

  it('prints one JSON object with expression, total, detail and text', async () => {
    const { status, out } = await run('roll', '3d6', '--seed', '5', '--json');
    expect(status).toBe(0);
    const json = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(['expression', 'total', 'detail', 'text']),
    );
    expect(json.expression).toBe('3d6');
    expect(json.text).toBe(`3d6 = ${(json.text as string).split(' = ')[1]} = ${json.total}`);
    expect((json.detail as { dice: unknown[] }).dice).toHaveLength(3);
  });

  it.each([
    [['roll', '3d6+$'], 'column 5'],
    [['roll', 'STR+1'], "unknown variable 'STR'"],
    [['roll', '4d6', '--dice', '3,5,6'], 'needs 1 more die'],
    [['roll', '4d6', '--dice', '3,5,6,7'], 'fills a d6'],
    [['roll', '2d6', '--dice', '3,5,6'], 'not used'],
    [['roll', '2d6', '--dice', 'x'], "'x'"],
    [['roll', '2d6', '--var', 'X'], 'NAME=VALUE'],
    [['roll', '2d6', '--var', 'X=1.5'], 'whole number'],
    [['roll', '2d6', '--seed', '1', '--dice', '1,2'], 'not both'],
    [['roll', '10001d6'], '10000'],
    [['roll', 'd0'], 'at least 1 side'],
    [['odds', '10000d6'], 'maxOddsWork'],
    [['odds', '3d6', '--at-least', 'many'], 'whole number'],
  ])('rejects %j with status 2 and says why', async (args, message) => {
    const { status, out, err } = await run(...args);
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
  });
});

describe('moogle odds', () => {
  it('prints a histogram and a summary line', async () => {
    const { status, out } = await run('odds', '4d6kh3');
    expect(status).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('4d6kh3');
    expect(lines).toHaveLength(1 + 16 + 1);
    expect(lines.at(-1)).toBe('mean 12.2446, stdev 2.8468, min 3, max 18');
  });

  it('groups many values into at most 40 bands plus tails', async () => {
    const { out } = await run('odds', '100d10');
    expect(out.split('\n').length).toBeLessThanOrEqual(1 + 42 + 1);
  });

  it('answers a d% Task Check: CoS 70 succeeds 70% of the time', async () => {
    const { out } = await run('odds', 'd%', '--at-most', '70');
    expect(out).toContain('P(<= 70) = 70.00%');
  });

  it('prints JSON with the distribution sorted by value', async () => {
    const { out } = await run('odds', '2d6', '--json');
    const json = JSON.parse(out) as {
      min: number;
      max: number;
      mean: number;
      stdev: number;
      truncated: number;
      distribution: [number, number][];
    };
    expect(json.min).toBe(2);
    expect(json.max).toBe(12);
    expect(json.mean).toBe(7);
    expect(json.truncated).toBe(0);
    expect(json.distribution.map(([v]) => v)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(json.distribution[5]![1]).toBeCloseTo(6 / 36, 12);
  });

  it('reports the truncated probability of explosions', async () => {
    const { out } = await run('odds', '1d6!', '--json');
    expect((JSON.parse(out) as { truncated: number }).truncated).toBeCloseTo((1 / 6) ** 11, 15);
  });
});

describe('the installed bin', () => {
  it('runs --help and exits 0', () => {
    const help = execFileSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    expect(help).toContain('roll');
    expect(help).toContain('odds');
  });

  it('exits 2 with the message on stderr for bad input', () => {
    const result = spawnSync(process.execPath, [BIN, 'roll', '3d6+$'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('^');
  });

  it('runs the demo', () => {
    const demo = execFileSync(process.execPath, [BIN, 'demo'], { encoding: 'utf8' });
    expect(demo).toContain('4d6kh3');
    expect(demo).toContain('mean 12.2446');
    // "Combat in Action" with the text's dice entered as faces: they were read as totals, so
    // Haze's 6 (SPD 8) was refused and the opening never shown.
    expect(demo).toContain('Round 1. Initiative: Hiro 15, Haze 14, Mint 12, Heket 12');
    expect(demo).toContain('2*AGI + d12 = 2 * 10 + [10] = 30');
  });
});
