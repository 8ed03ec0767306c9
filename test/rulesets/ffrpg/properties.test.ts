/**
 * Properties of whole battles played at random: for any seed and any sequence of legal actions,
 * nothing throws, every legal action is accepted, HP and MP stay in range, the log replays and
 * reloads to the same state, and undoing everything returns the start. Arbitrary commands,
 * legal or not, never throw and, when rejected, change nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AnyRuleset, loadEncounter } from '../../../src/engine/index.js';
import { type FfrpgSetupInput, type FfrpgState, ffrpg } from '../../../src/rulesets/ffrpg/index.js';
import {
  type FfrpgEncounter,
  sheet,
  snapshot,
  start,
  starterSetup,
  windCaveWith,
} from './battle-helpers.js';
import { windCave } from './fixtures.js';

const MAX_COMMANDS = 300;
const rulesets = [ffrpg as unknown as AnyRuleset];

/**
 * The fixture with every moving part in play: Counters on both sides, Slow abilities, a Flat-CoS
 * Sleep, Regen and Protect spells, a Group attack, a second Heket and a fixed event.
 */
function everything(): FfrpgSetupInput {
  const setup = windCaveWith(
    {
      lullaby: {
        name: 'Lullaby',
        type: 'magic',
        target: 'single',
        mpCost: 3,
        inflicts: [{ status: 'sleep', timer: 2, cos: { kind: 'flat', percent: 50 } }],
      },
      'aimed-shot': {
        name: 'Aimed Shot',
        type: 'slow',
        chargeTime: 3,
        target: 'single',
        cos: { kind: 'formula', formula: 'ACC + SKILL', guard: 'eva' },
        damage: { percent: 50 },
      },
      'big-croak': {
        name: 'Big Croak',
        type: 'slow',
        chargeTime: 6,
        target: 'group',
        damage: { code: 'STR + d6' },
      },
      regen: {
        name: 'Regen',
        type: 'magic',
        target: 'party',
        mpCost: 5,
        inflicts: [{ status: 'regen' }],
      },
      protect: {
        name: 'Protect',
        type: 'magic',
        target: 'single',
        mpCost: 4,
        inflicts: [{ status: 'protect' }],
      },
      vengeance: {
        name: 'Vengeance',
        type: 'reaction',
        trigger: 'physical-damage',
        reaction: 'counter-attack',
        cos: { kind: 'flat', percent: 20 },
      },
    },
    {
      hiro: ['aimed-shot', 'counter'],
      haze: ['vengeance'],
      mint: ['lullaby', 'regen', 'protect'],
      heket: ['counter', 'big-croak', 'lullaby'],
    },
    { events: [{ id: 'rockfall', name: 'Rocks fall', initiative: 9 }] },
  );
  setup.statuses = {
    ...setup.statuses,
    regen: {
      name: 'Regen',
      polarity: 'positive',
      timer: 3,
      effects: [{ kind: 'status-phase-heal', percentOfMaxHp: 10 }],
    },
  };
  sheet(setup, 'heket').stats.mp = 20;
  sheet(setup, 'heket').stats.hp = 150;
  sheet(setup, 'heket').statuses = [{ status: 'poison', timer: 'infinite' }];
  setup.sides[1]!.combatants.push({
    ...structuredClone(sheet(setup, 'heket')),
    id: 'heket-2',
    name: 'Heket 2',
    statuses: [],
  });
  return setup;
}

const SETUPS: Record<string, () => unknown> = {
  fixture: () => windCave(),
  starter: () => starterSetup(),
  everything,
};

/** What must hold after every accepted command. */
function checkInvariants(state: FfrpgState, strict: boolean): void {
  for (const c of Object.values(state.combatants)) {
    expect(Number.isInteger(c.hp)).toBe(true);
    expect(c.hp).toBeGreaterThanOrEqual(0);
    expect(c.hp).toBeLessThanOrEqual(c.sheet.stats.hp);
    expect(c.mp).toBeGreaterThanOrEqual(0);
    expect(c.mp).toBeLessThanOrEqual(c.sheet.stats.mp);
    expect(c.down).toBe(c.hp === 0);
    for (const s of c.statuses) {
      if (s.timer !== 'infinite') expect(s.timer).toBeGreaterThanOrEqual(1);
    }
    if (strict && c.down) expect(c.statuses).toEqual([]);
  }
  if (state.phase === 'action') {
    const entry = state.timeline[state.cursor];
    expect(entry?.kind).toBe('combatant');
  }
  if (state.phase === 'initiative') expect(state.charging).toEqual([]);
  expect(state.phase === 'ended').toBe(state.result !== null);
}

/**
 * Picks a legal action by index; Flee only one time in ten it comes up, so that battles last
 * long enough to reach Slow abilities, Status Phases and knock-outs.
 */
function choose<T extends { readonly command: { readonly type: string } }>(
  actions: readonly T[],
  pick: number,
): T {
  const action = actions[pick % actions.length]!;
  if (action.command.type !== 'flee' || pick % 10 === 0) return action;
  const others = actions.filter((a) => a.command.type !== 'flee');
  return others[pick % others.length] ?? action;
}

function fresh(name: string, seed: number): FfrpgEncounter {
  return start(SETUPS[name]!(), seed);
}

function reload(encounter: FfrpgEncounter): FfrpgEncounter {
  const loaded = loadEncounter(JSON.parse(JSON.stringify(encounter.save())), rulesets);
  if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
  return loaded.value as unknown as FfrpgEncounter;
}

