import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { type CommandBase, Encounter, type LegalAction } from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { gmCommandFrom } from '../../src/session/index.js';
import { emptyAggregate, roundsAfter } from '../../src/sim/aggregate.js';
import { POLICIES, type Policy } from '../../src/sim/policies.js';
import { policyForEncounter } from '../../src/sim/policy-spec.js';
import { buildReport, renderReport } from '../../src/sim/report.js';
import { runBattles } from '../../src/sim/runner.js';
import { simulate, startWorker } from '../../src/sim/sim.js';
import { WorkQueue } from '../../src/sim/work-queue.js';

const EXAMPLES = [
  'examples/ffrpg-wind-cave.yaml',
  'examples/ffviii-iron-giant.yaml',
  'examples/zodiac-keef-and-the-ogre.yaml',
  'examples/shining-force-gate.yaml',
];

function read(file: string) {
  const result = readEncounterFile(file, SYSTEMS);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.encounter;
}

/**
 * The Wind Cave as a table would have it mid-fight: `commands` of the first legal action played
 * with the encounter's own dice, then the GM's lines (`hp heket 10`, `add heket to enemies`).
 */
function windCaveAt(commands: number, gmLines: readonly string[]) {
  const { system, setup, library } = read('examples/ffrpg-wind-cave.yaml');
  const created = Encounter.create(system.ruleset, setup, 'the table');
  if (!created.ok) throw new Error(created.error.message);
  const encounter = created.value;
  for (let i = 0; i < commands; i++) {
    const done = encounter.submit(encounter.legalActions()[0]!.command);
    if (!done.ok) throw new Error(done.error.message);
  }
  for (const line of gmLines) {
    const command = gmCommandFrom(system, library, encounter.state, line);
    if (!command.ok) throw new Error(command.error.message);
    const done = encounter.submit(command.value);
    if (!done.ok) throw new Error(done.error.message);
  }
  return { system, setup, state: encounter.state };
}

