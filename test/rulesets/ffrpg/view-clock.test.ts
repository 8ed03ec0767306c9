/**
 * The FFRPG view's clock as data, for the web tracker's countdown: each combatant's Slow ability
 * on its Charge Time, and this round's fixed-Initiative events, with no text to parse.
 */
import { describe, expect, it } from 'vitest';
import { ffrpgSystem } from '../../../src/rulesets/ffrpg/system.js';
import { beginRound, initiative, run, start, whoseTurn } from './battle-helpers.js';
import { windCave } from './fixtures.js';

const clockOf = (encounter: ReturnType<typeof start>, id: string) =>
  ffrpgSystem.view(encounter.state).combatants.find((c) => c.id === id)?.clock;

describe('the countdown as data', () => {
  it("'Slow (4)': Poison Strike declared at 12 shows its Charge Time running out at 8", () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    expect(clockOf(encounter, 'mint')).toEqual({ initiative: 12 });
    run(encounter, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'poison-strike',
      target: 'heket',
    });
    expect(clockOf(encounter, 'mint')).toEqual({
      initiative: 12,
      charge: 8,
      charging: 'Poison Strike',
    });
    // Nobody else is charging.
    expect(clockOf(encounter, 'heket')).toEqual({ initiative: 12 });
    // Once it has gone off (the Heket passes, the count runs down past 8), it is gone.
    expect(whoseTurn(encounter)).toBe('heket');
    run(encounter, { type: 'pass', actor: 'heket' });
    expect(clockOf(encounter, 'mint')).not.toHaveProperty('charge');
  });

  it('"The ceiling comes down at 10": the event, its name, and whether it is done', () => {
    const encounter = start(
      windCave({ events: [{ id: 'ceiling', name: 'The ceiling comes down', initiative: 10 }] }),
    );
    expect(ffrpgSystem.view(encounter.state).clock).not.toHaveProperty('event:ceiling');
    beginRound(encounter, initiative({ haze: 4, mint: 3, hiro: 2, heket: 1 }));
    expect(ffrpgSystem.view(encounter.state).clock).toEqual({
      round: 1,
      phase: 'action',
      initiative: 12,
      'event:ceiling': 10,
      'event:ceiling:name': 'The ceiling comes down',
      'event:ceiling:done': 0,
    });
    run(encounter, { type: 'pass', actor: 'haze' });
    run(encounter, { type: 'pass', actor: 'mint' });
    expect(whoseTurn(encounter)).toBe('heket');
    expect(ffrpgSystem.view(encounter.state).clock).toMatchObject({
      initiative: 7,
      'event:ceiling': 10,
      'event:ceiling:done': 1,
    });
  });

  it('an event on a tie is done before the combatant on its count when it comes first', () => {
    const event = { id: 'floor', name: 'The floorboards collapse', initiative: 14 };
    const first = start(windCave({ events: [event] }));
    beginRound(first);
    run(first, { type: 'pass', actor: 'hiro' });
    expect(whoseTurn(first)).toBe('haze');
    expect(ffrpgSystem.view(first.state).clock['event:floor:done']).toBe(1);
    const after = start(windCave({ events: [event], options: { eventsBeforeTies: false } }));
    beginRound(after);
    run(after, { type: 'pass', actor: 'hiro' });
    expect(whoseTurn(after)).toBe('haze');
    expect(ffrpgSystem.view(after.state).clock['event:floor:done']).toBe(0);
  });
});
