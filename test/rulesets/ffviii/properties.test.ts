/**
 * Properties of whole FFVIII battles played at random from the example: every legal action is
 * accepted, the battle ends within a bound, the shot clock never goes below 0 and nobody acts
 * on a shot 0, and the log saves, loads and replays to the same state. Arbitrary commands,
 * legal or not, never throw and, when refused, change nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Encounter } from '../../../src/engine/index.js';
import {
  type FfviiiCommand,
  type FfviiiState,
  ffviii,
} from '../../../src/rulesets/ffviii/index.js';
import { actorNow } from '../../../src/rulesets/ffviii/state.js';
import {
  EHLRIC,
  type FfviiiEncounter,
  GIANT,
  ironGiant,
  ironGiantWith,
  run,
  sheetOf,
  snapshot,
  start,
} from './helpers.js';

/** Commands a random battle may take before it must be over. */
const MAX_COMMANDS = 2000;

/** What must hold in every state a battle passes through. */
function checkState(state: FfviiiState): void {
  expect(state.shot).toBeGreaterThanOrEqual(0);
  expect(state.shot).toBeLessThanOrEqual(Math.max(state.shots, 0));
  for (const c of Object.values(state.combatants)) {
    expect(c.shot, `${c.id}'s shot`).toBeGreaterThanOrEqual(0);
    expect(c.debt, `${c.id}'s debt`).toBeGreaterThanOrEqual(0);
    expect(c.hp).toBeGreaterThanOrEqual(0);
    expect(c.hp).toBeLessThanOrEqual(c.sheet.hp);
    if (c.down || c.fled) expect(c.shot).toBe(0);
    for (const n of Object.values(c.matrix)) expect(n).toBeGreaterThanOrEqual(0);
    for (const n of Object.values(c.items)) expect(n).toBeGreaterThanOrEqual(0);
  }
  if (state.phase === 'dodge') expect(state.pending).not.toBeNull();
  if (state.phase === 'shots') {
    // The called shot always waits on someone who acts on it.
    expect(
      Object.values(state.combatants).some((c) => !c.down && !c.fled && c.shot === state.shot),
    ).toBe(true);
    expect(state.shot).toBeGreaterThan(0);
  }
}

/**
 * Plays a battle choosing among the legal actions by `choices` (the first action once they run
 * out), checking each step; returns the commands played.
 */
function playRandomly(
  encounter: FfviiiEncounter,
  choices: readonly number[],
  avoid: readonly FfviiiCommand['type'][] = [],
): FfviiiCommand[] {
  const played: FfviiiCommand[] = [];
  while (!encounter.outcome().over) {
    if (played.length >= MAX_COMMANDS) throw new Error(`not over after ${MAX_COMMANDS} commands`);
    const all = encounter.legalActions();
    const preferred = all.filter((a) => !avoid.includes(a.command.type));
    const actions = preferred.length > 0 ? preferred : all;
    expect(actions.length, 'a battle not over always offers something').toBeGreaterThan(0);
    const choice = choices[played.length];
    const command = actions[choice === undefined ? 0 : choice % actions.length]!.command;
    const before = encounter.state;
    const events = run(encounter, command);
    // Nobody acts on a shot 0, nor on a shot not called; a dodge needs a shot to pay for it.
    for (const event of events) {
      if (event.type === 'action-taken') {
        expect(before.phase).toBe('shots');
        expect(before.shot).toBeGreaterThanOrEqual(1);
        expect(before.combatants[event.actor]!.shot).toBe(before.shot);
        expect(event.shot).toBe(Math.max(0, before.shot - event.cost));
      }
      if (event.type === 'dodge-chosen' && event.dodge)
        expect(before.combatants[event.actor]!.shot).toBeGreaterThanOrEqual(1);
    }
    checkState(encounter.state);
    played.push(command);
  }
  return played;
}

const seeds = fc.oneof(fc.integer(), fc.string({ minLength: 1, maxLength: 20 }));
const choiceLists = fc.array(fc.nat({ max: 1000 }), { maxLength: 400 });