describe('simulating from the encounter as it stands', () => {
  it('wins far more often from a state where the Heket has 10 HP left than from the start', async () => {
    const { system, setup, state } = windCaveAt(0, ['hp heket 10']);
    // Random play for the party, so that from the start the Heket wins a fair share.
    const policy = 'party=random,enemies=tactician';
    const run = (start?: unknown) =>
      simulate({
        system,
        setup,
        ...(start === undefined ? {} : { start }),
        battles: 400,
        seed: 'heket-10',
        workers: 1,
        policy,
      }).result;
    const fromStart = await run();
    const fromNow = await run(state);
    const party = (a: typeof fromStart) => (a.wins.party ?? 0) / a.battles;
    expect(fromStart.battles).toBe(400);
    expect(fromNow.battles).toBe(400);
    expect(party(fromStart)).toBeLessThan(0.85);
    expect(party(fromNow)).toBeGreaterThan(0.97);
    expect(party(fromNow) - party(fromStart)).toBeGreaterThan(0.15);
    // The Heket's 10 HP go in a round or two; from its full 200 it takes many.
    expect(fromNow.roundsSum / fromNow.battles).toBeLessThan(3);
    expect(fromStart.roundsSum / fromStart.battles).toBeGreaterThan(8);
    // It lost its first 190 HP before the battles began: they took off no more than it had.
    expect(fromNow.combatants.heket!.damageTaken / fromNow.battles).toBeLessThanOrEqual(10);
  });

  it('counts a Heket that fled before the run as fled in every battle, not as knocked out', async () => {
    const { system, setup, state } = windCaveAt(0, ['add heket to enemies', 'remove heket fled']);
    const battles = 40;
    const result = await simulate({
      system,
      setup,
      start: state,
      battles,
      seed: 'fled',
      workers: 1,
      policy: 'tactician',
    }).result;
    const { heket, ...others } = result.combatants;
    expect(heket).toMatchObject({ fled: battles, knockedOut: 0, survived: 0 });
    const second = Object.values(others).find((c) => c.side === 'enemies')!;
    expect(second.fled).toBe(0);
    expect(second.knockedOut).toBeGreaterThan(0);
    const report = buildReport(result, {
      seed: 'fled',
      policy: 'tactician',
      policies: {},
      players: undefined,
      workers: 1,
      interrupted: false,
      sides: system.view(state).sides,
      from: 'now',
    });
    expect(report.combatants.find((c) => c.id === 'heket')).toMatchObject({
      fled: 1,
      knockedOut: 0,
    });
    expect(renderReport(report).join('\n')).toContain('survival, knocked out, fled, mean HP dealt');
  });

  it('does not count a party member who fled before the run as someone knocked out', async () => {
    const { system, setup, state } = windCaveAt(0, ['remove hiro fled', 'hp heket 10']);
    const battles = 40;
    const result = await simulate({
      system,
      setup,
      start: state,
      battles,
      seed: 'hiro-fled',
      workers: 1,
      policy: 'tactician',
    }).result;
    expect(result.combatants.hiro).toMatchObject({ fled: battles, knockedOut: 0 });
    // Against a Heket on 10 HP Haze and Mint nearly always come through; Hiro, gone from the
    // start, read as someone knocked out in every battle.
    expect(result.playersSomeoneOut).toBeLessThan(battles / 4);
  });

  it('plays the same battles for the same seed, on this thread or a worker’s', async () => {
    const { system, setup, state } = windCaveAt(5, ['status hiro +poison 3', 'hp mint -20']);
    const options = {
      system,
      setup,
      start: state,
      battles: 300,
      seed: 'same',
      workers: 1,
      policy: 'tactician',
    };
    const one = await simulate(options).result;
    const again = await simulate(options).result;
    expect(again).toEqual(one);
    expect(await simulate({ ...options, seed: 'other' }).result).not.toEqual(one);
    // A worker thread alone plays the whole queue: the state crosses to it in the job.
    const queue = WorkQueue.create(300);
    const worker = startWorker({
      system: system.ruleset.id,
      setup,
      start: state,
      policy: 'tactician',
      seed: 'same',
      battles: 300,
      shared: queue.shared,
    });
    const posted = await new Promise<unknown>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const here = runBattles(
      system,
      setup,
      POLICIES.tactician!,
      { seed: 'same', from: 0, to: 300 },
      {},
      state,
    );
    expect(posted).toEqual(here);
    expect(queue.done()).toBe(300);
    // The same battles simulate played, before it counted the rounds from the state.
    expect(roundsAfter(here, system.rounds(state))).toEqual(one);
  }, 60_000);

  it('counts rounds from where it stands: those begun after it', async () => {
    // Six commands in: round 2 has begun.
    const { system, setup, state } = windCaveAt(6, []);
    const before = system.rounds(state);
    expect(before).toBe(2);
    const policy = POLICIES.tactician!;
    const absolute = runBattles(system, setup, policy, { seed: 'r', from: 0, to: 100 }, {}, state);
    const run = await simulate({
      system,
      setup,
      start: state,
      battles: 100,
      seed: 'r',
      workers: 1,
      policy: 'tactician',
    }).result;
    const shifted: Record<string, number> = {};
    for (const [r, n] of Object.entries(absolute.rounds)) shifted[String(Number(r) - before)] = n;
    expect(run.rounds).toEqual(shifted);
    expect(run.roundsSum).toBe(absolute.roundsSum - 100 * before);
    expect(run.wins).toEqual(absolute.wins);
  });

  it('counts a battle that ends in the round under way as 0 rounds, never fewer', () => {
    const aggregate = { ...emptyAggregate(), battles: 4, rounds: { '2': 1, '3': 2, '5': 1 } };
    aggregate.roundsSum = 2 + 3 * 2 + 5;
    expect(roundsAfter(aggregate, 2)).toMatchObject({ rounds: { '0': 1, '1': 2, '3': 1 } });
    expect(roundsAfter(aggregate, 2).roundsSum).toBe(5);
    expect(roundsAfter(aggregate, 3).rounds).toEqual({ '0': 3, '2': 1 });
    expect(roundsAfter(aggregate, 0)).toBe(aggregate);
  });

  it.each(EXAMPLES)('from the initial state of %s is the same as without a start', async (file) => {
    const { system, setup } = read(file);
    const options = { system, setup, battles: 30, seed: file, workers: 1, policy: 'tactician' };
    const without = await simulate(options).result;
    const from = await simulate({ ...options, start: system.ruleset.initialState(setup) }).result;
    expect(from).toEqual(without);
  });

  it('from the initial state is the same as without a start, whatever the seed and policy', async () => {
    const { system, setup } = read('examples/ffrpg-wind-cave.yaml');
    const initial = system.ruleset.initialState(setup);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.constantFrom(...Object.keys(POLICIES)),
        async (seed, policy) => {
          const options = { system, setup, battles: 8, seed, workers: 1, policy };
          const without = await simulate(options).result;
          const from = await simulate({ ...options, start: initial }).result;
          expect(from).toEqual(without);
        },
      ),
      { numRuns: 15, seed: 14 },
    );
  });
});

