/**
 * The shot clock of the FFVIII text, step by step with its own example: initiative, shots,
 * simultaneous actions, dodging and actions carrying over into the next round.
 */
import { describe, expect, it } from 'vitest';
import type { FfviiiEvent } from '../../../src/rulesets/ffviii/index.js';
import {
  acting,
  attackTaken,
  beginRound,
  declareAndAnswer,
  EHLRIC,
  type FfviiiEncounter,
  GIANT,
  hp,
  initiative,
  ironGiantWith,
  ofType,
  only,
  rejected,
  rollOf,
  run,
  sheetOf,
  shotOf,
  start,
  types,
  who,
} from './helpers.js';

/** Both sides able to take a long beating: rounds play out without anyone falling. */
function sturdy(): FfviiiEncounter {
  return start(
    ironGiantWith((setup) => {
      sheetOf(setup, EHLRIC).hp = 9999;
      sheetOf(setup, GIANT).hp = 9999;
    }),
  );
}

/** Plays the called shots to the end of the round: everyone attacks the other side, nobody dodges. */
function attackUntilRoundEnds(encounter: FfviiiEncounter): FfviiiEvent[] {
  const events: FfviiiEvent[] = [];
  let guard = 0;
  while (encounter.state.phase === 'shots' || encounter.state.phase === 'dodge') {
    if (++guard > 100) throw new Error('the round does not end');
    if (encounter.state.phase === 'dodge') {
      events.push(...run(encounter, { type: 'take-it', actor: encounter.state.pending!.target }));
      continue;
    }
    const actor = acting(encounter)[0]!;
    const target = actor === EHLRIC ? GIANT : EHLRIC;
    events.push(...run(encounter, { type: 'attack', actor, target }));
  }
  return events;
}

describe('1: Initiative', () => {
  it('"Fnord rolls the initiative dice and gets a 8 ... total of 16 ... Iron Giant ... 9 ... total of 12. Ehlric will be acting first"', () => {
    const encounter = start();
    expect(encounter.state.phase).toBe('initiative');
    const events = beginRound(encounter);
    const began = only(events, 'round-began');
    expect(began.round).toBe(1);
    expect(
      began.initiative.map((r) => [r.id, r.roll.total, r.speed, r.debt, r.initiative]),
    ).toEqual([
      [EHLRIC, 8, 8, 0, 16],
      [GIANT, 9, 3, 0, 12],
    ]);
    expect(began.initiative.every((r) => r.roll.entered && r.roll.notation === '1d10')).toBe(true);
    // "he sets the total number of shots for the round, 16 in this case"
    expect(began.shots).toBe(16);
    expect(encounter.state.shots).toBe(16);
    expect(only(events, 'shot-called').shot).toBe(16);
    expect(acting(encounter)).toEqual([EHLRIC]);
    expect(shotOf(encounter, EHLRIC)).toBe(16);
    expect(shotOf(encounter, GIANT)).toBe(12);
    const actions = encounter.legalActions();
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((a) => 'actor' in a.command && a.command.actor === EHLRIC)).toBe(true);
  });

  it('the highest initiative sets the round, whoever has it: the Giant on 13 against Ehlric on 9', () => {
    const encounter = start();
    beginRound(encounter, initiative({ [EHLRIC]: 1, [GIANT]: 10 }));
    expect(encounter.state.shots).toBe(13);
    expect(encounter.state.shot).toBe(13);
    expect(acting(encounter)).toEqual([GIANT]);
  });

  it('"Ehlric could take 4 normal combat actions this round, to the Iron Giant\'s 3 actions"', () => {
    const encounter = sturdy();
    beginRound(encounter);
    const events = attackUntilRoundEnds(encounter);
    const taken = ofType(events, 'action-taken');
    expect(taken.filter((e) => e.actor === EHLRIC).map((e) => e.shot)).toEqual([12, 8, 4, 0]);
    expect(taken.filter((e) => e.actor === GIANT).map((e) => e.shot)).toEqual([8, 4, 0]);
    expect(taken.every((e) => e.cost === 4 && e.debt === 0)).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'round-ended', round: 1 });
    expect(encounter.state.phase).toBe('initiative');
  });

  it('"The initiative dice does not explode": a 10 is just 10, and no second face is read', () => {
    const encounter = start();
    rejected(encounter, { type: 'begin-round' }, 'dice/entered-too-many', {
      entered: { 'initiative:ehlric': [10, 4], 'initiative:iron-giant': [9] },
    });
    const began = only(
      beginRound(encounter, initiative({ [EHLRIC]: 10, [GIANT]: 9 })),
      'round-began',
    );
    expect(began.initiative[0]).toMatchObject({ initiative: 18 });
    expect(began.initiative[0]!.roll.dice).toEqual([10]);
    expect(began.shots).toBe(18);
  });

  it('seeded initiative dice are one d10 each: 1 to 10 plus Speed, whatever the seed', () => {
    for (let seed = 0; seed < 200; seed++) {
      const encounter = start(undefined, seed);
      const began = only(run(encounter, { type: 'begin-round' }), 'round-began');
      for (const r of began.initiative) {
        expect(r.roll.dice).toHaveLength(1);
        expect(r.roll.total).toBeGreaterThanOrEqual(1);
        expect(r.roll.total).toBeLessThanOrEqual(10);
        expect(r.initiative).toBe(r.roll.total + r.speed);
      }
    }
  });

  it('"Any powers that affect the Initiative roll must be used at this time": Battle Focus adds 3 to this round only', () => {
    const encounter = start();
    const used = run(encounter, { type: 'use-power', actor: EHLRIC, power: 'battle-focus' });
    expect(types(used)).toEqual(['power-used']);
    const first = only(beginRound(encounter), 'round-began');
    expect(first.initiative[0]).toMatchObject({ bonus: 3, initiative: 19 });
    expect(first.shots).toBe(19);
    // Used before the round is rolled, never after.
    rejected(
      encounter,
      { type: 'use-power', actor: EHLRIC, power: 'battle-focus' },
      'power/too-late',
    );
    run(encounter, { type: 'pass', actor: EHLRIC });
    run(encounter, { type: 'pass', actor: GIANT });
    expect(encounter.state.phase).toBe('initiative');
    rejected(encounter, { type: 'use-power', actor: EHLRIC, power: 'battle-focus' }, 'power/used');
    const second = only(beginRound(encounter), 'round-began');
    expect(second.initiative[0]).toMatchObject({ bonus: 0, initiative: 16 });
  });
});

