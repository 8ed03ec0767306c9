import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { POLICIES } from '../../src/sim/policies.js';

const BIN = fileURLToPath(new URL('../../bin/moogle.js', import.meta.url));
const WIND_CAVE = fileURLToPath(new URL('../../examples/ffrpg-wind-cave.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'moogle-battle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `moogle battle` in this process with `lines` as its input, and captures what it prints. */
async function battle(
  args: string[],
  lines: string[] = [],
): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    input: Readable.from([lines.map((line) => `${line}\n`).join('')]),
  };
  // Autosaves and stopping a script at a rejected line have their own tests (never-lose).
  // (`--no-keep-going` here: this test checks that a script stops.)
  const strict = args.includes('--no-keep-going');
  const flags = ['--no-autosave', ...(strict ? [] : ['--keep-going'])];
  const given = args.filter((a) => a !== '--no-keep-going' && a !== '--no-autosave');
  const status = await main(['node', 'moogle', 'battle', ...given, ...flags], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

/**
 * Runs `moogle battle` as at a terminal: prompts are written (not echoed with the line), and a
 * rejected line is answered and the session goes on.
 */
async function atTerminal(
  args: string[],
  lines: string[],
): Promise<{ status: number; out: string }> {
  const out: string[] = [];
  let partial = '';
  const input = Object.assign(Readable.from([lines.map((line) => `${line}\n`).join('')]), {
    isTTY: true,
  });
  const io: Io = {
    out: (line) => {
      out.push(partial + line);
      partial = '';
    },
    err: (line) => out.push(line),
    write: (text) => {
      partial += text;
    },
    input,
  };
  const status = await main(['node', 'moogle', 'battle', ...args], io);
  return { status, out: out.join('\n') };
}

/** What was printed after the `nth` line `> from` (from 0) and before the next `> ` prompt. */
function reply(out: string, from: string, nth = 0): string {
  let start = -1;
  for (let i = 0; i <= nth; i++) start = out.indexOf(`\n> ${from}\n`, start + 1);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = out.slice(start + from.length + 4);
  const end = rest.indexOf('\n> ');
  return end === -1 ? rest : rest.slice(0, end);
}

/**
 * The Playguide's Initiatives, so Hiro goes first: 15, 14, 12 and the Heket's 12, entered as
 * the d10s as they lie ("Rob: (rolling) Woo! 15." with Hiro's SPD 5; Rodger "rolls in secret,
 * coming up with 6. The monster, Heket, has a SPD of 6, giving it an Intiative of 12").
 */
const INITIATIVE = ['10', '6', '4', '6'];

describe('moogle battle, scripted on stdin', () => {
  it('shows the countdown, everyone by side, whose turn it is and the numbered actions', async () => {
    const { status, out } = await battle([WIND_CAVE, '--seed', '1'], ['1']);
    expect(status).toBe(0);
    expect(out).toContain('The Wind Cave (FFRPG 3rd Edition)\nSeed 1: --seed 1 plays it again');
    expect(out).toContain('Round 1: Initiative Phase');
    expect(out).toContain('   1. Begin round 1 (roll Initiative)');
    const round = reply(out, '1');
    expect(round).toContain('Round 1. Initiative: Mint 17, Haze 16, Heket 11, Hiro 11');
    expect(round).toContain('  Mint: 1d10+SPD [9] + 8 = 17');
    expect(round).toContain('Round 1, Initiative 17\n  >  17 Mint\n     16 Haze');
    expect(round).toMatch(/The party:\n {2}Hiro +HP 72\/72 +MP 12\/12\n/);
    expect(round).toMatch(/The Heket:\n {2}Heket +HP 200\/200 +MP 30\/30/);
    expect(round).toContain("Mint's turn.\n   1. Attack Heket with Rod");
    expect(out.split('\n').at(-1)).toBe('Quit: the battle is not over.');
  });

  it('takes actions by number and by unique prefix of the name, in any case', async () => {
    const { status, out } = await battle(
      [WIND_CAVE, '--seed', '1'],
      ['begin', 'ATTACK HEKET', 'attack', 'a', 'c'],
    );
    expect(status).toBe(0);
    expect(reply(out, 'begin')).toContain('Round 1. Initiative:');
    expect(reply(out, 'ATTACK HEKET')).toContain('Mint attacks Heket with Rod');
    expect(reply(out, 'attack')).toContain('Haze attacks Heket with Broadsword');
    // The Heket's turn: it can attack any of the three.
    expect(reply(out, 'a')).toBe(
      "'a' could be Attack Hiro with Webbed Claw or Attack Haze with Webbed Claw or Attack Mint with Webbed Claw: say more, or use the number",
    );
    expect(reply(out, 'c')).toMatch(/^unknown command 'c'/);
  });

  it('plays to the end, prints the outcome and rewards, and exits 0', async () => {
    const { status, out } = await battle(
      [WIND_CAVE, '--seed', '1'],
      Array.from({ length: 400 }, () => '1'),
    );
    expect(status).toBe(0);
    expect(out).toContain('The battle is over: The party stand; The Heket cannot fight on');
    expect(out).toMatch(/Rewards: 1560 XP and 820 Gil/);
    expect(out).toContain('Outcome: The party won. The party stand; The Heket cannot fight on');
    // The session stays open after the end; an action then is refused, saying what is left.
    expect(out.split('\n').at(-1)).toBe('The battle is over: undo, save, log, view, or quit.');
  });

  it('is the same battle again with the same seed', async () => {
    const lines = Array.from({ length: 12 }, () => '1');
    const a = await battle([WIND_CAVE, '--seed', 'table-3'], lines);
    const b = await battle([WIND_CAVE, '--seed', 'table-3'], lines);
    expect(a.out).toBe(b.out);
  });

  it('prints a random seed without --seed, and that seed replays the battle', async () => {
    const lines = ['1', '1', '1'];
    const first = await battle([WIND_CAVE], lines);
    const seed = /^Seed (\d+):/m.exec(first.out)?.[1];
    expect(seed).toBeDefined();
    const again = await battle([WIND_CAVE, '--seed', seed!], lines);
    expect(again.out).toBe(first.out);
  });
});

describe('physical dice', () => {
  const HIRO_SHOT = [
    'Hiro attacks Heket with Valiant Rifle: CoS 70 (ACC 42 + Guns 50 - EVA 22), d% [20+8] = 28 (rolled at the table): hit',
    '  Heket takes 20 HP (2*AGI + d12 = 2 * 10 + [10] = 30 (rolled at the table)): 30 - ARM 10 = 20; 180 HP left',
  ].join('\n');

  it('asks for every roll with dice manual: "CoS 70 ... 28: hit; ... 30 - ARM 10 = 20"', async () => {
    const { status, out } = await battle(
      [WIND_CAVE, '--seed', '1'],
      ['dice manual', '1', ...INITIATIVE, 'attack heket', '2 8', '10', 'dice auto', '1'],
    );
    expect(status).toBe(0);
    expect(out).toContain('Dice: manual; every roll is asked for as it is needed.');
    expect(out).toContain(
      [
        '> 1',
        'Roll 1d10+SPD = d10 + 5 [die 0–10 · total 6–15] for initiative:hiro (the die as it lies; total:N for the total with modifiers): 10',
        'Roll 1d10+SPD = d10 + 8 [die 0–10 · total 9–18] for initiative:haze (the die as it lies; total:N for the total with modifiers): 6',
        'Roll 1d10+SPD = d10 + 8 [die 0–10 · total 9–18] for initiative:mint (the die as it lies; total:N for the total with modifiers): 4',
        'Roll 1d10+SPD = d10 + 6 [die 0–10 · total 7–16] for initiative:heket (the die as it lies; total:N for the total with modifiers): 6',
        'Round 1. Initiative: Hiro 15, Haze 14, Mint 12, Heket 12',
      ].join('\n'),
    );
    expect(out).toContain(
      [
        '> attack heket',
        'Roll d% [2 dice 0–10 each · showing 1–100] for hit:heket (two d10, tens then ones: 2 8 is 28, 0 0 is 100; or 28 as one number): 2 8',
        // "Rob: (rolling) 10. 30 Physical damage."
        'Roll 2*AGI + d12 = 20 + d12 [die 1–12 · total 21–32] for damage:heket (the die as it lies; total:N for the total with modifiers): 10',
        HIRO_SHOT,
      ].join('\n'),
    );
    // Back to rolling here: Haze's attack asks for nothing.
    expect(reply(out, 'dice auto')).toBe('Dice: auto.');
    expect(reply(out, '1', 1)).not.toContain('Roll ');
  });

  it('takes --dice manual at a terminal, re-asks for faces that do not fit, and cancel abandons the command', async () => {
    const { status, out } = await atTerminal(
      [WIND_CAVE, '--seed', '1', '--dice', 'manual', '--no-autosave'],
      ['1', ...INITIATIVE, '1', '2,8', '13', 'twelve', 'total:32', '1', 'cancel', 'show'],
    );
    expect(status).toBe(0);
    const damage =
      'Roll 2*AGI + d12 = 20 + d12 [die 1–12 · total 21–32] for damage:heket (the die as it lies; total:N for the total with modifiers): ';
    expect(out).toContain(
      [
        // One number is what the die shows: no d12 shows 13. A total is marked: total:32.
        `${damage}damage:heket (2*AGI + d12): 13 is not what its dice can show (1 to 12)`,
        `${damage}entered die 1 is 'twelve', not a whole number; type the faces again, or cancel`,
        `${damage}Hiro attacks Heket`,
      ].join('\n'),
    );
    expect(out).toContain('Cancelled; nothing changed.');
    expect(out).toContain("Haze's turn.");
  });

  it('from a script, stops at faces that do not fit instead of asking again', async () => {
    const { status, err } = await battle(
      [WIND_CAVE, '--seed', '1', '--dice', 'manual', '--no-keep-going'],
      ['1', ...INITIATIVE, '1', '2,8', '13', 'show'],
    );
    expect(status).toBe(2);
    expect(err).toContain('line 8: damage:heket (2*AGI + d12): 13 is not what its dice can show');
  });

  it('takes dice with the action, by purpose: 1 hit:heket=2,8 damage:heket=10', async () => {
    const { status, out } = await battle(
      [WIND_CAVE, '--seed', '1'],
      [
        // Faces, a total marked as one ("Woo! 15."), and d% read as one number.
        '1 initiative:hiro=total:15 initiative:haze=6 initiative:mint=4 initiative:heket=6',
        '1 hit:heket=28 damage:heket=10',
        '1 hit:hekt=2,8',
        '1 hit:heket=2,x',
        'quit',
      ],
    );
    expect(status).toBe(0);
    expect(out).toContain('Round 1. Initiative: Hiro 15, Haze 14, Mint 12, Heket 12');
    expect(reply(out, '1 hit:heket=28 damage:heket=10')).toContain(HIRO_SHOT);
    // Checked before any dice are asked for, listing the rolls the action does make.
    expect(reply(out, '1 hit:hekt=2,8')).toBe(
      'Refused: this action makes no roll named hit:hekt; its rolls: hit:heket (d%), damage:heket (2*STR + d10)',
    );
    expect(reply(out, '1 hit:heket=2,x')).toBe(
      "hit:heket: entered die 2 is 'x', not a whole number",
    );
  });

  it('takes the dice of a GM amount with the gm line: gm damage heket 2d6 gm:heket=4,5', async () => {
    const lines = [
      'gm damage heket 2d6 gm:heket=4,5',
      'gm heal heket 2d6 gm:heket=9',
      'gm damage heket 2d6+3 gm:heket=total:12',
      'gm damage heket 2d6 gm:heket=13',
      'gm note hiro a=b',
    ];
    const { status, out } = await battle(
      [WIND_CAVE, '--seed', '1', '--keep-going'],
      [...lines, 'quit'],
    );
    expect(status).toBe(0);
    expect(reply(out, lines[0]!)).toContain(
      'Heket takes 9 HP (2d6 = [4, 5] = 9 (rolled at the table))',
    );
    expect(reply(out, lines[1]!)).toContain('Heket recovers 9 HP');
    expect(reply(out, lines[2]!)).toContain('Heket takes 12 HP (2d6+3 = 12 (entered as a total))');
    expect(reply(out, lines[3]!)).toBe(
      'gm:heket (2d6): 13 is not what its dice can show (2 to 12)',
    );
    expect(reply(out, lines[4]!)).toContain('GM note on Hiro: a=b');
  });

  it('quits cleanly when the input ends in the middle of a roll', async () => {
    const { status, out } = await battle([WIND_CAVE, '--seed', '1', '--dice', 'manual'], ['1']);
    expect(status).toBe(0);
    expect(out.split('\n').at(-1)).toBe('Quit: the battle is not over.');
  });
});

describe('undo, redo, save, load, log, odds', () => {
  it('undoes and redoes, and a save resumes with --load to the same state and dice', async () => {
    const file = join(dir, 'wind-cave.json');
    const played = await battle(
      [WIND_CAVE, '--seed', '7'],
      ['1', '1', '1', '1', 'undo 2', 'redo', 'undo 5', 'redo 9', 'show', `save ${file}`, '1', '1'],
    );
    expect(played.status).toBe(0);
    // Each names what it took back or put back: the last command first.
    expect(reply(played.out, 'undo 2')).toMatch(/^Undid #4: Heket .*\nUndid #3: Mint /);
    expect(reply(played.out, 'redo')).toMatch(/^Redid #3: Mint /);
    expect(reply(played.out, 'undo 5')).toBe('Cannot undo: there are only 3 to undo');
    expect(reply(played.out, 'redo 9')).toBe('Cannot redo: there is only 1 to redo');
    expect(reply(played.out, `save ${file}`)).toBe(`Saved to ${file}; resume with --load ${file}.`);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { format: string; ruleset: string };
    expect(saved).toMatchObject({ format: 'moogle-encounter', ruleset: 'ffrpg' });

    const resumed = await battle([WIND_CAVE, '--load', file], ['show', '1', '1']);
    expect(resumed.status).toBe(0);
    expect(resumed.out).toContain(`Resumed ${file}: 3 commands in force`);
    expect(resumed.out).not.toContain('Seed');
    expect(reply(resumed.out, 'show')).toBe(reply(played.out, 'show'));
    // The same dice stream: the next commands roll what they would have rolled.
    const savedLine = `Saved to ${file}; resume with --load ${file}.\n`;
    const goesOn = played.out.slice(played.out.indexOf(savedLine) + savedLine.length);
    expect(goesOn).toMatch(/^> 1\n/);
    expect(resumed.out.slice(resumed.out.indexOf('\n> 1\n') + 1)).toBe(goesOn);
  });

  it('refuses a save that does not load, or is not a save, with status 2', async () => {
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{ nope');
    const a = await battle([WIND_CAVE, '--load', notJson]);
    expect(a.status).toBe(2);
    expect(a.err).toContain(`${notJson}: cannot read the save`);
    const other = join(dir, 'other.json');
    writeFileSync(
      other,
      JSON.stringify({
        format: 'moogle-encounter',
        version: 1,
        ruleset: 'no-such-system',
        setup: {},
        initialDice: { algorithm: 'xoshiro128**', words: [1, 2, 3, 4] },
        dice: { algorithm: 'xoshiro128**', words: [1, 2, 3, 4] },
        log: [],
      }),
    );
    const b = await battle([WIND_CAVE, '--load', other]);
    expect(b.status).toBe(2);
    expect(b.err).toContain("the save is for ruleset 'no-such-system'");
    const missing = await battle([WIND_CAVE, '--load', join(dir, 'missing.json')]);
    expect(missing.status).toBe(2);
  });

  it('prints the log grouped by command', async () => {
    const { out } = await battle([WIND_CAVE, '--seed', '1'], ['log', '1', '1', 'log']);
    expect(reply(out, 'log')).toBe('Nothing has happened yet.');
    const log = out.slice(out.lastIndexOf('> log\n') + 6).split('\n');
    expect(log[0]).toBe('[1] begin-round');
    expect(log[1]).toBe('    Round 1. Initiative: Mint 17, Haze 16, Heket 11, Hiro 11');
    expect(log[6]).toBe('[2] attack actor=mint target=heket');
    expect(log[7]).toMatch(/^ {4}Mint attacks Heket with Rod: CoS 38/);
  });

  it('keeps an undone command marked in the log after later commands, and the undo names it', async () => {
    const { out } = await battle([WIND_CAVE, '--seed', '1'], ['1', '1', 'undo', '1', 'log']);
    const log = out.slice(out.lastIndexOf('> log\n') + 6).split('\n');
    expect(log).toContain('[2] (undone) attack actor=mint target=heket');
    expect(log.find((l) => l.startsWith('[3] '))).toMatch(/^\[3\] Undid #2: Mint attacks Heket/);
    expect(log.find((l) => l.startsWith('[4] '))).not.toContain('(undone)');
  });

  it('shows a combatant who fled as FLED, not OUT', async () => {
    const { out } = await battle([WIND_CAVE, '--seed', '1'], ['gm remove heket fled', 'show']);
    const heket = reply(out, 'show')
      .split('\n')
      .find((l) => l.trim().startsWith('Heket'));
    expect(heket).toMatch(/FLED/);
    expect(heket).not.toMatch(/OUT/);
  });

  it('gives the odds of an attack, and says so for an action without', async () => {
    const { out } = await battle(
      [WIND_CAVE, '--seed', '1'],
      [
        '1 initiative:hiro=10 initiative:haze=6 initiative:mint=4 initiative:heket=6',
        'odds 1',
        'odds 2',
        'odds 99',
        'odds',
        'quit',
      ],
    );
    expect(reply(out, 'odds 1').split('\n')).toEqual([
      'Hiro attacks Heket: CoS 70 (ACC + Guns - EVA 22)',
      '  hits 70.0% (Critical Hit 10.0%), misses 30.0%',
      '  damage: 11 to 22, mean 16.5; Critical: 32 to 54, mean 43.0',
      '  Heket has 200 HP: knocked out 0.0%',
      '  mean damage 14.2 (a miss counted as 0)',
    ]);
    expect(reply(out, 'odds 2')).toBe('nothing in that action is left to chance');
    expect(reply(out, 'odds 99')).toBe('odds takes the number or name of a legal action: odds 1');
    expect(reply(out, 'odds')).toBe('odds takes the number or name of a legal action: odds 1');
  });

  it('shrugs off garbage: a one-line hint each, never a crash', async () => {
    const garbage = [
      '???',
      '0',
      '99',
      '-1',
      'undo x',
      'undo 0',
      'redo',
      'save',
      'odds abc',
      'dice maybe',
      'hit:heket=2,8',
      '1 =',
      '1 a=b=c',
      'ünïcödé ☃',
      'x'.repeat(5000),
      '   ',
      'help',
    ];
    const { status, out, err } = await battle([WIND_CAVE, '--seed', '1'], garbage);
    expect(status).toBe(0);
    expect(err).toBe('');
    expect(reply(out, '???')).toMatch(/^unknown command '\?\?\?'/);
    expect(reply(out, '0')).toBe('there is no action 0: choose 1 to 1');
    expect(reply(out, 'redo')).toBe('Cannot redo: there are only 0 to redo');
    expect(reply(out, 'hit:heket=2,8')).toBe(
      'give the action first, then the dice: 1 hit:heket=2,8',
    );
    expect(reply(out, 'help')).toContain('undo [n], redo [n]');
    for (const line of garbage.slice(0, -1)) {
      if (line.trim() !== '') expect(reply(out, line).split('\n')).toHaveLength(1);
    }
  });
});

describe('moogle battle --auto', () => {
  it.each(Object.keys(POLICIES))('plays to the end with the %s policy', async (policy) => {
    const { status, out } = await battle([WIND_CAVE, '--seed', '3', '--auto', '--policy', policy]);
    expect(status).toBe(0);
    expect(out).toContain('Round 1. Initiative:');
    expect(out.split('\n').at(-1)).toMatch(/^Outcome: (The party won|The Heket won|a draw)\. /);
  });

  it('takes a policy per side, and refuses a side the encounter does not have', async () => {
    const played = await battle([
      WIND_CAVE,
      '--seed',
      '3',
      '--auto',
      '--policy',
      'party=random,enemies=attacker',
    ]);
    expect(played.status).toBe(0);
    expect(played.out.split('\n').at(-1)).toMatch(/^Outcome: /);
    const wrong = await battle([WIND_CAVE, '--seed', '3', '--auto', '--policy', 'heroes=random']);
    expect(wrong.status).toBe(2);
    expect(wrong.err).toContain('heroes');
    expect(wrong.err).toContain('party');
  });

  it('is repeatable with the same seed, policy choices included', async () => {
    const a = await battle([WIND_CAVE, '--seed', '5', '--auto', '--policy', 'random']);
    const b = await battle([WIND_CAVE, '--seed', '5', '--auto', '--policy', 'random']);
    expect(a.out).toBe(b.out);
  });

  it('resumes a save and plays it out', async () => {
    const file = join(dir, 'auto.json');
    await battle([WIND_CAVE, '--seed', '1'], ['1', '1', `save ${file}`]);
    const { status, out } = await battle([WIND_CAVE, '--load', file, '--auto', '--seed', '2']);
    expect(status).toBe(0);
    expect(out).toContain('Resumed');
    expect(out).toMatch(/Outcome: /);
  });
});

describe('input moogle battle refuses, with status 2', () => {
  it('names the file, the path and the line of every problem in an encounter file', async () => {
    const file = join(dir, 'bad.yaml');
    const text = (monster: string) =>
      [
        'format: 1',
        'ruleset: ffrpg',
        'sides:',
        '  - id: party',
        '    name: The party',
        '    party: true',
        '    combatants:',
        '      - character: hiro',
        `      - ${monster}: heket`,
        '  - id: enemies',
        '    name: The Heket',
        '    combatants:',
        '      - monster: hekett',
      ].join('\n');
    writeFileSync(file, text('monstr'));
    const misspelt = await battle([file]);
    expect(misspelt.status).toBe(2);
    expect(misspelt.out).toBe('');
    expect(misspelt.err).toBe(
      `moogle: ${file}:9: sides[0].combatants[1].monstr: unknown field "monstr"; did you mean "monster"?`,
    );
    writeFileSync(file, text('monster'));
    const unknown = await battle([file]);
    expect(unknown.status).toBe(2);
    expect(unknown.err).toBe(
      `moogle: ${file}: sides[1].combatants[0]: there is no ffrpg/monster 'hekett'`,
    );
    const missing = await battle([join(dir, 'nowhere.yaml')]);
    expect(missing.status).toBe(2);
    expect(missing.err).toContain('no such file');
  });

  it.each([
    [
      ['--auto', '--policy', 'smartest'],
      "unknown policy 'smartest': one of tactician, focus-weakest, random, attacker, first",
    ],
    [['--policy', 'random'], '--policy needs --auto'],
    [['--dice', 'loaded'], "--dice is manual or auto, not 'loaded'"],
    [['--auto', '--dice', 'manual'], '--auto rolls every die itself'],
    [['--seed', ''], '--seed must be 1 to 200 characters'],
  ])('refuses %j', async (flags, message) => {
    const { status, out, err } = await battle([WIND_CAVE, ...flags]);
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
  });
});

describe('the installed bin', () => {
  it('plays the Wind Cave with --auto and exits 0 (after npm run build)', () => {
    const out = execFileSync(
      process.execPath,
      [BIN, 'battle', 'examples/ffrpg-wind-cave.yaml', '--seed', '1', '--auto', '--no-autosave'],
      { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) },
    );
    expect(out).toContain('Seed 1: --seed 1 plays it again');
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^Outcome: /);
  });

  it('reads a battle from a pipe', () => {
    const out = execFileSync(
      process.execPath,
      [BIN, 'battle', WIND_CAVE, '--seed', '1', '--no-autosave'],
      {
        encoding: 'utf8',
        input: '1\nattack heket\nquit\n',
      },
    );
    expect(out).toContain('Mint attacks Heket with Rod');
    expect(out.trimEnd().split('\n').at(-1)).toBe('Quit: the battle is not over.');
  });
});