describe('policies per side from a mid-fight state', () => {
  it('hands a combatant the GM added its side’s policy, and the wounded their own', () => {
    const { system, setup, state } = windCaveAt(4, ['add heket to enemies', 'hp hiro 5']);
    const sideOf = new Map(system.brief(state).combatants.map((c) => [c.id, c.side]));
    expect(sideOf.get('heket-2')).toBe('enemies');
    const asked = new Map<string, Set<string>>();
    const spy =
      (name: string): Policy =>
      (sys, s, actions, random) => {
        for (const a of actions as readonly LegalAction<CommandBase>[]) {
          const actor = (a.command as { actor?: unknown }).actor;
          if (typeof actor === 'string') {
            const seen = asked.get(actor) ?? new Set<string>();
            seen.add(name);
            asked.set(actor, seen);
            break;
          }
        }
        return POLICIES.attacker!(sys, s, actions, random);
      };
    const saved = { ...POLICIES };
    // The spec is read by name: lend the spies two real names.
    Object.assign(POLICIES as Record<string, Policy>, { random: spy('a'), first: spy('b') });
    try {
      const chosen = policyForEncounter(system, state, 'party=random,enemies=first');
      if (!chosen.ok) throw new Error(chosen.error.message);
      runBattles(system, setup, chosen.value.policy, { seed: 'spy', from: 0, to: 10 }, {}, state);
    } finally {
      Object.assign(POLICIES as Record<string, Policy>, saved);
    }
    expect([...(asked.get('heket-2') ?? [])]).toEqual(['b']);
    expect([...(asked.get('heket') ?? [])]).toEqual(['b']);
    for (const hero of ['hiro', 'haze', 'mint']) {
      expect([...(asked.get(hero) ?? [])], hero).toEqual(['a']);
    }
  });

  it('tallies the combatants as they stand, newcomers included', async () => {
    const { system, setup, state } = windCaveAt(4, ['add heket to enemies']);
    const run = await simulate({
      system,
      setup,
      start: state,
      battles: 50,
      seed: 'newcomer',
      workers: 1,
      policy: 'tactician',
    }).result;
    expect(Object.keys(run.combatants)).toEqual(['hiro', 'haze', 'mint', 'heket', 'heket-2']);
    expect(run.combatants['heket-2']!.side).toBe('enemies');
    // Every battle ends with the newcomer down or the party down: it takes part.
    const won = (run.wins.party ?? 0) + (run.wins.enemies ?? 0) + run.draws + run.unfinished;
    expect(won).toBe(50);
    expect(run.combatants['heket-2']!.damageTaken).toBeGreaterThan(0);
  });
});