describe('2-3: Shots and combat actions', () => {
  it('"Subtracting 4 shots from his total of 16, he sees that he can act again on shot 12"; "the GM skips over shots 15, 14, and 13"', () => {
    const encounter = start();
    beginRound(encounter);
    const declared = run(encounter, {
      type: 'attack',
      actor: EHLRIC,
      target: GIANT,
      weapon: 'staff',
    });
    const taken = only(declared, 'action-taken');
    expect(taken).toMatchObject({ action: 'Attack with Staff', cost: 4, shot: 12, debt: 0 });
    const answered = run(encounter, { type: 'take-it', actor: GIANT });
    expect(ofType(answered, 'shot-called').map((e) => e.shot)).toEqual([12]);
    expect(encounter.state.shot).toBe(12);
  });

  it('"This proceeds until the round reaches Shot 1 ... There is no Shot 0": an action on shot 2 leaves 0 shots, the shot 1 action ends the round', () => {
    const encounter = start();
    beginRound(encounter);
    // Ehlric holds his action until shot 2, the Giant until shot 1.
    rejected(encounter, { type: 'wait', actor: EHLRIC, shots: 16 }, 'action/wait-too-long');
    expect(
      only(run(encounter, { type: 'wait', actor: EHLRIC, shots: 14 }), 'action-taken').shot,
    ).toBe(2);
    expect(encounter.state.shot).toBe(12);
    run(encounter, { type: 'wait', actor: GIANT, shots: 11 });
    expect(encounter.state.shot).toBe(2);
    // A 4 shot attack with 2 shots left: taken normally, leaving 0 shots, not -2.
    const declared = run(encounter, { type: 'attack', actor: EHLRIC, target: GIANT });
    expect(only(declared, 'action-taken')).toMatchObject({ cost: 4, shot: 0, debt: 0 });
    const answered = run(encounter, { type: 'take-it', actor: GIANT });
    expect(ofType(answered, 'shot-called').map((e) => e.shot)).toEqual([1]);
    rejected(encounter, { type: 'pass', actor: EHLRIC }, 'action/not-your-shot');
    // The Giant's shot 1 attack: Ehlric has no shots left, so no dodge is offered.
    const last = run(
      encounter,
      { type: 'attack', actor: GIANT, target: EHLRIC },
      { 'attack:ehlric': rollOf(-10) },
    );
    expect(types(last)).not.toContain('attack-declared');
    expect(only(last, 'action-taken').shot).toBe(0);
    expect(last.at(-1)).toEqual({ type: 'round-ended', round: 1 });
    expect(ofType(last, 'shot-called')).toEqual([]);
    expect(encounter.state.phase).toBe('initiative');
    expect(encounter.state.shot).toBe(0);
  });

  it('"Because the characters are acting on the same shot, the actions take place simultaniously": both act on Shot 12, in either order', () => {
    const encounter = sturdy();
    beginRound(encounter);
    attackTaken(encounter, EHLRIC, GIANT, rollOf(0));
    expect(encounter.state.shot).toBe(12);
    expect(acting(encounter)).toEqual([EHLRIC, GIANT]);
    // "the GM has the monster attack Ehlric with it's enormous sword" before Ehlric's pet claws.
    attackTaken(encounter, GIANT, EHLRIC, rollOf(0));
    expect(encounter.state.shot).toBe(12);
    expect(acting(encounter)).toEqual([EHLRIC]);
    const pet = attackTaken(encounter, EHLRIC, GIANT, rollOf(0), 'pet');
    expect(only(pet, 'shot-called').shot).toBe(8);
    expect(acting(encounter)).toEqual([EHLRIC, GIANT]);
  });

  it('one brought to 0 HP on a shot still takes its action on that shot, then falls: "the Iron Giant drops it\'s giant sword on Ehlric\'s head" while the pet claws', () => {
    const encounter = start(ironGiantWith((setup) => (sheetOf(setup, EHLRIC).hp = 5)));
    beginRound(encounter);
    attackTaken(encounter, EHLRIC, GIANT, rollOf(0));
    const sword = attackTaken(encounter, GIANT, EHLRIC, rollOf(3));
    expect(only(sword, 'damage-dealt').hpAfter).toBe(0);
    expect(types(sword)).not.toContain('fell');
    expect(encounter.outcome().over).toBe(false);
    expect(acting(encounter)).toEqual([EHLRIC]);
    const giantBefore = hp(encounter, GIANT);
    const pet = attackTaken(encounter, EHLRIC, GIANT, rollOf(2), 'pet');
    // Taming AV 11 + 2 = 13 against Dodge 6: 16 + margin 7 - Toughness 15 = 8.
    expect(only(pet, 'damage-dealt')).toMatchObject({ amount: 8, hpAfter: giantBefore - 8 });
    expect(ofType(pet, 'fell')).toEqual([{ type: 'fell', target: EHLRIC }]);
    expect(only(pet, 'battle-ended')).toMatchObject({ winner: 'giant' });
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'giant' });
  });

  it('one brought to 0 HP on a shot it does not act on falls when that shot is done', () => {
    const encounter = start(ironGiantWith((setup) => (sheetOf(setup, GIANT).hp = 3)));
    beginRound(encounter);
    const events = attackTaken(encounter, EHLRIC, GIANT, rollOf(0), 'pet');
    expect(types(events).slice(-2)).toEqual(['fell', 'battle-ended']);
    expect(only(events, 'battle-ended')).toMatchObject({ winner: 'ehlric' });
    expect(who(encounter, GIANT).down).toBe(true);
  });

  it('both falling on one shot is a draw', () => {
    const encounter = start(
      ironGiantWith((setup) => {
        sheetOf(setup, EHLRIC).hp = 1;
        sheetOf(setup, GIANT).hp = 1;
      }),
    );
    beginRound(encounter);
    // Shot 16: Ehlric waits to shot 12, where both act.
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 4 });
    expect(acting(encounter)).toEqual([EHLRIC, GIANT]);
    attackTaken(encounter, EHLRIC, GIANT, rollOf(0), 'pet');
    expect(hp(encounter, GIANT)).toBe(0);
    expect(encounter.outcome().over).toBe(false);
    // The Giant, at 0 HP, still swings on its shot, and Ehlric takes it.
    const events = attackTaken(encounter, GIANT, EHLRIC, rollOf(0));
    expect(ofType(events, 'fell').map((e) => e.target)).toEqual([EHLRIC, GIANT]);
    expect(only(events, 'battle-ended')).toEqual({
      type: 'battle-ended',
      winner: null,
      reason: 'nobody is left standing',
    });
    expect(encounter.outcome()).toMatchObject({ over: true, winner: null });
  });
});

