import { Readable } from 'node:stream';
/**
 * The FFVIII RPG on the command line: `moogle check ffviii` (an action check, "rolls the dice and
 * adds the result to the appropriate Action Value"), and the Iron Giant example played by
 * `moogle battle --auto` and `moogle sim`.
 */
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

const EXAMPLE = 'examples/ffviii-iron-giant.yaml';

/** Runs the CLI in this process and captures what it prints. */
async function run(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (line) => out.push(line), err: (line) => err.push(line) };
  // A battle here plays without an autosave and past rejected lines (see never-lose).
  const flags = args[0] === 'battle' ? ['--no-autosave', '--keep-going'] : [];
  const status = await main(['node', 'moogle', ...args, ...flags], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

const check = (...flags: string[]) => run('check', 'ffviii', ...flags);

interface CheckJson {
  system: string;
  actionValue: number;
  difficulty: number;
  roll: number;
  result: number;
  success: boolean;
  margin: number;
  boxcars: boolean;
}

describe('moogle check ffviii', () => {
  it('"he rolls a -4" on Martial Arts AV 11 against the Dodge of 6: prints exactly one JSON object', async () => {
    const { status, out, err } = await check(
      '--action-value',
      '11',
      '--difficulty',
      '6',
      '--roll',
      '-4',
      '--json',
    );
    expect(status).toBe(0);
    expect(err).toBe('');
    expect(out).toBe(
      '{"system":"ffviii","actionValue":11,"difficulty":6,"roll":-4,"result":7,"success":true,"margin":1,"boxcars":false}',
    );
  });

  it('says it in words too', async () => {
    const { status, out } = await check(
      '--action-value',
      '11',
      '--difficulty',
      '6',
      '--roll',
      '-4',
    );
    expect(status).toBe(0);
    expect(out).toBe('AV 11 + action dice -4 = 7 against 6: success by 1');
  });

  it.each([
    [['--roll', '-5'], 'AV 11 + action dice -5 = 6 against 6: success by 0'],
    [['--roll', '-6'], 'AV 11 + action dice -6 = 5 against 6: failure by 1'],
    [['--roll', '+3'], 'AV 11 + action dice +3 = 14 against 6: success by 8'],
  ])('"higher than or equal to the difficulty ... succeeds": %j', async (flags, line) => {
    const { status, out } = await check('--action-value', '11', '--difficulty', '6', ...flags);
    expect(status).toBe(0);
    expect(out).toBe(line);
  });

  it('"Fnord rolls a 2, and so his final result is 12" against Magic Evade 1 + 3 (dodging)', async () => {
    const { out } = await check(
      '--action-value',
      '10',
      '--difficulty',
      '4',
      '--roll',
      '2',
      '--json',
    );
    expect(JSON.parse(out)).toMatchObject({ result: 12, success: true, margin: 8 });
  });

  it('boxcars entered with --roll: a critical failure only when the check fails', async () => {
    const failed = await check(
      '--action-value',
      '10',
      '--difficulty',
      '11',
      '--roll',
      '0',
      '--boxcars',
    );
    expect(failed.out).toBe(
      'AV 10 + action dice +0 = 10 against 11: failure by 1: boxcars on a failure, a critical failure',
    );
    const passed = await check(
      '--action-value',
      '10',
      '--difficulty',
      '7',
      '--roll',
      '0',
      '--boxcars',
      '--json',
    );
    expect(JSON.parse(passed.out)).toMatchObject({ success: true, boxcars: true });
  });

  it('rolls the action dice itself, the same for the same seed, showing both dice', async () => {
    const a = await check('--action-value', '11', '--difficulty', '6', '--seed', '7');
    const b = await check('--action-value', '11', '--difficulty', '6', '--seed', '7');
    expect(a.status).toBe(0);
    expect(a.out).toBe(b.out);
    const match =
      /^AV 11 \+ action dice \(\+\[([\d!, ]+)\] -\[([\d!, ]+)\]\) ([+-]\d+) = (-?\d+) against 6: (success|failure) by (\d+)$/.exec(
        a.out,
      );
    expect(match, a.out).not.toBeNull();
    const sum = (chain: string) =>
      chain.split(',').reduce((total, face) => total + Number.parseInt(face.trim(), 10), 0);
    const [, positive, negative, roll, result, verdict, by] = match!;
    expect(sum(positive!) - sum(negative!)).toBe(Number(roll));
    expect(Number(result)).toBe(11 + Number(roll));
    expect(verdict).toBe(Number(result) >= 6 ? 'success' : 'failure');
    expect(Number(by)).toBe(Math.abs(Number(result) - 6));
  });

  it('seeded JSON repeats, and its numbers add up over many seeds; some seed rolls boxcars', async () => {
    let boxcars = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const flags = ['--action-value', '8', '--difficulty', '9', '--seed', String(seed), '--json'];
      const first = await check(...flags);
      const again = await check(...flags);
      expect(again.out).toBe(first.out);
      const json = JSON.parse(first.out) as CheckJson;
      expect(json.result).toBe(8 + json.roll);
      expect(json.margin).toBe(json.result - 9);
      expect(json.success).toBe(json.result >= 9);
      if (json.boxcars) boxcars++;
    }
    // 1 in 36: over 150 seeds, almost surely some (and the seeds are fixed, so always the same).
    expect(boxcars).toBeGreaterThan(0);
  });

  it('rolls without a seed', async () => {
    const { status, out } = await check('--action-value', '11', '--difficulty', '6', '--json');
    expect(status).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ system: 'ffviii', actionValue: 11, difficulty: 6 });
  });

  it.each([
    [['--difficulty', '6'], '--action-value is required for this system'],
    [['--action-value', '11'], '--difficulty is required for this system'],
    [
      ['--action-value', 'eleven', '--difficulty', '6'],
      "--action-value: 'eleven' is not a whole number",
    ],
    [['--action-value', '11', '--difficulty', '6.5'], "--difficulty: '6.5' is not a whole number"],
    [
      ['--action-value', '11', '--difficulty', '6', '--roll', 'x'],
      "--roll: 'x' is not a whole number",
    ],
    [
      ['--action-value', '11', '--difficulty', '6', '--roll', '1', '--seed', '2'],
      'give --seed or --roll, not both',
    ],
    [['--action-value', '11', '--difficulty', '6', '--boxcars'], '--boxcars goes with --roll'],
    [['--action-value', '-1', '--difficulty', '6'], 'is not an Action Value (0 to 99)'],
    [['--action-value', '100', '--difficulty', '6'], 'is not an Action Value (0 to 99)'],
    [['--action-value', '11', '--difficulty', '6', '--roll', '1000'], 'out of range'],
    [
      ['--action-value', '11', '--difficulty', '6', '--rating', '50'],
      '--rating is not an option of moogle check ffviii',
    ],
    [
      ['--action-value', '11', '--difficulty', '6', '--modifier', 'easy'],
      '--modifier is not an option of moogle check ffviii',
    ],
    [
      ['--action-value', '11', '--difficulty', '6', '--impossible'],
      '--impossible is not an option of moogle check ffviii',
    ],
  ])('refuses %j with status 2 and says why', async (flags, message) => {
    const { status, out, err } = await check(...flags);
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
  });

  it('and ffrpg refuses the flags of ffviii', async () => {
    const { status, err } = await run('check', 'ffrpg', '--rating', '50', '--action-value', '11');
    expect(status).toBe(2);
    expect(err).toContain('--action-value is not an option of moogle check ffrpg');
  });
});

