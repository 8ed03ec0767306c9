import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

const WIND_CAVE = 'examples/ffrpg-wind-cave.yaml';

async function run(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (line) => out.push(line), err: (line) => err.push(line) };
  const status = await main(['node', 'moogle', ...args], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

const SMALL = ['-n', '60', '--budget', '900', '--seed', '5', '--workers', '1'];

describe('moogle balance', () => {
  it('--json: value, winRate {rate, low, high}, points [{value, rate, low, high, battles}]; the same for a seed', async () => {
    const args = [
      'balance',
      WIND_CAVE,
      '--vary',
      'heket.stats.hp=100..900',
      '--target',
      'party=50%',
      ...SMALL,
      '--json',
    ];
    const first = await run(...args);
    expect(first.status, first.err).toBe(0);
    const r = JSON.parse(first.out) as Record<string, unknown>;
    expect(typeof r.value).toBe('number');
    expect(Object.keys(r.winRate as object).sort()).toEqual(['high', 'low', 'rate']);
    const points = r.points as Record<string, number>[];
    expect(points.length).toBeGreaterThanOrEqual(3);
    for (const p of points) {
      for (const key of ['value', 'rate', 'low', 'high', 'battles']) {
        expect(typeof p[key], key).toBe('number');
      }
      expect(p.low).toBeLessThanOrEqual(p.rate!);
      expect(p.rate).toBeLessThanOrEqual(p.high!);
    }
    expect(points.map((p) => p.value)).toEqual(
      [...points.map((p) => p.value!)].sort((a, b) => a - b),
    );
    expect(points.some((p) => p.value === r.value)).toBe(true);
    expect(r.target).toEqual({ side: 'party', name: 'The party', rate: 0.5 });
    expect(r.battles).toBeLessThanOrEqual(900);
    expect(r.tolerance).toBe(0.04);
    expect(['on-target', 'separated', 'budget']).toContain(r.stop);
    expect(r.onTarget).toBe(r.stop === 'on-target');
    const second = await run(...args);
    expect(second.out).toBe(first.out);
  });

  it('the text: the value and its interval, then one chart line per point sorted, the chosen marked', async () => {
    const { status, out, err } = await run(
      'balance',
      WIND_CAVE,
      '--vary',
      'heket.stats.hp=100..900',
      '--target',
      'party=0.5',
      ...SMALL,
    );
    expect(status, err).toBe(0);
    const lines = out.split('\n');
    expect(
      lines.find((l) =>
        /^heket\.stats\.hp = \d+: The party wins [\d.]+% \(95% interval [\d.]+% to [\d.]+%\)$/.test(
          l,
        ),
      ),
    ).toBeDefined();
    const rows = lines.filter((l) => l.includes('0%') && l.includes('100%') && /^[ ▶] +\d/.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const values = rows.map((l) => Number(/^[ ▶] +(\d+)/.exec(l)![1]));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(rows.filter((l) => l.startsWith('▶') && l.endsWith('◀ chosen'))).toHaveLength(1);
    // The target is the same column on every line, and the header's ▼ stands above it.
    const head = lines.find((l) => l.includes('▼'))!;
    for (const row of rows) expect(row.indexOf('│')).toBe(head.indexOf('▼'));
  });

  it('a target outside the range is said plainly and exits 3', async () => {
    const { status, out, err } = await run(
      'balance',
      WIND_CAVE,
      '--vary',
      'heket.stats.hp=600..2000',
      '--target',
      'party=0.95',
      ...SMALL,
    );
    expect(status).toBe(3);
    expect(out).toContain(
      'No value in 600..2000 gives The party 95.0%: the target is above the win rate over the whole range',
    );
    expect(err).toContain(
      'the target party=0.95 lies above the win rates heket.stats.hp gives from 600 to 2000',
    );
    const json = await run(
      'balance',
      WIND_CAVE,
      '--vary',
      'heket.stats.hp=600..2000',
      '--target',
      'party=0.95',
      ...SMALL,
      '--json',
    );
    expect(json.status).toBe(3);
    expect(JSON.parse(json.out)).toMatchObject({ value: null, winRate: null, outside: 'above' });
  });

  it.each([
    [['--vary', 'heket.stats.hq=1..9'], "stats has no field 'hq'"],
    [['--vary', 'heket.weapon.name=1..9'], 'the field is "Webbed Claw"'],
    [['--vary', 'hekt.stats.hp=1..9'], "the encounter uses no character or monster 'hekt'"],
    [['--vary', 'heket.stats.hp=9..1'], 'the range 9..1 is empty'],
    [['--vary', 'heket.stats.hp=0..9'], "'heket' refuses 0"],
    [['--vary', 'heket.stats.hp=1..9', '--step', '0.5'], 'a whole number of steps'],
    [['--vary', 'heket.stats.hp=1..9', '--target', 'heroes=0.5'], "no side 'heroes'"],
    [['--vary', 'heket.stats.hp=1..9', '--target', 'party=2'], "the rate '2' is not a win rate"],
    [['--vary', 'heket.stats.hp=1..9', '--policy', 'clever'], "unknown policy 'clever'"],
    [['--vary', 'heket.stats.hp=1..9', '--budget', '10'], "the two ends' 120 battles"],
    [
      ['--vary', 'heket.stats.hp=1..9', '--tolerance', 'lots'],
      "--tolerance takes a win rate, as 0.03 or 3%, got 'lots'",
    ],
    [
      ['--vary', 'heket.stats.hp=1..9', '--tolerance', '0'],
      '--tolerance takes a win rate from 0.001 to 0.5',
    ],
  ])('refuses %j with exit 2: %s', async (flags, says) => {
    const withTarget = flags.includes('--target') ? flags : [...flags, '--target', 'party=0.5'];
    const { status, err } = await run('balance', WIND_CAVE, ...withTarget, '-n', '60');
    expect(status).toBe(2);
    expect(err).toContain(says);
  });
});
