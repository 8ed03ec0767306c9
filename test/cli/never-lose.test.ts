import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { effectiveHistory, loadEncounter, type SavedEncounter } from '../../src/engine/index.js';
import { RULESETS } from '../../src/rulesets/index.js';

const BIN = fileURLToPath(new URL('../../bin/moogle.js', import.meta.url));
const WIND_CAVE = fileURLToPath(new URL('../../examples/ffrpg-wind-cave.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'moogle-never-lose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function battle(
  args: string[],
  lines: string[],
): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    input: Readable.from([lines.map((line) => `${line}\n`).join('')]),
  };
  const status = await main(['node', 'moogle', 'battle', ...args], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

function commandsIn(path: string): number {
  const saved = JSON.parse(readFileSync(path, 'utf8')) as SavedEncounter;
  const loaded = loadEncounter(saved, RULESETS);
  if (!loaded.ok) throw new Error(`${path} does not load: ${loaded.error.message}`);
  return effectiveHistory(saved.log).applied.length;
}

describe('a fight is never lost', () => {
  it('autosaves every accepted command, undo included, and --load resumes it', async () => {
    const autosave = join(dir, 'auto.json');
    const { status, out } = await battle(
      [WIND_CAVE, '--seed', '1', '--autosave', autosave],
      ['1', '1', '1', 'undo'],
    );
    expect(status).toBe(0);
    expect(out).toContain(`Autosave: ${autosave}`);
    expect(out).toContain(`Autosaved to ${autosave}; --load ${autosave} resumes it.`);
    expect(commandsIn(autosave)).toBe(2);
    const resumed = await battle([WIND_CAVE, '--load', autosave, '--no-autosave'], ['log']);
    expect(resumed.out).toContain('Resumed');
    expect(resumed.out).toContain('[2] ');
    // The undone third command stays in the log, marked, and the undo names it.
    expect(resumed.out).toMatch(/^> log\n(.*\n)*\[3\] \(undone\) /m);
    expect(resumed.out).toMatch(/^\[4\] Undid #3: \S/m);
  });

  it('makes a new autosave in the saves folder by default, and names it', async () => {
    const { out } = await battle([WIND_CAVE, '--seed', '1'], ['1']);
    const path = /Autosave: (\S+) /.exec(out)?.[1];
    expect(path).toBeDefined();
    expect(path!.startsWith(process.env.MOOGLE_SAVES_DIR!)).toBe(true);
    expect(commandsIn(path!)).toBe(1);
  });

  it('stays in the session after the battle ends: the killing blow can be undone', async () => {
    const lines = Array.from({ length: 200 }, () => '1');
    const save = join(dir, 'ended.json');
    const played = await battle(
      [WIND_CAVE, '--seed', '1', '--no-autosave', '--keep-going'],
      [...lines, 'undo', 'view --json', `save ${save}`],
    );
    expect(played.status).toBe(0);
    expect(played.out).toMatch(/Outcome: /);
    expect(played.out).toContain('The battle is over: undo, save, log, view, or quit.');
    expect(played.out).toMatch(/^Undid #\d+: \S/m);
    const view = JSON.parse(played.out.split('\n').find((l) => l.startsWith('{"system"'))!);
    expect(view.over).toBe(false);
    expect(existsSync(save)).toBe(true);
  });

  it('stops a script at its first rejected line, exit 2, naming the line and why', async () => {
    const { status, out, err } = await battle(
      [WIND_CAVE, '--seed', '1', '--no-autosave'],
      ['1', 'fly away', 'log', 'undo'],
    );
    expect(status).toBe(2);
    expect(err).toContain("moogle: line 2: unknown command 'fly away'");
    expect(out).not.toContain('> log');
  });

  it('goes on past rejected lines with --keep-going', async () => {
    const { status, out } = await battle(
      [WIND_CAVE, '--seed', '1', '--no-autosave', '--keep-going'],
      ['1', 'fly away', 'log'],
    );
    expect(status).toBe(0);
    expect(out).toContain('> log');
  });

  it('never lets a dice prompt eat the next command in a script', async () => {
    const { status, err, out } = await battle(
      [WIND_CAVE, '--seed', '1', '--no-autosave', '--dice', 'manual'],
      ['1', '99', 'log', 'undo', 'save x.json'],
    );
    expect(status).toBe(2);
    expect(err).toMatch(/line 2: .*99 is not what its dice can show/);
    expect(out).not.toContain('> log');
    const kept = await battle(
      [WIND_CAVE, '--seed', '1', '--no-autosave', '--dice', 'manual', '--keep-going'],
      ['1', 'log'],
    );
    expect(kept.status).toBe(0);
    expect(kept.out).toContain('Cancelled; nothing changed.');
    expect(kept.out).toContain('Nothing has happened yet.');
  });

  it('refuses to save over the encounter file, and keeps the old save when a write fails', async () => {
    const save = join(dir, 'keep.json');
    writeFileSync(save, 'the previous good save');
    const { out } = await battle(
      [WIND_CAVE, '--seed', '1', '--no-autosave', '--keep-going'],
      [`save ${WIND_CAVE}`, '1', `save ${join(dir, 'no-such-folder', 'x.json')}`],
    );
    expect(out).toContain('is the encounter file; save to another file');
    expect(out).toContain('Cannot write');
    expect(readFileSync(save, 'utf8')).toBe('the previous good save');
    expect(readFileSync(WIND_CAVE, 'utf8')).toContain('ruleset: ffrpg');
  });

  it('loses no accepted command and leaves a loadable autosave when killed with -9 at any moment', async () => {
    // Kill delays spread over a fight's first commands; fixed, so the test never flakes.
    const delays = [0, 15, 40, 70, 110, 160, 230, 320];
    for (const [i, delay] of delays.entries()) {
      const autosave = join(dir, `killed-${i}.json`);
      const child = spawn(
        process.execPath,
        [BIN, 'battle', WIND_CAVE, '--seed', String(i), '--autosave', autosave],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      const started = new Promise<void>((resolve, reject) => {
        const began = Date.now();
        const check = setInterval(() => {
          if (out.includes('Autosave:') || Date.now() - began > 15_000) {
            clearInterval(check);
            if (out.includes('Autosave:')) resolve();
            else reject(new Error(`the battle did not start: ${out}`));
          }
        }, 5);
      });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      await started;
      for (let n = 0; n < 30; n++) child.stdin.write('1\n');
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await exited;
      // A prompt is printed once the command before it is done: its result was shown.
      const acknowledged = Math.max(0, (out.match(/^> /gm)?.length ?? 0) - 1);
      if (!existsSync(autosave)) {
        expect(acknowledged).toBe(0);
        continue;
      }
      expect(commandsIn(autosave)).toBeGreaterThanOrEqual(acknowledged);
    }
  });
});
