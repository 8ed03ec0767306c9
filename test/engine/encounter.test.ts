import { describe, expect, it } from 'vitest';
import {
  Encounter,
  loadEncounter,
  parseSavedEncounter,
  StatesAfterEntries,
  undoneSeqs,
} from '../../src/engine/index.js';
import { type DuelCommand, duel } from './toy-ruleset.js';

const setup = {
  fighters: [
    { id: 'ann', hp: 20 },
    { id: 'bob', hp: 20 },
  ],
};

function start(seed: number | string = 7) {
  const created = Encounter.create(duel, setup, seed);
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

const script: DuelCommand[] = [
  { type: 'attack', actor: 'ann', target: 'bob' },
  { type: 'attack', actor: 'bob', target: 'ann' },
  { type: 'attack', actor: 'ann', target: 'bob' },
  { type: 'heal', target: 'ann', amount: 3 },
  { type: 'attack', actor: 'bob', target: 'ann' },
];

function play(encounter: ReturnType<typeof start>, commands: DuelCommand[]): void {
  for (const command of commands) {
    const result = encounter.submit(command);
    if (!result.ok) throw new Error(result.error.message);
  }
}

describe('the encounter engine', () => {
  it('gives byte-identical events for the same seed and commands', () => {
    const a = start(99);
    const b = start(99);
    play(a, script);
    play(b, script);
    expect(JSON.stringify(a.log)).toBe(JSON.stringify(b.log));
    const c = start(100);
    play(c, script);
    expect(JSON.stringify(c.events)).not.toBe(JSON.stringify(a.events));
  });

  it('records every roll in the events', () => {
    const encounter = start();
    const result = encounter.submit(script[0]);
    expect(result.ok && result.value[0]).toMatchObject({
      type: 'attacked',
      damage: { purpose: 'damage:bob', notation: '1d6', entered: false },
    });
    const event = result.ok ? result.value[0] : undefined;
    expect(event?.type === 'attacked' && event.damage.text).toMatch(/^1d6 = \[\d\] = \d$/);
  });

  it('rejects a command with a code and a sentence, and changes nothing (not even the dice)', () => {
    const encounter = start();
    const before = JSON.stringify({
      state: encounter.state,
      log: encounter.log,
      dice: encounter.diceState,
    });
    const rejected = [
      encounter.submit({ type: 'attack', actor: 'bob', target: 'ann' }),
      encounter.submit({ type: 'attack', actor: 'ann', target: 'zed' }),
      encounter.submit({ type: 'fly' }),
      encounter.submit(
        { type: 'attack', actor: 'ann', target: 'bob' },
        { entered: { 'damage:bob': [7] } },
      ),
      encounter.submit(
        { type: 'attack', actor: 'ann', target: 'bob' },
        { entered: { 'damage:bob': [] } },
      ),
      encounter.submit(
        { type: 'attack', actor: 'ann', target: 'bob' },
        { entered: { 'damage:bob': [3, 4] } },
      ),
      encounter.submit(
        { type: 'attack', actor: 'ann', target: 'bob' },
        { entered: { 'damage:bobb': [3] } },
      ),
      encounter.submit({ type: 'attack', actor: 'ann', target: 'bob' }, { enterAll: true }),
    ];
    expect(rejected.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual([
      'action/not-your-turn',
      'action/unknown-target',
      'command/invalid',
      'dice/entered-out-of-range',
      'dice/entered-too-few',
      'dice/entered-too-many',
      'dice/entered-unused',
      'dice/needs-entry',
    ]);
    for (const r of rejected) if (!r.ok) expect(r.error.message.length).toBeGreaterThan(5);
    // Dice errors name the roll, so an interface can ask for exactly those dice.
    expect(rejected.at(-1)).toMatchObject({
      error: { code: 'dice/needs-entry', purpose: 'damage:bob', notation: '1d6' },
    });
    expect(rejected[0]!.ok || 'purpose' in rejected[0]!.error).toBe(false);
    expect(
      JSON.stringify({ state: encounter.state, log: encounter.log, dice: encounter.diceState }),
    ).toBe(before);
  });

  it('takes entered dice per roll and leaves the seeded stream untouched', () => {
    const encounter = start();
    const dice = encounter.diceState;
    const result = encounter.submit(script[0], { entered: { 'damage:bob': [5] } });
    expect(result.ok && result.value[0]).toMatchObject({
      damage: { total: 5, entered: true, text: '1d6 = [5] = 5' },
    });
    expect(encounter.state.hp.bob).toBe(15);
    expect(encounter.diceState).toEqual(dice);
  });

  it('undoes and redoes any number of steps, dice stream included', () => {
    const encounter = start();
    play(encounter, script.slice(0, 3));
    const afterThree = { state: encounter.state, dice: encounter.diceState };
    play(encounter, script.slice(3));
    const afterAll = { state: encounter.state, dice: encounter.diceState };
    expect(encounter.undo(2)).toEqual({ ok: true, value: 2 });
    expect({ state: encounter.state, dice: encounter.diceState }).toEqual(afterThree);
    expect(encounter.redoable).toBe(2);
    expect(encounter.redo(2).ok).toBe(true);
    expect({ state: encounter.state, dice: encounter.diceState }).toEqual(afterAll);
    expect(encounter.undo(5).ok).toBe(true);
    expect(encounter.state).toEqual(duel.initialState(setup));
    expect(encounter.undo(1)).toMatchObject({
      ok: false,
      error: { code: 'history/nothing-to-undo' },
    });
    expect(encounter.redo(6)).toMatchObject({
      ok: false,
      error: { code: 'history/nothing-to-redo' },
    });
    expect(encounter.undo(0)).toMatchObject({ ok: false, error: { code: 'history/bad-steps' } });
  });

  it('rolls the same dice again after an undo (the stream is restored, not skipped)', () => {
    const encounter = start();
    const first = encounter.submit(script[0]);
    encounter.undo();
    const again = encounter.submit(script[0]);
    expect(again).toEqual(first);
  });

  it('a new command after an undo ends the redo branch, and the log keeps everything', () => {
    const encounter = start();
    play(encounter, script.slice(0, 2));
    encounter.undo();
    play(encounter, [{ type: 'heal', target: 'bob', amount: 1 }]);
    expect(encounter.redoable).toBe(0);
    expect(encounter.log.map((e) => e.type)).toEqual(['command', 'command', 'undo', 'command']);
    expect(encounter.log.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('an undone command stays undone after later commands; a redone one is not; undos name what they moved', () => {
    const encounter = start();
    play(encounter, script.slice(0, 3)); // 1, 2, 3
    encounter.undo(2); // 4: takes back 3 and 2
    encounter.redo(1); // 5: puts back 2
    play(encounter, [{ type: 'heal', target: 'bob', amount: 1 }]); // 6: 3 can never come back
    expect([...undoneSeqs(encounter.log)]).toEqual([3]);
    const states = StatesAfterEntries.of(duel, setup, encounter.log);
    expect(states.movedBy(4)).toEqual([3, 2]);
    expect(states.movedBy(5)).toEqual([2]);
    expect(states.movedBy(6)).toEqual([]);
    expect(states.current).toEqual(encounter.state);
  });

  it('saves to JSON and loads to the same state, continuing the same dice stream', () => {
    const original = start(1234);
    play(original, script.slice(0, 3));
    original.undo();
    const saved = JSON.parse(JSON.stringify(original.save()));
    const loaded = loadEncounter(saved, [duel]);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.state).toEqual(original.state);
    expect(loaded.value.diceState).toEqual(original.diceState);
    expect(loaded.value.redoable).toBe(1);
    const next = script[2]!;
    expect(loaded.value.submit(next)).toEqual(original.submit(next));
    expect(JSON.stringify(loaded.value.log)).toBe(JSON.stringify(original.log));
  });

  it('refuses broken saves with a reason', () => {
    const good = start().save();
    const cases: [unknown, string][] = [
      [null, 'save/malformed'],
      [{ ...good, format: 'other' }, 'save/malformed'],
      [{ ...good, version: 2 }, 'save/unsupported-version'],
      [{ ...good, ruleset: 'chess' }, 'save/unknown-ruleset'],
      [{ ...good, setup: { fighters: [] } }, 'save/bad-setup'],
      [{ ...good, dice: { algorithm: 'xoshiro128**', words: [1, 2, 3, 4] } }, 'save/bad-dice'],
      [
        { ...good, initialDice: { algorithm: 'xoshiro128**', words: [0, 0, 0, 0] } },
        'save/bad-dice',
      ],
      [{ ...good, log: [{ seq: 2, type: 'undo', steps: 1 }] }, 'save/malformed'],
    ];
    for (const [input, code] of cases) {
      const loaded = loadEncounter(input, [duel]);
      expect(loaded.ok ? 'ok' : loaded.error.code).toBe(code);
    }
    expect(parseSavedEncounter(good).ok).toBe(true);
  });

  it('lists the legal actions and the outcome from the ruleset', () => {
    const encounter = start();
    expect(encounter.legalActions().map((a) => a.label)).toEqual(['ann attacks bob']);
    expect(encounter.outcome()).toEqual({ over: false });
    for (let i = 0; i < 7; i++) {
      const actor = i % 2 === 0 ? 'ann' : 'bob';
      const target = actor === 'ann' ? 'bob' : 'ann';
      const result = encounter.submit(
        { type: 'attack', actor, target },
        { entered: { [`damage:${target}`]: [actor === 'ann' ? 6 : 1] } },
      );
      expect(result.ok).toBe(true);
    }
    expect(encounter.state.hp).toEqual({ ann: 17, bob: 0 });
    expect(encounter.outcome()).toEqual({ over: true, winner: 'ann', reason: 'one fighter left' });
  });
});

describe('saves are checked, not trusted', () => {
  it('a save is a copy: later commands do not reach it', () => {
    const encounter = start(5);
    play(encounter, script.slice(0, 2));
    const saved = encounter.save();
    const log = encounter.log;
    play(encounter, script.slice(2, 3));
    expect(saved.log).toHaveLength(2);
    expect(log).toHaveLength(2);
    const loaded = loadEncounter(saved, [duel]);
    expect(loaded.ok).toBe(true);
  });

  it('records every die a roll used, and re-deciding the log with them must give the logged events', () => {
    const encounter = start(8);
    play(encounter, script);
    const saved = JSON.parse(JSON.stringify(encounter.save()));
    const first = saved.log[0].events[0];
    expect(first.damage.dice).toHaveLength(1);
    expect(first.damage.dice[0]).toBe(first.damage.total);

    const tamper = (change: (save: typeof saved) => void): string => {
      const copy = JSON.parse(JSON.stringify(saved));
      change(copy);
      const loaded = loadEncounter(copy, [duel]);
      return loaded.ok ? 'ok' : loaded.error.code;
    };
    expect(tamper(() => {})).toBe('ok');
    // A total that its dice do not give.
    expect(
      tamper((s) => {
        s.log[0].events[0].damage.total = 6;
        s.log[0].events[0].damage.dice = [5];
      }),
    ).toBe('save/inconsistent');
    // Dice changed along with the total: the events no longer follow from them... or do, consistently.
    expect(
      tamper((s) => {
        s.log[0].events[0].damage.text = 'made up';
      }),
    ).toBe('save/inconsistent');
    // An event the command never produces, or one missing.
    expect(
      tamper((s) => {
        s.log[0].events.push({ type: 'healed', target: 'ann', amount: 50 });
      }),
    ).toBe('save/inconsistent');
    expect(
      tamper((s) => {
        s.log[0].events.pop();
      }),
    ).toBe('save/inconsistent');
    expect(
      tamper((s) => {
        s.log[0].events.push({ type: 'bogus' });
      }),
    ).toBe('save/inconsistent');
    // A command that was never legal.
    expect(
      tamper((s) => {
        s.log[0].command.actor = 'bob';
      }),
    ).toBe('save/inconsistent');
    // More undo than there is.
    expect(
      tamper((s) => {
        s.log.push({ seq: s.log.length + 1, type: 'undo', steps: 50 });
      }),
    ).toBe('save/inconsistent');
  });

  it('refuses entered dice of the wrong shape instead of ignoring them', () => {
    const encounter = start();
    const before = JSON.stringify(encounter.log);
    const result = encounter.submit(script[0], { entered: 5 } as never);
    expect(result).toMatchObject({ ok: false, error: { code: 'dice/bad-entry' } });
    const strings = encounter.submit(script[0], { entered: { 'damage:bob': ['5'] } } as never);
    expect(strings).toMatchObject({ ok: false, error: { code: 'dice/bad-entry' } });
    expect(JSON.stringify(encounter.log)).toBe(before);
  });
});
