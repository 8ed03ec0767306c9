/** The ZODIAC example through the CLI: `moogle check zodiac`, `moogle battle`, `moogle sim`. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { POLICIES } from '../../src/sim/policies.js';
import { runBattles } from '../../src/sim/runner.js';

const EXAMPLE = 'examples/zodiac-keef-and-the-ogre.yaml';

async function run(args: string[], lines: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    input: Readable.from([lines.map((l) => `${l}\n`).join('')]),
  };
  // A battle here plays without an autosave and past rejected lines (see never-lose).
  const flags = args[0] === 'battle' ? ['--no-autosave', '--keep-going'] : [];
  const status = await main(['node', 'moogle', ...args, ...flags], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('moogle check zodiac', () => {
  it('prints the JSON of the issue: system, roll, total, hit, critical, automatic', async () => {
    const { status, out } = await run([
      'check',
      'zodiac',
      '--accuracy',
      '40',
      '--evade',
      '60',
      '--critical',
      '21',
      '--roll',
      '21',
      '--json',
    ]);
    expect(status).toBe(0);
    expect(JSON.parse(out)).toEqual({
      system: 'zodiac',
      roll: 21,
      total: 61,
      hit: true,
      critical: true,
      automatic: false,
    });
  });

  it('greater than the Evade hits, equal misses; a natural 90 hits regardless', async () => {
    expect(
      (await run(['check', 'zodiac', '--accuracy', '40', '--evade', '60', '--roll', '20'])).out,
    ).toBe('d100 20 + Accuracy 40 = 60 against Evade 60: miss');
    const auto = await run([
      'check',
      'zodiac',
      '--accuracy',
      '0',
      '--evade',
      '300',
      '--roll',
      '90',
      '--json',
    ]);
    expect(JSON.parse(auto.out)).toMatchObject({ hit: true, automatic: true, critical: false });
    expect(
      (await run(['check', 'zodiac', '--accuracy', '0', '--evade', '300', '--roll', '90'])).out,
    ).toContain('a natural 90 or more always hits');
  });

  it('rolls by seed, the same again; rejects bad input with status 2', async () => {
    const a = await run([
      'check',
      'zodiac',
      '--accuracy',
      '10',
      '--evade',
      '50',
      '--seed',
      '4',
      '--json',
    ]);
    const b = await run([
      'check',
      'zodiac',
      '--accuracy',
      '10',
      '--evade',
      '50',
      '--seed',
      '4',
      '--json',
    ]);
    expect(a.out).toBe(b.out);
    for (const bad of [
      ['--accuracy', '10'],
      ['--accuracy', '10', '--evade', '5', '--roll', '0'],
      ['--accuracy', 'x', '--evade', '5'],
      ['--accuracy', '1', '--evade', '5', '--rating', '50'],
      ['--accuracy', '1', '--evade', '5', '--critical', '0'],
      ['--accuracy', '1', '--evade', '5', '--critical', '102'],
    ]) {
      const result = await run(['check', 'zodiac', ...bad]);
      expect(result.status, bad.join(' ')).toBe(2);
      expect(result.err).toMatch(/^moogle: /);
    }
    // The ffrpg form still works and refuses zodiac's flags.
    expect(
      (await run(['check', 'ffrpg', '--rating', '50', '--modifier', '0', '--roll', '40'])).status,
    ).toBe(0);
    expect(
      (await run(['check', 'ffrpg', '--rating', '50', '--modifier', '0', '--evade', '3'])).status,
    ).toBe(2);
  });
});

describe('moogle battle on the ZODIAC example', () => {
  it('shows the round, the tick and every SP, and plays to the end with --auto', async () => {
    const { status, out } = await run(['battle', EXAMPLE, '--seed', '1', '--auto']);
    expect(status).toBe(0);
    expect(out).toContain('Keef and the Ogre (ZODIAC)');
    expect(out).toMatch(/Round 1\. Speed Points: Keef the Thief \d+, Ogre \d+/);
    expect(out).toMatch(/Tick 1: Keef the Thief \d+ SP, Ogre \d+ SP/);
    expect(out).toMatch(/Outcome: (Keef|The ogre) won\./);
  });

  it('the screen before a turn: round and tick, SP and Speed, whose turn', async () => {
    const { out } = await run(['battle', EXAMPLE, '--seed', '1'], ['1']);
    expect(out).toContain('Before round 1: everyone will gain Speed + 1d8 SP');
    expect(out).toContain('Round 1, tick 1');
    expect(out).toMatch(/> Keef the Thief: SP \d+, Speed 20/);
    expect(out).toMatch(/ {2}Ogre: SP \d+, Speed 11/);
    expect(out).toContain("Keef the Thief's turn.");
    expect(out).toContain('Attack Ogre with Poison Dagger');
  });
});

describe('moogle sim on the ZODIAC example', () => {
  it('every policy plays every battle to an outcome', () => {
    const read = readEncounterFile(EXAMPLE, SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    for (const [name, policy] of Object.entries(POLICIES)) {
      const agg = runBattles(read.encounter.system, read.encounter.setup, policy, {
        seed: name,
        from: 0,
        to: 100,
      });
      expect(agg.unfinished, name).toBe(0);
      const won = Object.values(agg.wins).reduce((a, b) => a + b, 0);
      expect(won + agg.draws, name).toBe(100);
    }
  });

  it('reports win rates through the CLI', async () => {
    const { status, out } = await run([
      'sim',
      EXAMPLE,
      '-n',
      '300',
      '--seed',
      '1',
      '--workers',
      '1',
      '--json',
    ]);
    expect(status).toBe(0);
    const report = JSON.parse(out) as { battles: number };
    expect(report.battles).toBe(300);
  });
});
