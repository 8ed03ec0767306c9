import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

/** Runs the CLI in this process and captures what it prints. */
async function run(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (line) => out.push(line), err: (line) => err.push(line) };
  const status = await main(['node', 'moogle', ...args], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

const JSON_KEYS = [
  'system',
  'cos',
  'roll',
  'success',
  'critical',
  'botch',
  'ruleOf10',
  'automatic',
  'margin',
];

describe('moogle check ffrpg', () => {
  it('says the CoS, the roll and the verdict: the Heket shot, CoS 70 rolled 28', async () => {
    const { status, out, err } = await run(
      'check',
      'ffrpg',
      '--rating',
      '92',
      '--modifier',
      '-22',
      '--roll',
      '28',
    );
    expect(status).toBe(0);
    expect(err).toBe('');
    expect(out).toBe('CoS 70 (rating 92 + modifier -22): rolled 28: success, margin 42');
  });

  it('"a Task Check will not be required" at CoS 130: Awareness 50, elementary', async () => {
    const { status, out } = await run(
      'check',
      'ffrpg',
      '--rating',
      '50',
      '--modifier',
      'elementary',
    );
    expect(status).toBe(0);
    expect(out).toBe('CoS 130 (rating 50 + modifier +80): succeeds automatically, no roll');
  });

  it('notes a --roll it ignored because none was needed', async () => {
    const { status, out } = await run(
      'check',
      'ffrpg',
      '--rating',
      '50',
      '--modifier',
      '+80',
      '--roll',
      '97',
    );
    expect(status).toBe(0);
    expect(out.split('\n')).toHaveLength(2);
    expect(out).toContain('--roll 97 ignored');
  });

  it('rolls the d% itself, showing the called die and the ones die, the same for the same seed', async () => {
    const a = await run('check', 'ffrpg', '--rating', '50', '--modifier', '20', '--seed', '7');
    const b = await run('check', 'ffrpg', '--rating', '50', '--modifier', '20', '--seed', '7');
    expect(a.status).toBe(0);
    expect(a.out).toBe(b.out);
    const match =
      /^CoS 70 \(rating 50 \+ modifier \+20\): rolled (\d+) \[(\d)0\+(\d)\]: (.+), margin (-?\d+)$/.exec(
        a.out,
      );
    expect(match).not.toBeNull();
    const [, roll, tens, ones, , margin] = match!;
    expect(Number(tens) * 10 + Number(ones) || 100).toBe(Number(roll));
    expect(Number(margin)).toBe(70 - Number(roll));
  });

  it('rolls without a seed', async () => {
    const { status, out } = await run('check', 'ffrpg', '--rating', '50', '--modifier', 'heroic');
    expect(status).toBe(0);
    expect(out).toMatch(/^CoS -10 \(rating 50 \+ modifier -60\): rolled \d+ \[\d0\+\d\]: /);
  });

  it.each([
    [['--rating', '50', '--modifier', '20', '--roll', '5'], 'Critical Success, margin 65'],
    [['--rating', '50', '--modifier', '20', '--roll', '71'], 'failure, margin -1'],
    [['--rating', '50', '--modifier', '20', '--roll', '96'], 'Botch (failure), margin -26'],
    [
      ['--rating', '99', '--modifier', '0', '--roll', '97'],
      'Botch (fails though at or under the CoS), margin 2',
    ],
    [
      ['--rating', '10', '--modifier', 'impossible', '--roll', '7'],
      'success under the Rule of 10 (not a Critical Success), margin -77',
    ],
    [
      ['--rating', '10', '--modifier', 'impossible', '--roll', '7', '--impossible'],
      'failure (declared impossible: no Rule of 10), margin -77',
    ],
  ])('%j ends with %j', async (args, ending) => {
    const { status, out } = await run('check', 'ffrpg', ...args);
    expect(status).toBe(0);
    expect(out.endsWith(ending)).toBe(true);
  });

  it('prints exactly one JSON object with the documented keys', async () => {
    const { status, out } = await run(
      'check',
      'ffrpg',
      '--rating',
      '34',
      '--modifier',
      'easy',
      '--roll',
      '40',
      '--json',
    );
    expect(status).toBe(0);
    expect(out.split('\n')).toHaveLength(1);
    const json = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(JSON_KEYS);
    expect(json).toEqual({
      system: 'ffrpg',
      cos: 74,
      roll: 40,
      success: true,
      critical: false,
      botch: false,
      ruleOf10: false,
      automatic: false,
      margin: 34,
    });
  });

  it('gives roll and margin null in JSON when no roll was needed', async () => {
    const { out } = await run('check', 'ffrpg', '--rating', '50', '--modifier', '80', '--json');
    expect(JSON.parse(out)).toMatchObject({ cos: 130, roll: null, margin: null, automatic: true });
  });

  it('accepts --modifier=-20 and a negative modifier as its own argument', async () => {
    const a = await run('check', 'ffrpg', '--rating', '40', '--modifier=-20', '--roll', '32');
    const b = await run('check', 'ffrpg', '--rating', '40', '--modifier', '-20', '--roll', '32');
    expect(a.out).toBe('CoS 20 (rating 40 + modifier -20): rolled 32: failure, margin -12');
    expect(b.out).toBe(a.out);
  });

  it.each([
    [['--rating', '50', '--modifier', '0', '--roll', '0'], '--roll'],
    [['--rating', '50', '--modifier', '0', '--roll', '101'], '1 to 100'],
    [['--rating', '50', '--modifier', '0', '--roll', 'x'], 'not a whole number'],
    [['--rating', 'abc', '--modifier', '0'], "--rating: 'abc' is not a whole number"],
    [['--rating', '12.5', '--modifier', '0'], 'Skill Ratings are whole numbers'],
    [['--rating', '-3', '--modifier', '0'], 'is not a Rating'],
    [['--rating', '150', '--modifier', '0'], 'put bonuses in --modifier'],
    [['--rating', '50', '--modifier', '90'], '-80 to +80'],
    [['--rating', '50', '--modifier', 'trivial'], 'Elementary, Easy'],
    [['--rating', '50', '--modifier', '0', '--roll', '5', '--seed', '1'], 'not both'],
    [['--modifier', '0'], '--rating'],
    [['--rating', '50'], '--modifier'],
  ])('rejects %j with status 2 and says why', async (args, message) => {
    const { status, out, err } = await run('check', 'ffrpg', ...args);
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
  });

  it('rejects an unknown system with status 2, listing the known ones', async () => {
    const { status, out, err } = await run('check', 'dnd5e', '--rating', '50', '--modifier', '0');
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toContain("unknown system 'dnd5e'");
    expect(err).toContain('ffrpg');
  });
});