describe('4: Dodging', () => {
  it('"Dodging raises a character\'s Dodge score by 3 points": the Giant dodges the staff, Dodge 6 + 3 = 9', () => {
    const encounter = start();
    beginRound(encounter);
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'staff' },
      'dodge',
      'attack:iron-giant',
      rollOf(-2),
    );
    const check = only(answered, 'check-rolled').check;
    expect(check).toMatchObject({ actionValue: 11, difficulty: 9, result: 9, success: true });
    expect(check.against).toBe('Dodge 6 + 3 (dodging)');
    // "When a character dodges, they subtract 1 from the next shot they would have been able to act on."
    expect(only(answered, 'dodge-chosen')).toMatchObject({ actor: GIANT, dodge: true, shot: 11 });
    expect(shotOf(encounter, GIANT)).toBe(11);
  });

  it('"Ehlric decides to postpone his action to Shot 7 in order to dodge": at shot 8 dodging moves him to 7, and "the very next shot, he takes his own action"', () => {
    const encounter = sturdy();
    beginRound(encounter);
    attackTaken(encounter, EHLRIC, GIANT, rollOf(0));
    attackTaken(encounter, EHLRIC, GIANT, rollOf(0), 'pet');
    attackTaken(encounter, GIANT, EHLRIC, rollOf(0));
    // "Both he and the Iron Giant act again on Shot 8"
    expect(encounter.state.shot).toBe(8);
    expect(acting(encounter)).toEqual([EHLRIC, GIANT]);
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'attack', actor: GIANT, target: EHLRIC },
      'dodge',
      'attack:ehlric',
      rollOf(1),
    );
    expect(only(answered, 'dodge-chosen')).toMatchObject({ actor: EHLRIC, shot: 7 });
    // Ehlric's Dodge is 9 (Taming 5 + Evade 4); dodging, 12: the Giant's 9 + 1 = 10 misses.
    const check = only(answered, 'check-rolled').check;
    expect(check).toMatchObject({ difficulty: 12, result: 10, success: false });
    expect(ofType(answered, 'damage-dealt')).toEqual([]);
    expect(only(answered, 'shot-called').shot).toBe(7);
    expect(acting(encounter)).toEqual([EHLRIC]);
    expect(shotOf(encounter, GIANT)).toBe(4);
  });

  it('"the 3 point bonus is applied only to the Magic Evade attribute": dodging Thunder, "it only rises to 4"', () => {
    const encounter = start();
    beginRound(encounter);
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT },
      'dodge',
      'cast:iron-giant',
      rollOf(2),
    );
    const check = only(answered, 'check-rolled').check;
    expect(check.against).toBe('Magic Evade 1 + 3 (dodging)');
    expect(check).toMatchObject({ skill: 'sorcery', difficulty: 4, result: 12, success: true });
    expect(shotOf(encounter, GIANT)).toBe(11);
  });

  it('"as soon as the character hits 0 shots, no further actions can be taken, not even dodging"', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: EHLRIC });
    expect(shotOf(encounter, EHLRIC)).toBe(0);
    const events = run(
      encounter,
      { type: 'attack', actor: GIANT, target: EHLRIC },
      { 'attack:ehlric': rollOf(0) },
    );
    expect(types(events)).not.toContain('attack-declared');
    expect(types(events)).not.toContain('dodge-chosen');
    expect(only(events, 'check-rolled').check.against).toBe('Dodge 9');
    expect(encounter.legalActions().some((a) => a.command.type === 'dodge')).toBe(false);
    rejected(encounter, { type: 'dodge', actor: EHLRIC }, 'action/no-attack');
  });

  it('"it\'s possible to use up ALL your shots dodging": a dodge on the last shot leaves 0', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 15 });
    expect(shotOf(encounter, EHLRIC)).toBe(1);
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'attack', actor: GIANT, target: EHLRIC },
      'dodge',
      'attack:ehlric',
      rollOf(0),
    );
    expect(only(answered, 'dodge-chosen').shot).toBe(0);
    // Ehlric lost his shot 1 action: with the Giant on shot 8, the round goes on without him.
    expect(encounter.state.shot).toBe(8);
    expect(acting(encounter)).toEqual([GIANT]);
  });
});

