/**
 * Properties of whole ZODIAC battles played at random: every legal action is accepted, HP, MP
 * and SP stay in range, battles end, the log replays and reloads to the same state, and arbitrary
 * commands never throw and, when rejected, change nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeededDice } from '../../../src/dice/index.js';
import { type AnyRuleset, loadEncounter } from '../../../src/engine/index.js';
import { zodiac } from '../../../src/rulesets/zodiac/index.js';
import { duel, keef, ogre, snapshot, start, type ZodiacEncounter } from './helpers.js';

const MAX_COMMANDS = 3000;

/** Everything moving at once: Techs of every kind, Potions, a flier, a Walled absorber. */
function everything() {
  return duel(
    [
      keef({
        techs: [
          'haste',
          'slow',
          'sleep',
          'power-strike',
          'cure',
          'life',
          'blizzard',
          'wall',
          'dispel',
        ],
        items: { potion: 2, 'phoenix-down': 1, antidote: 1 },
      }),
      keef({
        id: 'kid',
        name: 'Kid',
        stats: { ...keef().stats, speed: 11 },
        weapon: undefined,
        techs: ['fire', 'meltdown'],
      }),
    ],
    [
      ogre({
        stats: { ...ogre().stats, hp: 600 },
        affinities: { fire: 'lesser-absorbency', ice: 'weakness' },
      }),
      ogre({
        id: 'harpy',
        name: 'Harpy',
        flying: true,
        statuses: [{ status: 'reraise' }, { status: 'venom' }],
      }),
    ],
    { wallBounce: true, damageCap: true },
  );
}

/** Plays legal actions chosen by a seeded stream (the random policy, in effect). */
function playRandomly(
  encounter: ZodiacEncounter,
  seed: number | string,
  limit = MAX_COMMANDS,
): void {
  const choices = SeededDice.fromSeed(`${seed}:choices`);
  for (let i = 0; i < limit && !encounter.outcome().over; i++) {
    const actions = encounter.legalActions();
    expect(actions.length, 'something is always possible while the battle goes on').toBeGreaterThan(
      0,
    );
    const action = actions[choices.roll(actions.length) - 1]!;
    const result = encounter.submit(action.command);
    if (!result.ok) throw new Error(`${action.label} refused: ${result.error.message}`);
    for (const c of Object.values(encounter.state.combatants)) {
      expect(c.hp).toBeGreaterThanOrEqual(0);
      expect(c.hp).toBeLessThanOrEqual(c.maxHp);
      expect(c.mp).toBeGreaterThanOrEqual(0);
      expect(c.sp).toBeGreaterThanOrEqual(0);
      if (c.unconscious) expect(c.hp).toBe(0);
    }
  }
}

describe('random legal play', () => {
  it('never throws, keeps every number in range, and ends', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const encounter = start(everything(), seed);
        playRandomly(encounter, seed);
        expect(encounter.outcome().over).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('replays from its log, and a save loads to the same state', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 120 }), (seed, limit) => {
        const encounter = start(everything(), seed);
        playRandomly(encounter, seed, limit);
        let state = zodiac.initialState(encounter.setup);
        for (const entry of encounter.log)
          if ('events' in entry)
            for (const event of entry.events) state = zodiac.evolve(state, event);
        expect(state).toEqual(encounter.state);
        const loaded = loadEncounter(JSON.parse(JSON.stringify(encounter.save())), [
          zodiac as unknown as AnyRuleset,
        ]);
        if (!loaded.ok) throw new Error(loaded.error.message);
        expect(loaded.value.state).toEqual(encounter.state);
      }),
      { numRuns: 25 },
    );
  });

  it('the same seed and commands give the same events, byte for byte', () => {
    const a = start(everything(), 'same');
    const b = start(everything(), 'same');
    playRandomly(a, 'same');
    playRandomly(b, 'same');
    expect(JSON.stringify(a.log)).toBe(JSON.stringify(b.log));
  });

  it('arbitrary commands never throw, and a rejected one changes nothing', () => {
    const command = fc.record({
      type: fc.constantFrom(
        'attack',
        'tech',
        'item',
        'defend',
        'free-action',
        'gm-status',
        'bogus',
      ),
      actor: fc.constantFrom('keef', 'kid', 'ogre', 'harpy', 'nobody'),
      target: fc.constantFrom('keef', 'kid', 'ogre', 'harpy', 'nobody'),
      tech: fc.constantFrom('fire', 'life', 'nothing'),
      item: fc.constantFrom('potion', 'none'),
      status: fc.constantFrom('sleep', 'stone', 'unconscious', 'x'),
    });
    fc.assert(
      fc.property(fc.integer(), fc.array(command, { maxLength: 30 }), (seed, commands) => {
        const encounter = start(everything(), seed);
        encounter.submit({ type: 'begin-battle' });
        for (const c of commands) {
          const before = snapshot(encounter);
          const result = encounter.submit(c);
          if (!result.ok) expect(snapshot(encounter)).toBe(before);
        }
      }),
      { numRuns: 60 },
    );
  });
});
