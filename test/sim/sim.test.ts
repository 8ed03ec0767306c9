import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { emptyAggregate, mergeAggregates } from '../../src/sim/aggregate.js';
import { POLICIES } from '../../src/sim/policies.js';
import { medianOf, wilson } from '../../src/sim/report.js';
import { runBattles } from '../../src/sim/runner.js';
import { SimCancelled, simulate, startWorker } from '../../src/sim/sim.js';
import { CHUNK_BATTLES, LAST_CHUNK_BATTLES, WorkQueue } from '../../src/sim/work-queue.js';

const EXAMPLE = 'examples/ffrpg-wind-cave.yaml';

function windCave() {
  const read = readEncounterFile(EXAMPLE, SYSTEMS);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.encounter;
}

async function run(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (line) => out.push(line), err: (line) => err.push(line) };
  const status = await main(['node', 'moogle', ...args], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('the battle simulator', () => {
  it('plays every battle to an outcome and adds up consistently', () => {
    const { system, setup } = windCave();
    for (const [name, policy] of Object.entries(POLICIES)) {
      const agg = runBattles(system, setup, policy, { seed: name, from: 0, to: 50 });
      const won = Object.values(agg.wins).reduce((a, b) => a + b, 0);
      expect(won + agg.draws + agg.unfinished, name).toBe(50);
      expect(Object.values(agg.rounds).reduce((a, b) => a + b, 0)).toBe(50);
      // Damage dealt by one side is damage taken by the other (Poison aside, which has no dealer).
      const dealt = Object.values(agg.combatants).reduce((s, c) => s + c.damageDealt, 0);
      const taken = Object.values(agg.combatants).reduce((s, c) => s + c.damageTaken, 0);
      expect(taken).toBeGreaterThanOrEqual(dealt);
    }
  });

  it('battle i is the same battle whoever plays it: ranges and chunks merge to the same totals', () => {
    const { system, setup } = windCave();
    const policy = POLICIES['focus-weakest']!;
    const whole = runBattles(system, setup, policy, { seed: 'x', from: 0, to: 120 });
    const cuts = [0, 1, 17, 18, 64, 119, 120];
    const parts = cuts
      .slice(1)
      .map((to, i) => runBattles(system, setup, policy, { seed: 'x', from: cuts[i]!, to }));
    expect(parts.reduce(mergeAggregates, emptyAggregate())).toEqual(whole);
  });

  it('gives the same result on one worker and on two worker threads for a seed', async () => {
    const { system, setup } = windCave();
    const one = await simulate({
      system,
      setup,
      battles: 300,
      seed: '7',
      workers: 1,
      policy: 'random',
    }).result;
    const two = await simulate({
      system,
      setup,
      battles: 300,
      seed: '7',
      workers: 2,
      policy: 'random',
    }).result;
    expect(two).toEqual(one);
  });

  it('a worker thread plays the chunks it claims and posts their aggregate', async () => {
    const { system, setup } = windCave();
    const queue = WorkQueue.create(600);
    const worker = startWorker({
      system: system.ruleset.id,
      setup,
      policy: 'random',
      seed: 'w',
      battles: 600,
      shared: queue.shared,
    });
    const posted = await new Promise<unknown>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const here = runBattles(system, setup, POLICIES.random!, { seed: 'w', from: 0, to: 600 });
    expect(posted).toEqual(here);
    expect(queue.done()).toBe(600);
  });

  it('stops early when asked and reports what it has', async () => {
    const { system, setup } = windCave();
    const run = simulate({
      system,
      setup,
      battles: 1_000_000,
      seed: 's',
      workers: 1,
      policy: 'first',
    });
    run.stop();
    const partial = await run.result;
    expect(partial.battles).toBeLessThan(1_000_000);
  });

  it('plays every battle on worker threads with mainThread false: the same result for a seed', async () => {
    const { system, setup } = windCave();
    const options = { system, setup, battles: 300, seed: '7', policy: 'random' } as const;
    const here = await simulate({ ...options, workers: 1 }).result;
    const run = simulate({ ...options, workers: 1, mainThread: false });
    expect(run.threads()).toBe(1);
    expect(await run.result).toEqual(here);
    await run.exited;
    expect(run.threads()).toBe(0);
  });

  it('cancel() ends a run mid-battle: its threads terminated, its result SimCancelled', async () => {
    const { system, setup } = windCave();
    const run = simulate({
      system,
      setup,
      battles: 1_000_000,
      seed: 'c',
      workers: 2,
      mainThread: false,
      background: true,
      policy: 'tactician',
    });
    const result = run.result.then(
      () => 'finished',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(run.threads()).toBe(2);
    await run.cancel();
    expect(run.threads()).toBe(0);
    expect(await result).toBeInstanceOf(SimCancelled);
  });

  it('hands out every battle exactly once, in chunks, until stopped', () => {
    const queue = WorkQueue.create(2 * CHUNK_BATTLES + 7);
    const claimed: number[] = [];
    for (let range = queue.claim(); range !== undefined; range = queue.claim()) {
      for (let i = range.from; i < range.to; i++) claimed.push(i);
      queue.finished(range.to - range.from);
    }
    expect(claimed).toEqual(Array.from({ length: 2 * CHUNK_BATTLES + 7 }, (_, i) => i));
    expect(queue.done()).toBe(2 * CHUNK_BATTLES + 7);
    const stopped = WorkQueue.create(1_000);
    stopped.stop();
    expect(stopped.claim()).toBeUndefined();
  });

  it('hands out chunks no larger than CHUNK_BATTLES that shrink toward the end, so threads finish together', () => {
    const queue = WorkQueue.create(10_000);
    const sizes: number[] = [];
    for (let range = queue.claim(); range !== undefined; range = queue.claim())
      sizes.push(range.to - range.from);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(sizes[0]).toBe(CHUNK_BATTLES);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(CHUNK_BATTLES);
    // The last chunks are small: the remainder of an eighth at a time, down to the floor.
    expect(sizes.at(-2)).toBeLessThanOrEqual(LAST_CHUNK_BATTLES);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1]!);
  });

  it('reports a 95% Wilson interval and the median of a histogram', () => {
    const [low, high] = wilson(50, 100);
    expect(low).toBeCloseTo(0.4038, 3);
    expect(high).toBeCloseTo(0.5962, 3);
    expect(wilson(0, 10)[0]).toBe(0);
    expect(medianOf({ 3: 1, 8: 5, 9: 1 })).toBe(8);
  });
});

