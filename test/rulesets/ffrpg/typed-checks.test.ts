/**
 * Task Checks typed at the table with any Conditional Modifier, in a Scene and in battle:
 * `check hiro awareness hard`, `check hiro agi -20`, `check hiro stealth vs heket awareness`.
 */
import { describe, expect, it } from 'vitest';
import { ffrpgSystem } from '../../../src/rulesets/ffrpg/system.js';
import {
  beginRound,
  d100,
  only,
  run,
  start,
  starterSetup,
  types,
  whoseTurn,
  windCaveSpec,
} from './battle-helpers.js';

const parse = ffrpgSystem.parseAction!;

describe('typed Task Checks', () => {
  it('"check hiro awareness hard": a Skill by any case, hard read as Challenging (-20)', () => {
    const encounter = start();
    expect(parse(encounter.state, 'check hiro awareness hard')).toEqual({
      type: 'task-check',
      actor: 'hiro',
      skill: 'Awareness',
      modifier: -20,
      impossible: false,
      called: true,
    });
    expect(parse(encounter.state, 'check Hiro AGI -20')).toMatchObject({
      attribute: 'AGI',
      modifier: -20,
    });
    expect(parse(encounter.state, 'check haze stealth Heroic')).toMatchObject({
      skill: 'Stealth',
      modifier: 'Heroic',
    });
    expect(parse(encounter.state, 'check hiro speed')).toMatchObject({
      attribute: 'SPD',
      modifier: 0,
    });
  });

  it('"check hiro stealth vs heket awareness": an Opposed Task Check, a modifier each', () => {
    const encounter = start(starterSetup());
    expect(parse(encounter.state, 'check hiro stealth +40 vs heket awareness -20')).toEqual({
      type: 'opposed-check',
      participants: [
        { actor: 'hiro', skill: 'Stealth', modifier: 40 },
        { actor: 'heket', skill: 'Awareness', modifier: -20 },
      ],
    });
  });

  it('a combatant named as the table says it, in several words: "check Old Heket awareness"', () => {
    const spec = windCaveSpec();
    const sides = spec.sides as { combatants: Record<string, unknown>[] }[];
    sides[1]!.combatants = [{ monster: 'heket', name: 'Old Heket' }];
    const encounter = start(starterSetup(spec));
    expect(parse(encounter.state, 'check old heket awareness -20')).toMatchObject({
      type: 'task-check',
      actor: 'heket',
      skill: 'Awareness',
      modifier: -20,
    });
    expect(parse(encounter.state, 'check hiro stealth vs Old Heket awareness')).toMatchObject({
      participants: [{ actor: 'hiro' }, { actor: 'heket', skill: 'Awareness' }],
    });
  });

  it('what is not a check is left to the rest of the terminal', () => {
    const encounter = start();
    for (const text of ['attack heket', 'check', 'check hiro', 'check hiro a b c d', 'task check'])
      expect(parse(encounter.state, text), text).toBeUndefined();
  });

  it('in battle a check the GM calls takes nobody\'s turn; a typed "task check" is the actor\'s Action', () => {
    const encounter = start(starterSetup());
    beginRound(encounter);
    expect(whoseTurn(encounter)).toBe('hiro');
    const called = parse(encounter.state, 'check mint stealth easy')!;
    const events = run(encounter, called, { check: d100(28) });
    // Stealth 40 + Easy 40 = 80.
    expect(only(events, 'task-checked')).toMatchObject({
      actor: 'mint',
      modifier: 40,
      check: { cos: 80, success: true },
    });
    expect(types(events)).toEqual(['task-checked']);
    expect(whoseTurn(encounter)).toBe('hiro');
    const opposed = parse(encounter.state, 'check haze stealth vs heket awareness')!;
    expect(types(run(encounter, opposed))).toEqual(['opposed-checked']);
    expect(whoseTurn(encounter)).toBe('hiro');
    const action = parse(encounter.state, 'task check guns average')!;
    expect(action).toMatchObject({
      actor: 'hiro',
      skill: 'Guns',
      modifier: 'average',
      called: false,
    });
    const turn = run(encounter, action, { check: d100(50) });
    expect(types(turn).slice(0, 2)).toEqual(['task-checked', 'turn-ended']);
    expect(whoseTurn(encounter)).toBe('haze');
  });

  it('words that name nothing reach the rules, which say what is known', () => {
    const encounter = start();
    const result = encounter.submit(parse(encounter.state, 'check hiro cooking hard')!);
    expect(result).toMatchObject({ ok: false, error: { code: 'action/unknown-skill' } });
    const modifier = encounter.submit(parse(encounter.state, 'check hiro stealth trivial')!);
    expect(modifier).toMatchObject({ ok: false, error: { code: 'action/bad-check' } });
  });
});