describe('moogle battle with the Iron Giant', () => {
  it('--auto --seed 1 plays the shot clock to a winner', async () => {
    const { status, out, err } = await run('battle', EXAMPLE, '--auto', '--seed', '1');
    expect(status).toBe(0);
    expect(err).toBe('');
    expect(out).toContain('Round 1: initiative (d10 + Speed)');
    expect(out).toMatch(/^Shot \d+$/m);
    expect(out).toMatch(/^ {2}Ehlric Lineas: d10 \d+ \+ Speed 8 = \d+$/m);
    expect(out).toMatch(/^ {2}Iron Giant: d10 \d+ \+ Speed 3 = \d+$/m);
    expect(out).toContain('The battle is over: ');
    expect(out.split('\n').at(-1)).toMatch(/^Outcome: (Ehlric and his pet|The Iron Giant) won\. /);
  });

  it('is the same battle for the same seed', async () => {
    const a = await run('battle', EXAMPLE, '--auto', '--seed', '4', '--policy', 'random');
    const b = await run('battle', EXAMPLE, '--auto', '--seed', '4', '--policy', 'random');
    expect(a.status).toBe(0);
    expect(a.out).toBe(b.out);
  });
});

describe('moogle sim with the Iron Giant', () => {
  /** The report without the field that names how it was computed. */
  function result(out: string): Record<string, unknown> {
    const { workers: _workers, ...rest } = JSON.parse(out) as Record<string, unknown>;
    return rest;
  }

  it('-n 200 --seed 2 --json: 200 battles, every one finished, the same on 1 and 2 workers', async () => {
    const one = await run('sim', EXAMPLE, '-n', '200', '--seed', '2', '--json', '--workers', '1');
    expect(one.status).toBe(0);
    const report = result(one.out);
    expect(report.battles).toBe(200);
    expect(report.seed).toBe('2');
    expect(report.unfinished).toBe(0);
    const wins = report.wins as Record<string, { count: number }>;
    expect(Object.keys(wins).sort()).toEqual(['ehlric', 'giant']);
    expect(wins.ehlric!.count + wins.giant!.count + (report.draws as number)).toBe(200);
    const two = await run('sim', EXAMPLE, '-n', '200', '--seed', '2', '--json', '--workers', '2');
    expect(two.status).toBe(0);
    expect(result(two.out)).toEqual(report);
    const again = await run('sim', EXAMPLE, '-n', '200', '--seed', '2', '--json', '--workers', '1');
    expect(again.out).toBe(one.out);
  });
});

describe('moogle battle with physical dice', () => {
  it('asks for the action dice positive die first, and reads 6 3 2 as 9 - 2 = +7', async () => {
    const out: string[] = [];
    const io: Io = {
      out: (line) => out.push(line),
      err: (line) => out.push(line),
      input: Readable.from(['dice manual\n1\n8\n9\n1\n2\n6,3,2\nquit\n']),
    };
    const status = await main(
      ['node', 'moogle', 'battle', EXAMPLE, '--seed', '3', '--no-autosave'],
      io,
    );
    const text = out.join('\n');
    expect(status).toBe(0);
    expect(text).toContain(
      'Roll fs for attack:iron-giant (the positive die, with a reroll after each 6',
    );
    expect(text).toContain(
      'Taming AV 11 + action dice +7 (+[6!, 3] -[2]) (rolled at the table) = 18 against Dodge 6',
    );
  });
});