describe('random battles of legal actions', () => {
  it('never throw, accept every legal action, keep HP in range, replay, reload and undo to the start', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(...Object.keys(SETUPS)),
        fc.array(fc.nat({ max: 10_000 }), { minLength: 1, maxLength: 64 }),
        (seed, name, picks) => {
          const encounter = fresh(name, seed);
          const initial = JSON.stringify(encounter.state);
          const played: unknown[] = [];
          for (let i = 0; i < MAX_COMMANDS; i++) {
            const actions = encounter.legalActions();
            expect(actions.length === 0).toBe(encounter.outcome().over);
            if (actions.length === 0) break;
            const action = choose(actions, picks[i % picks.length]!);
            const result = encounter.submit(action.command);
            if (!result.ok) {
              throw new Error(`legal action ${action.label} rejected: ${result.error.message}`);
            }
            played.push(action.command);
            checkInvariants(encounter.state, true);
          }
          const final = JSON.stringify(encounter.state);
          // The log, saved and loaded, rebuilds the same state.
          const loaded = reload(encounter);
          expect(JSON.stringify(loaded.state)).toBe(final);
          expect(loaded.diceState).toEqual(encounter.diceState);
          // The same seed and commands give the same log.
          const replay = fresh(name, seed);
          for (const command of played) {
            const result = replay.submit(command);
            expect(result.ok).toBe(true);
          }
          expect(JSON.stringify(replay.log)).toBe(JSON.stringify(encounter.log));
          // Undoing everything returns the start; redoing everything the end.
          const steps = encounter.undoable;
          if (steps > 0) {
            expect(encounter.undo(steps).ok).toBe(true);
            expect(JSON.stringify(encounter.state)).toBe(initial);
            expect(encounter.redo(steps).ok).toBe(true);
          }
          expect(JSON.stringify(encounter.state)).toBe(final);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('battles of attacks alone always end within 300 commands', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const encounter = fresh('starter', seed);
        for (let i = 0; i < MAX_COMMANDS && !encounter.outcome().over; i++) {
          const actions = encounter.legalActions();
          const action = actions.find((a) => a.command.type === 'attack') ?? actions[0]!;
          expect(encounter.submit(action.command).ok).toBe(true);
        }
        expect(encounter.outcome().over).toBe(true);
      }),
      { numRuns: 30 },
    );
  });
});

describe('arbitrary commands', () => {
  const ids = ['hiro', 'haze', 'mint', 'heket', 'heket-2', 'nobody'];
  const abilities = [
    'darkside',
    'cure',
    'poison-strike',
    'counter',
    'lullaby',
    'aimed-shot',
    'big-croak',
    'regen',
    'ultima',
  ];
  const command = fc.oneof(
    fc.constant({ type: 'begin-round' }),
    fc.record({
      type: fc.constant('attack'),
      actor: fc.constantFrom(...ids),
      target: fc.constantFrom(...ids),
    }),
    fc.record({
      type: fc.constant('use-ability'),
      actor: fc.constantFrom(...ids),
      ability: fc.constantFrom(...abilities),
      target: fc.constantFrom(...ids, 'party', 'enemies'),
    }),
    fc.record({ type: fc.constantFrom('pass', 'flee'), actor: fc.constantFrom(...ids) }),
    fc.record({
      type: fc.constant('gm-set'),
      target: fc.constantFrom(...ids, 'constructor'),
      resource: fc.constantFrom('hp', 'mp', 'sp'),
      value: fc.integer({ min: -400, max: 400 }),
      relative: fc.boolean(),
    }),
    fc.record({
      type: fc.constant('gm-clock'),
      target: fc.constantFrom(...ids),
      value: fc.integer({ min: -20, max: 30 }),
      relative: fc.boolean(),
    }),
    fc.record({ type: fc.constantFrom('gm-skip', 'gm-remove'), target: fc.constantFrom(...ids) }),
    fc.record({
      type: fc.constantFrom('gm-damage', 'gm-heal'),
      target: fc.constantFrom(...ids),
      amount: fc.oneof(
        fc.integer({ min: 0, max: 2000 }),
        fc.constantFrom('2d6', 'd', '1d0'),
        fc.record({
          percent: fc.integer({ min: 1, max: 200 }),
          of: fc.constantFrom('hp', 'max-hp', 'mp', 'max-mp'),
        }),
      ),
      raw: fc.boolean(),
    }),
    fc.record({
      type: fc.constant('gm-note'),
      target: fc.constantFrom(...ids),
      text: fc.constantFrom('', 'behind the pillar'),
    }),
    fc.record({
      type: fc.constant('gm-status'),
      target: fc.constantFrom(...ids),
      status: fc.constantFrom('poison', 'sleep', 'protect', 'regen', 'zombie'),
      remove: fc.boolean(),
    }),
    fc.record({ type: fc.constantFrom('cast', 'undo'), actor: fc.string() }),
  );

  it('never throw; rejected ones change nothing; accepted ones keep HP and MP in range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom('fixture', 'everything'),
        fc.array(fc.oneof(command, fc.nat({ max: 50 })), { maxLength: 150 }),
        (seed, name, steps) => {
          const encounter = fresh(name, seed);
          for (const step of steps) {
            // A number plays a legal action (so battles get somewhere); anything else is sent as is.
            const actions = encounter.legalActions();
            const input =
              typeof step === 'number'
                ? actions[step % Math.max(actions.length, 1)]?.command
                : step;
            if (input === undefined) continue;
            const before = snapshot(encounter);
            const result = encounter.submit(input);
            if (!result.ok) {
              expect(result.error.code).toMatch(/^[a-z-]+\/[a-z-]+$/);
              expect(snapshot(encounter)).toBe(before);
            } else {
              checkInvariants(encounter.state, false);
            }
          }
          const loaded = reload(encounter);
          expect(JSON.stringify(loaded.state)).toBe(JSON.stringify(encounter.state));
        },
      ),
      { numRuns: 60 },
    );
  });
});