describe('7: Actions carrying over', () => {
  /** Ehlric at the end of the round "with only 2 shots left", the Giant done for the round. */
  function twoShotsLeft(): FfviiiEncounter {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 14 });
    run(encounter, { type: 'pass', actor: GIANT });
    expect(encounter.state.shot).toBe(2);
    expect(shotOf(encounter, EHLRIC)).toBe(2);
    return encounter;
  }

  it('"with only 2 shots left ... begins the summoning ... 6 shots in debt ... rolls ... a 13 ... reduce his initiative to 7"', () => {
    const encounter = twoShotsLeft();
    const started = run(encounter, {
      type: 'summon',
      actor: EHLRIC,
      gf: 'infernus',
      target: GIANT,
    });
    // "Summoning is a 8 shot action": 10 - compatibility 4 + Hell Fire's 2.
    expect(only(started, 'action-taken')).toMatchObject({
      action: 'Summon Infernus',
      cost: 8,
      shot: 0,
      debt: 6,
      carrying: { type: 'summon', gf: 'infernus', target: GIANT },
    });
    // Nothing is rolled yet: the summon happens when the shots are paid.
    expect(types(started)).not.toContain('check-rolled');
    expect(types(started)).not.toContain('attack-declared');
    expect(started.at(-1)).toEqual({ type: 'round-ended', round: 1 });
    expect(who(encounter, EHLRIC)).toMatchObject({ debt: 6, shot: 0 });

    // "The next round, he rolls initiative for Ehlric as usual, and gets a 13."
    const round2 = only(
      beginRound(encounter, initiative({ [EHLRIC]: 5, [GIANT]: 1 })),
      'round-began',
    );
    expect(round2.initiative[0]).toMatchObject({
      speed: 8,
      debt: 6,
      initiative: 7,
      debtLeft: 0,
    });
    expect(round2.initiative[0]!.roll.total + round2.initiative[0]!.speed).toBe(13);
    expect(round2.shots).toBe(7);
    expect(who(encounter, EHLRIC)).toMatchObject({ debt: 0, shot: 7 });

    // The carried action comes first (or is abandoned by passing).
    expect(encounter.legalActions().map((a) => a.command)).toEqual([
      { type: 'complete', actor: EHLRIC },
      { type: 'pass', actor: EHLRIC },
    ]);
    rejected(
      encounter,
      { type: 'attack', actor: EHLRIC, target: GIANT },
      'action/carried-action-first',
    );
    // The Iron Giant is offered its dodge against Hell Fire.
    const { declared, answered } = declareAndAnswer(
      encounter,
      { type: 'complete', actor: EHLRIC },
      'dodge',
      'summon:iron-giant',
      rollOf(0),
    );
    expect(only(declared, 'action-completed').action).toBe('Summon Infernus');
    expect(only(declared, 'attack-declared').action).toBe('Hell Fire');
    expect(ofType(declared, 'action-taken')).toEqual([]);
    const check = only(answered, 'check-rolled').check;
    expect(check).toMatchObject({ skill: 'sorcery', difficulty: 4, result: 10, success: true });
    // Hell Fire 30 against Spirit 7 (the Giant is weak to lightning, not fire).
    expect(only(answered, 'damage-dealt')).toMatchObject({ amount: 23, hpAfter: 37 });
    expect(who(encounter, EHLRIC).carrying).toBeNull();
    // The debt paid for the summon; his 7 shots are his own.
    expect(shotOf(encounter, EHLRIC)).toBe(7);
    expect(acting(encounter)).toEqual([EHLRIC]);
  });

  it('"If he\'d cast another spell at the Giant instead, he wouldn\'t have to reduce his initiative"', () => {
    const encounter = twoShotsLeft();
    // The Giant passed its last shots away, so it may not dodge: the cast resolves at once.
    const events = run(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT },
      { 'cast:iron-giant': rollOf(0) },
    );
    expect(only(events, 'action-taken')).toMatchObject({
      cost: 4,
      shot: 0,
      debt: 0,
      carrying: null,
    });
    expect(events.at(-1)).toEqual({ type: 'round-ended', round: 1 });
    const next = only(
      beginRound(encounter, initiative({ [EHLRIC]: 5, [GIANT]: 1 })),
      'round-began',
    );
    expect(next.initiative[0]).toMatchObject({ debt: 0, initiative: 13 });
  });

  it.each([3, 2, 1])(
    '"there is no penalty for performing a 4 shot regular attack when the character has only %i ... shot remaining"',
    (left) => {
      const encounter = start();
      beginRound(encounter);
      run(encounter, { type: 'wait', actor: EHLRIC, shots: 16 - left });
      run(encounter, { type: 'pass', actor: GIANT });
      expect(shotOf(encounter, EHLRIC)).toBe(left);
      const events = run(
        encounter,
        { type: 'attack', actor: EHLRIC, target: GIANT },
        { 'attack:iron-giant': rollOf(0) },
      );
      expect(only(events, 'action-taken')).toMatchObject({
        cost: 4,
        shot: 0,
        debt: 0,
        carrying: null,
      });
      expect(only(events, 'check-rolled').check.result).toBe(11);
      const next = only(beginRound(encounter), 'round-began');
      expect(next.initiative[0]).toMatchObject({ debt: 0, initiative: 16 });
    },
  );

  it('a debt larger than the next initiative takes that whole round and the rest of the debt into the round after', () => {
    const encounter = twoShotsLeft();
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'debt', value: 20 });
    run(encounter, { type: 'summon', actor: EHLRIC, gf: 'infernus', target: GIANT });
    expect(who(encounter, EHLRIC).debt).toBe(26);
    const round2 = only(
      beginRound(encounter, initiative({ [EHLRIC]: 10, [GIANT]: 5 })),
      'round-began',
    );
    // 10 + 8 - 26 = -8: no shots at all this round, 8 still owed.
    expect(round2.initiative[0]).toMatchObject({ initiative: -8, debtLeft: 8 });
    expect(round2.shots).toBe(8);
    expect(shotOf(encounter, EHLRIC)).toBe(0);
    expect(acting(encounter)).toEqual([GIANT]);
    run(encounter, { type: 'pass', actor: GIANT });
    const round3 = only(
      beginRound(encounter, initiative({ [EHLRIC]: 10, [GIANT]: 5 })),
      'round-began',
    );
    expect(round3.initiative[0]).toMatchObject({ debt: 8, initiative: 10, debtLeft: 0 });
    expect(acting(encounter)).toEqual([EHLRIC]);
    expect(encounter.legalActions().map((a) => a.command.type)).toEqual(['complete', 'pass']);
  });

  it('passing abandons the carried action: nothing is summoned and the debt already paid stays paid', () => {
    const encounter = twoShotsLeft();
    run(encounter, { type: 'summon', actor: EHLRIC, gf: 'infernus', target: GIANT });
    beginRound(encounter, initiative({ [EHLRIC]: 5, [GIANT]: 1 }));
    const events = run(encounter, { type: 'pass', actor: EHLRIC });
    expect(types(events)).not.toContain('check-rolled');
    expect(who(encounter, EHLRIC)).toMatchObject({ carrying: null, debt: 0, shot: 0 });
    expect(hp(encounter, GIANT)).toBe(60);
    rejected(encounter, { type: 'complete', actor: EHLRIC }, 'action/not-your-shot');
  });
});