describe('random legal play from examples/ffviii-iron-giant.yaml', () => {
  it('always ends within the bound, with a winner or a draw, and every state keeps the shot clock sound', () => {
    fc.assert(
      fc.property(seeds, choiceLists, (seed, choices) => {
        const encounter = start(ironGiant(), seed);
        const played = playRandomly(encounter, choices);
        const outcome = encounter.outcome();
        expect(outcome.over).toBe(true);
        if (outcome.over) expect([null, 'ehlric', 'giant']).toContain(outcome.winner);
        expect(played.length).toBeLessThanOrEqual(MAX_COMMANDS);
      }),
      { numRuns: 150 },
    );
  });

  it('ends within the bound even when nobody runs away', () => {
    fc.assert(
      fc.property(seeds, choiceLists, (seed, choices) => {
        const encounter = start(ironGiant(), seed);
        playRandomly(encounter, choices, ['flee']);
        const ended = encounter.events.at(-1);
        expect(ended?.type).toBe('battle-ended');
        expect(encounter.events.some((e) => e.type === 'fled')).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('the log replays: saving and loading, or submitting the same commands on the same seed, rebuilds the same state', () => {
    fc.assert(
      fc.property(seeds, choiceLists, fc.nat({ max: 300 }), (seed, choices, stopAt) => {
        const encounter = start(ironGiant(), seed);
        // Stop partway as often as at the end, so saves in the middle of a round are loaded too.
        const cut = choices.slice(0, stopAt);
        const played: FfviiiCommand[] = [];
        while (!encounter.outcome().over && played.length < cut.length) {
          const actions = encounter.legalActions();
          const command = actions[cut[played.length]! % actions.length]!.command;
          run(encounter, command);
          played.push(command);
        }
        const saved = JSON.parse(JSON.stringify(encounter.save()));
        const loaded = Encounter.load(ffviii, saved);
        if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
        expect(JSON.stringify(loaded.value.state)).toBe(JSON.stringify(encounter.state));
        expect(loaded.value.diceState).toEqual(encounter.diceState);
        const again = start(ironGiant(), seed);
        for (const command of played) run(again, command);
        expect(JSON.stringify(again.state)).toBe(JSON.stringify(encounter.state));
        // The loaded encounter goes on exactly as the original would.
        if (!encounter.outcome().over) {
          const next = encounter.legalActions()[0]!.command;
          expect(run(loaded.value, next)).toEqual(run(encounter, next));
        }
        // Undoing everything returns the start.
        if (encounter.undoable > 0) encounter.undo(encounter.undoable);
        expect(JSON.stringify(encounter.state)).toBe(
          JSON.stringify(ffviii.initialState(encounter.setup)),
        );
      }),
      { numRuns: 80 },
    );
  });

  it('a save whose log was changed is refused', () => {
    const encounter = start(ironGiant(), 'tampered');
    playRandomly(encounter, []);
    const saved = JSON.parse(JSON.stringify(encounter.save()));
    const entry = saved.log.find(
      (e: { type: string; events?: { type: string }[] }) =>
        e.type === 'command' && e.events?.some((ev) => ev.type === 'damage-dealt'),
    );
    expect(entry).toBeDefined();
    const damage = entry.events.find((ev: { type: string }) => ev.type === 'damage-dealt');
    damage.amount += 1;
    const loaded = Encounter.load(ffviii, saved);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error.code).toBe('save/inconsistent');
  });
});

/** Commands of every type, with real and made-up ids. */
const ids = fc.constantFrom(EHLRIC, GIANT, 'squall');
const anyCommand = fc.oneof(
  fc.constant({ type: 'begin-round' }),
  fc.record({
    type: fc.constant('use-power'),
    actor: ids,
    power: fc.constantFrom('battle-focus', 'haste'),
  }),
  fc.record({
    type: fc.constant('attack'),
    actor: ids,
    target: ids,
    weapon: fc.constantFrom('staff', 'pet', 'giant-sword', 'gunblade'),
  }),
  fc.record({
    type: fc.constant('cast'),
    actor: ids,
    target: ids,
    spell: fc.constantFrom('thunder', 'cure', 'fire', 'ultima'),
  }),
  fc.record({
    type: fc.constant('draw'),
    actor: ids,
    target: ids,
    spell: fc.constantFrom('thunder', 'cure', 'fire'),
  }),
  fc.record({ type: fc.constant('sense'), actor: ids, target: ids }),
  fc.record({ type: fc.constant('reload'), actor: ids }),
  fc.record({
    type: fc.constant('use-item'),
    actor: ids,
    target: ids,
    item: fc.constantFrom('potion', 'bomb-fragment', 'elixir'),
  }),
  fc.record({
    type: fc.constant('summon'),
    actor: ids,
    target: ids,
    gf: fc.constantFrom('infernus', 'shiva'),
  }),
  fc.record({ type: fc.constant('complete'), actor: ids }),
  fc.record({ type: fc.constant('wait'), actor: ids, shots: fc.integer({ min: -1, max: 20 }) }),
  fc.record({ type: fc.constantFrom('dodge', 'take-it', 'pass', 'flee'), actor: ids }),
  fc.record({
    type: fc.constant('gm-set'),
    target: ids,
    resource: fc.constantFrom('hp', 'shots', 'debt', 'mp', 'nonsense'),
    value: fc.integer({ min: -5, max: 80 }),
    relative: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('gm-clock'),
    target: ids,
    value: fc.integer({ min: -20, max: 20 }),
  }),
  fc.record({ type: fc.constant('gm-skip'), target: ids }),
  fc.record({
    type: fc.constant('gm-damage'),
    target: ids,
    amount: fc.constantFrom(5, '2d6', 'd'),
  }),
  fc.record({ type: fc.constant('gm-heal'), target: ids, amount: fc.integer({ min: 0, max: 40 }) }),
  fc.record({ type: fc.constant('gm-remove'), target: ids }),
  fc.record({
    type: fc.constant('gm-note'),
    target: ids,
    text: fc.constantFrom('', 'behind the pillar'),
  }),
  fc.record({ type: fc.constant('whatever'), actor: ids }),
);

describe('arbitrary commands', () => {
  it('never throw; refused ones change nothing; accepted ones keep the shot clock sound', () => {
    fc.assert(
      fc.property(seeds, fc.array(anyCommand, { maxLength: 120 }), (seed, commands) => {
        const encounter = start(
          ironGiantWith((s) => {
            sheetOf(s, EHLRIC).items['bomb-fragment'] = 1;
          }),
          seed,
        );
        for (const command of commands) {
          const before = snapshot(encounter);
          const result = encounter.submit(command);
          if (result.ok) {
            checkState(encounter.state);
          } else {
            expect(result.error.code).toMatch(/^[a-z-]+\/[a-z-]+$/);
            expect(snapshot(encounter)).toBe(before);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('legalActions hides nothing: an accepted attack, summon, draw, completion, dodge or initiative command of the combatant offered actions was on the list', () => {
    const listed = new Set([
      'begin-round',
      'use-power',
      'attack',
      'summon',
      'draw',
      'complete',
      'dodge',
      'take-it',
    ]);
    fc.assert(
      fc.property(seeds, fc.array(anyCommand, { maxLength: 80 }), (seed, commands) => {
        const encounter = start(ironGiant(), seed);
        for (const command of commands) {
          const offered = actorNow(encounter.state)?.id;
          const legal = encounter.legalActions().map((a) => a.command);
          const parsed = ffviii.parseCommand(command);
          if (!encounter.submit(command).ok || !parsed.ok) continue;
          const accepted = parsed.value;
          if (!listed.has(accepted.type)) continue;
          if ('actor' in accepted && accepted.type !== 'use-power' && accepted.actor !== offered)
            continue;
          expect(legal).toContainEqual(accepted);
        }
      }),
      { numRuns: 100 },
    );
  });
});
