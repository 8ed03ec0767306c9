import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { POLICIES } from '../../src/sim/policies.js';
import { runBattles } from '../../src/sim/runner.js';

const GATE = fileURLToPath(new URL('../../examples/shining-force-gate.yaml', import.meta.url));

async function run(
  args: string[],
  lines?: string[],
): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    ...(lines === undefined ? {} : { input: Readable.from([lines.map((l) => `${l}\n`).join('')]) }),
  };
  // A battle here plays without an autosave and past rejected lines (see never-lose).
  const flags = args[0] === 'battle' ? ['--no-autosave', '--keep-going'] : [];
  const status = await main(['node', 'moogle', ...args, ...flags], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('moogle check shining-force', () => {
  const rates = ['--evade', '9', '--critical', '5', '--counter', '15'];

  it('prints the five rolls and what they decided as one JSON object', async () => {
    const { status, out } = await run([
      'check',
      'shining-force',
      ...rates,
      '--rolls',
      '10,50,3,99,50',
      '--json',
    ]);
    expect(status).toBe(0);
    expect(JSON.parse(out)).toEqual({
      system: 'shining-force',
      rolls: [10, 50, 3, 99, 50],
      hit: true,
      variance: 0,
      critical: true,
      counter: false,
      counterVariance: 0,
    });
  });

  it('"if the target had a 9% evade rate, a roll of 10-100 would result in a hit": 9 misses', async () => {
    const { out } = await run([
      'check',
      'shining-force',
      ...rates,
      '--rolls',
      '9,50,3,1,50',
      '--json',
    ]);
    expect(JSON.parse(out)).toMatchObject({ hit: false, critical: false, counter: false });
  });

  it('variance is the percentage applied, with the 1d15 entered or rolled', async () => {
    const { out } = await run([
      'check',
      'shining-force',
      ...rates,
      '--rolls',
      '10,20,50,15,90',
      '--d15',
      '7,4',
      '--json',
    ]);
    expect(JSON.parse(out)).toMatchObject({
      variance: -7,
      critical: false,
      counter: true,
      counterVariance: 4,
    });
    const text = await run([
      'check',
      'shining-force',
      ...rates,
      '--rolls',
      '10,20,50,15,90',
      '--d15',
      '7,4',
    ]);
    expect(text.out).toBe(
      [
        'Hit: 10 against evade 9: hit',
        'Variance: 20 (1-33, -1d15%): -7%',
        'Critical: 50 against 5: no critical',
        'Counter: 15 against 15: counter attack',
        'Counter variance: 90 (67-100, +1d15%): +4%',
      ].join('\n'),
    );
    const seeded = await run(['check', 'shining-force', ...rates, '--seed', '4', '--json']);
    const again = await run(['check', 'shining-force', ...rates, '--seed', '4', '--json']);
    expect(seeded.out).toBe(again.out);
    expect(JSON.parse(seeded.out).rolls).toHaveLength(5);
  });

  it.each([
    [['--evade', '9', '--critical', '5'], 'needs --counter'],
    [[...rates, '--rolls', '1,2,3'], 'give all five'],
    [[...rates, '--rolls', '1,2,3,4,101'], 'not five d100 rolls'],
    [['--evade', '101', '--critical', '5', '--counter', '1'], 'not a rate'],
    [[...rates, '--rating', '50'], '--rating is not an option of moogle check shining-force'],
  ])('refuses %j with exit 2', async (args, message) => {
    const { status, err } = await run(['check', 'shining-force', ...args]);
    expect(status).toBe(2);
    expect(err).toContain(message);
  });

  it('keeps the ffrpg form working, and tells it from the other', async () => {
    const ffrpg = await run([
      'check',
      'ffrpg',
      '--rating',
      '92',
      '--modifier',
      '-22',
      '--roll',
      '28',
    ]);
    expect(ffrpg.out).toBe('CoS 70 (rating 92 + modifier -22): rolled 28: success, margin 42');
    expect((await run(['check', 'ffrpg', '--rating', '50'])).err).toContain(
      '--modifier is required',
    );
    expect((await run(['check', 'ffrpg', ...rates])).err).toContain(
      '--evade is not an option of moogle check ffrpg',
    );
  });
});

describe('moogle battle on the Gate of Guardiana', () => {
  it('draws the grid and plays to the end with --auto', async () => {
    const { status, out } = await run(['battle', GATE, '--seed', '1', '--auto']);
    expect(status).toBe(0);
    expect(out).toContain('The Gate of Guardiana (Shining Force tabletop)');
    expect(out).toMatch(/ {4}A B C D E F G H\n {2}1 /);
    expect(out).toContain('rolls: hit');
    expect(out).toMatch(/Outcome: .* won|Outcome: a draw/);
  });

  it('shows whose turn it is and marks the cells it can reach', async () => {
    const { status, out } = await run(['battle', GATE, '--seed', '2'], ['1', 'show', 'quit']);
    expect(status).toBe(0);
    const actor = /\n(\w+)'s turn\.\n/.exec(out.slice(out.indexOf('Round 1')))?.[1];
    expect(actor).toBeDefined();
    expect(out).toContain('+ can move here');
    // The moves leave out whose turn it is, said just above them: "Move to C4", not "Move Max to C4".
    expect(out).toMatch(/\d+ x move, typed by name: Move to [A-H]\d/);
    expect(out).not.toContain(`Move ${actor} to`);
  });

  it('moves Max by a typed cell and refuses a cell out of reach', async () => {
    // Seed 5 gives Max the first turn; find it by trying until the board shows him moving.
    for (let seed = 1; seed < 40; seed++) {
      const probe = await run(['battle', GATE, '--seed', String(seed)], ['1', 'quit']);
      if (!/\nMax's turn\.\n/.test(probe.out)) continue;
      const { out } = await run(
        ['battle', GATE, '--seed', String(seed)],
        ['1', 'move max h6', 'move max c3', 'quit'],
      );
      expect(out).toContain('Refused: Max cannot move to H6: out of reach');
      expect(out).toContain('Max moves B3 -> C3.');
      // Without the name, the listed move of the one whose turn it is: "Move to C3".
      const unnamed = await run(['battle', GATE, '--seed', String(seed)], ['1', 'move c3', 'quit']);
      expect(unnamed.out).toContain('Max moves B3 -> C3.');
      return;
    }
    throw new Error('no seed gave Max the first turn');
  });
});

describe('moogle sim on the Gate of Guardiana', () => {
  it('plays every battle to an outcome under every policy', () => {
    const read = readEncounterFile(GATE, SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    for (const [name, policy] of Object.entries(POLICIES)) {
      const agg = runBattles(read.encounter.system, read.encounter.setup, policy, {
        seed: name,
        from: 0,
        to: 40,
      });
      const won = Object.values(agg.wins).reduce((a, b) => a + b, 0);
      expect(won + agg.draws, name).toBe(40);
      expect(agg.unfinished, name).toBe(0);
    }
  });

  it('reports through the CLI', async () => {
    const { status, out } = await run([
      'sim',
      GATE,
      '-n',
      '200',
      '--seed',
      '1',
      '--workers',
      '1',
      '--json',
    ]);
    expect(status).toBe(0);
    const report = JSON.parse(out);
    expect(report.battles).toBe(200);
    expect(Object.keys(report.wins).sort()).toEqual(['force', 'runefaust']);
  });
});