describe('moogle sim', () => {
  it('prints one JSON object with battles, seed, wins, draws, rounds and combatants', async () => {
    const { status, out } = await run(
      'sim',
      EXAMPLE,
      '-n',
      '200',
      '--seed',
      '3',
      '--workers',
      '1',
      '--json',
    );
    expect(status).toBe(0);
    const report = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(
      expect.arrayContaining(['battles', 'seed', 'wins', 'draws', 'rounds', 'combatants']),
    );
    expect(report.battles).toBe(200);
    expect(report.seed).toBe('3');
    const wins = report.wins as Record<string, { count: number; ci95: [number, number] }>;
    expect(Object.keys(wins)).toEqual(['party', 'enemies']);
    expect(wins.party!.ci95[0]).toBeLessThanOrEqual(wins.party!.ci95[1]);
    const again = await run('sim', EXAMPLE, '-n', '200', '--seed', '3', '--workers', '1', '--json');
    expect(again.out).toBe(out);
  });

  it.each([
    [['sim', EXAMPLE, '-n', '0'], 'from 1'],
    [['sim', EXAMPLE, '-n', '1000000000'], 'to 100,000,000'],
    [['sim', EXAMPLE, '-n', 'lots'], "got 'lots'"],
    [['sim', EXAMPLE, '-n', '10', '--policy', 'cheat'], "unknown policy 'cheat'"],
    [['sim', EXAMPLE, '-n', '10', '--workers', '0'], '--workers'],
    [['sim', 'no-such-file.yaml', '-n', '10'], 'no such file'],
  ])('rejects %j with status 2', async (args, message) => {
    const { status, err } = await run(...args);
    expect(status).toBe(2);
    expect(err).toContain(message);
  });
});
