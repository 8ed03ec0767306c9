import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

const dir = mkdtempSync(join(tmpdir(), 'moogle-gm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const example = (file: string) => fileURLToPath(new URL(`../../examples/${file}`, import.meta.url));

async function battle(args: string[], lines: string[]): Promise<{ status: number; out: string }> {
  const out: string[] = [];
  const io: Io = {
    out: (line) => out.push(line),
    err: (line) => out.push(line),
    input: Readable.from([lines.map((line) => `${line}\n`).join('')]),
  };
  const status = await main(['node', 'moogle', 'battle', ...args, '--keep-going'], io);
  return { status, out: out.join('\n') };
}

interface JsonView {
  readonly system: string;
  readonly combatants: readonly {
    readonly id: string;
    readonly name: string;
    readonly side: string;
    readonly hp: number;
    readonly maxHp: number;
    readonly notes: readonly string[];
    readonly statuses: readonly { readonly name: string }[];
    readonly clock: Record<string, unknown>;
  }[];
}

/** Every `view --json` line printed, parsed, in order. */
function views(out: string): JsonView[] {
  return out
    .split('\n')
    .filter((line) => line.startsWith('{"system"'))
    .map((line) => JSON.parse(line) as JsonView);
}

const CASES = [
  {
    file: 'ffrpg-wind-cave.yaml',
    who: 'hiro',
    monster: 'heket',
    side: 'enemies',
    foeName: 'Heket',
  },
  {
    file: 'ffviii-iron-giant.yaml',
    who: 'ehlric',
    monster: 'iron-giant',
    side: 'giant',
    foeName: 'Iron Giant',
  },
  {
    file: 'zodiac-keef-and-the-ogre.yaml',
    who: 'keef',
    monster: 'ogre',
    side: 'monsters',
    foeName: 'Ogre',
  },
  {
    file: 'shining-force-gate.yaml',
    who: 'max',
    monster: 'goblin',
    side: 'runefaust',
    foeName: 'Goblin',
  },
];

describe.each(CASES)('gm commands typed in $file', ({ file, who, monster, side, foeName }) => {
  it('sets HP, adds a monster, keeps a note, undoes, saves and resumes', async () => {
    const save = join(dir, `${file}.json`);
    const { status, out } = await battle(
      [example(file), '--seed', '3'],
      [
        '1',
        `gm hp ${who} 5`,
        `gm hp ${who} +2`,
        'view --json',
        `gm add ${monster} to ${side}`,
        `gm note ${who} behind the pillar`,
        'view --json',
        'undo',
        'view --json',
        `gm damage ${monster} 4 raw`,
        'view --json',
        `save ${save}`,
      ],
    );
    expect(status).toBe(0);
    const [set, added, undone, damaged] = views(out);
    const hero = (v: JsonView) => v.combatants.find((c) => c.id === who)!;
    expect(hero(set!).hp).toBe(7);
    expect(hero(set!).maxHp).toBeGreaterThan(7);
    expect(added!.combatants.length).toBe(set!.combatants.length + 1);
    expect(added!.combatants.at(-1)!.name).toMatch(/ \d+$/);
    expect(added!.combatants.at(-1)!.side).toBe(side);
    expect(hero(added!).notes).toEqual(['behind the pillar']);
    expect(hero(undone!).notes).toEqual([]);
    const hpOf = (v: JsonView) => v.combatants.find((c) => c.id === monster)!.hp;
    expect(hpOf(damaged!)).toBe(hpOf(undone!) - 4);
    expect(out).not.toContain('Refused');

    const resumed = await battle([example(file), '--load', save], ['view --json']);
    expect(resumed.status).toBe(0);
    expect(views(resumed.out)[0]).toEqual(damaged);
  });

  it('takes every GM command typed at the table, each logged and undoable', async () => {
    const lines = [
      '1',
      `gm heal ${who} 1 raw`,
      `gm damage ${monster} 2d6`,
      `gm damage ${monster} 10% max-hp raw`,
      `gm clock ${monster} +1`,
      `gm note ${monster} concentrating`,
      `gm note ${monster} -`,
      `gm add ${monster} to ${side} as Reinforcement`,
      'gm remove reinforcement fled',
      'view --json',
    ];
    const { status, out } = await battle([example(file), '--seed', '5', '--no-autosave'], lines);
    expect(status).toBe(0);
    expect(out).not.toContain('Refused');
    const [view] = views(out);
    const reinforcement = view!.combatants.find((c) => c.name === 'Reinforcement');
    expect(reinforcement).toBeDefined();
    const undone = await battle(
      [example(file), '--seed', '5', '--no-autosave'],
      [...lines.slice(0, -1), `undo ${lines.length - 2}`, 'view --json'],
    );
    const [first] = views(undone.out);
    expect(first!.combatants.length).toBe(view!.combatants.length - 1);
  });

  it('lists the GM commands for the system, and refuses bad ones saying why', async () => {
    const { status, out } = await battle(
      [example(file), '--seed', '3'],
      ['help gm', 'gm hp nobody 5', 'gm fly', `gm add no-such-monster to ${side}`],
    );
    expect(status).toBe(0);
    expect(out).toContain('gm add <content> to <side> [as <name>]');
    // The examples name this fight's own foe and its side, by the names the table reads.
    expect(out).toMatch(/Examples:\n {2}gm hp \S/);
    expect(out).toContain(`gm remove ${foeName} fled`);
    expect(out).toContain("Refused: there is no combatant 'nobody'");
    expect(out).toContain("Refused: unknown GM command 'fly'");
    expect(out).toMatch(/Refused: there is no .*'no-such-monster'/);
  });
});
