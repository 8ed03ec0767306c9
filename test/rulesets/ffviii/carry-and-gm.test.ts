/**
 * Longer actions that carry over besides summons, the GM bringing back the fallen, and the odds
 * under the `boxcars: always` option.
 */
import { describe, expect, it } from 'vitest';
import {
  beginRound,
  declareAndAnswer,
  EHLRIC,
  GIANT,
  initiative,
  ironGiantWith,
  ofType,
  rejected,
  rollOf,
  run,
  sheetOf,
  shotOf,
  start,
  who,
} from './helpers.js';

/** Ehlric with a six-shot great axe (strength + 10): a weapon slower than a regular action. */
function withGreatAxe() {
  return ironGiantWith((setup) => {
    const ehlric = sheetOf(setup, EHLRIC);
    ehlric.weapons.unshift({
      id: 'great-axe',
      name: 'Great axe',
      skills: ['martial-arts'],
      damage: { strength: true, bonus: 10 },
      shots: 6,
    });
    sheetOf(setup, GIANT).hp = 9999;
    ehlric.hp = 9999;
  });
}

describe('FFVIII: "If the action is a longer one ... the action would have carried over"', () => {
  it('a 6-shot weapon swung with 2 shots left carries 4 shots of debt and lands on the next round', () => {
    const encounter = start(withGreatAxe());
    // Ehlric 1 + 8 = 9, the Giant 1 + 3 = 4: Ehlric swings at 9 (6 shots), then has 3 left.
    beginRound(encounter, initiative({ [EHLRIC]: 1, [GIANT]: 1 }));
    declareAndAnswer(
      encounter,
      { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'great-axe' },
      'take-it',
      `attack:${GIANT}`,
      rollOf(0),
    );
    expect(shotOf(encounter, EHLRIC)).toBe(3);
    // The Giant acts on 4: it swings, Ehlric takes it.
    declareAndAnswer(
      encounter,
      { type: 'attack', actor: GIANT, target: EHLRIC },
      'take-it',
      `attack:${EHLRIC}`,
      rollOf(0),
    );
    // Shot 3: six shots wanted, three there: the swing starts and three shots carry over.
    const started = run(encounter, {
      type: 'attack',
      actor: EHLRIC,
      target: GIANT,
      weapon: 'great-axe',
    });
    expect(ofType(started, 'check-rolled')).toHaveLength(0);
    expect(who(encounter, EHLRIC).debt).toBe(3);
    expect(who(encounter, EHLRIC).carrying).toEqual({
      type: 'attack',
      weapon: 'great-axe',
      target: GIANT,
    });
    // Next round: 5 + 8 - 3 = 10; the swing completes first, then the Giant may dodge it.
    beginRound(encounter, initiative({ [EHLRIC]: 5, [GIANT]: 1 }));
    expect(shotOf(encounter, EHLRIC)).toBe(10);
    rejected(
      encounter,
      { type: 'attack', actor: EHLRIC, target: GIANT },
      'action/carried-action-first',
    );
    const completed = run(encounter, { type: 'complete', actor: EHLRIC });
    expect(ofType(completed, 'action-completed')[0]?.action).toBe('Attack with Great axe');
    expect(encounter.state.phase).toBe('dodge');
    const hit = run(
      encounter,
      { type: 'take-it', actor: GIANT },
      { [`attack:${GIANT}`]: rollOf(2) },
    );
    // Strength 8 + 10 + margin (11 + 2 - 6 = 7) - Toughness 15 = 10.
    expect(ofType(hit, 'damage-dealt')[0]?.amount).toBe(10);
    // Completing took no shots of this round: Ehlric acts again on 10.
    expect(shotOf(encounter, EHLRIC)).toBe(10);
  });
});

describe('FFVIII: the GM sets HP', () => {
  it('a monster set to 0 HP falls when the shot is over, and the battle ends', () => {
    const encounter = start(
      ironGiantWith((setup) => {
        sheetOf(setup, EHLRIC).hp = 9999;
      }),
    );
    beginRound(encounter);
    run(encounter, { type: 'gm-set', target: GIANT, resource: 'hp', value: 0 });
    // Ehlric still acts on shot 16; when he is done the shot ends and the Giant falls...
    expect(encounter.state.phase).toBe('shots');
    run(encounter, { type: 'pass', actor: EHLRIC });
    expect(encounter.state.phase).toBe('ended');
    // ...which is final: GM adjustments come before the end, not after.
    rejected(
      encounter,
      { type: 'gm-set', target: GIANT, resource: 'hp', value: 10 },
      'battle/over',
    );
  });

  it('a fallen ally given HP stands again at the next round', () => {
    const setup = ironGiantWith((s) => {
      s.sides[0]!.combatants.push({ ...sheetOf(s, EHLRIC), id: 'ehlric-2', name: 'Ehlric II' });
      sheetOf(s, GIANT).hp = 9999;
    });
    const encounter = start(setup);
    beginRound(encounter, {
      ...initiative({ [EHLRIC]: 8, [GIANT]: 9 }),
      'initiative:ehlric-2': [1],
    });
    run(encounter, { type: 'gm-set', target: 'ehlric-2', resource: 'hp', value: 0 });
    run(encounter, { type: 'pass', actor: EHLRIC });
    expect(who(encounter, 'ehlric-2').down).toBe(true);
    run(encounter, { type: 'gm-set', target: 'ehlric-2', resource: 'hp', value: 5 });
    expect(who(encounter, 'ehlric-2').down).toBe(false);
    expect(who(encounter, 'ehlric-2').hp).toBe(5);
  });
});

describe('FFVIII: reloading', () => {
  it('with every gun full, says the guns are full rather than that there is none', () => {
    const encounter = start(
      ironGiantWith((setup) => {
        sheetOf(setup, EHLRIC).weapons.push({
          id: 'pistol',
          name: 'Pistol',
          skills: ['guns'],
          damage: { strength: false, bonus: 10 },
          shots: 4,
          gun: { kind: 'pistol', capacity: 8 },
        });
      }),
    );
    beginRound(encounter);
    rejected(encounter, { type: 'reload', actor: EHLRIC }, 'weapon/full');
  });
});
