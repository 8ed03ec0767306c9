/**
 * Errors are values: every command the rules refuse comes back as a code and a message, and the
 * encounter (state, log and dice stream) is exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import type { FfviiiSetup } from '../../../src/rulesets/ffviii/index.js';
import {
  beginRound,
  EHLRIC,
  type FfviiiEncounter,
  GIANT,
  initiative,
  ironGiant,
  ironGiantWith,
  rejected,
  rollOf,
  run,
  sheetOf,
  start,
  types,
  who,
} from './helpers.js';

const GIANT2 = 'iron-giant-2';

/** The example with a second Iron Giant beside the first. */
function twoGiants(): FfviiiSetup {
  return ironGiantWith((setup) => {
    const second = { ...structuredClone(sheetOf(setup, GIANT)), id: GIANT2, name: 'Iron Giant 2' };
    setup.sides[1]!.combatants.push(second);
  });
}

const TWO_GIANTS_INITIATIVE = initiative({ [EHLRIC]: 8, [GIANT]: 9, [GIANT2]: 5 });

function shot16(): FfviiiEncounter {
  const encounter = start();
  beginRound(encounter);
  return encounter;
}

const staff = { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'staff' };

describe('commands refused before the round begins', () => {
  it('actions wait for initiative ("roll initiative first")', () => {
    const encounter = start();
    rejected(encounter, staff, 'round/not-begun');
    rejected(encounter, { type: 'pass', actor: EHLRIC }, 'round/not-begun');
    rejected(encounter, { type: 'complete', actor: EHLRIC }, 'round/not-begun');
    rejected(encounter, { type: 'dodge', actor: GIANT }, 'action/no-attack');
    rejected(encounter, { type: 'take-it', actor: GIANT }, 'action/no-attack');
    expect(encounter.log).toEqual([]);
  });

  it("powers: unknown, or not the user's", () => {
    const encounter = start();
    rejected(encounter, { type: 'use-power', actor: EHLRIC, power: 'haste' }, 'power/unknown');
    rejected(
      encounter,
      { type: 'use-power', actor: GIANT, power: 'battle-focus' },
      'power/unknown',
    );
    rejected(
      encounter,
      { type: 'use-power', actor: 'squall', power: 'battle-focus' },
      'actor/unknown',
    );
  });

  it('commands that are not FFVIII commands, and dice that do not fit', () => {
    const encounter = start();
    rejected(encounter, { type: 'teleport', actor: EHLRIC }, 'command/invalid');
    rejected(encounter, { type: 'wait', actor: EHLRIC, shots: 0 }, 'command/invalid');
    rejected(encounter, { type: 'attack', actor: EHLRIC }, 'command/invalid');
    rejected(encounter, { type: 'begin-round' }, 'dice/entered-out-of-range', {
      entered: { 'initiative:ehlric': [11] },
    });
    rejected(encounter, { type: 'begin-round' }, 'dice/entered-unused', {
      entered: { 'initiative:squall': [5] },
    });
  });
});

describe('commands refused during a round', () => {
  it('another round while this one is played', () => {
    rejected(shot16(), { type: 'begin-round' }, 'round/in-progress');
  });

  it('"The players are responsible for remembering when their characters can act": not your shot', () => {
    const encounter = shot16();
    const error = rejected(
      encounter,
      { type: 'attack', actor: GIANT, target: EHLRIC },
      'action/not-your-shot',
    );
    expect(error.message).toBe('it is shot 16; Iron Giant acts on shot 12');
    rejected(encounter, { type: 'pass', actor: GIANT }, 'action/not-your-shot');
    rejected(encounter, { type: 'flee', actor: GIANT }, 'action/not-your-shot');
  });

  it('who and what: unknown actor, unknown target, oneself, an unknown weapon, a Guardian Force not junctioned', () => {
    const encounter = shot16();
    rejected(encounter, { ...staff, actor: 'squall' }, 'actor/unknown');
    rejected(encounter, { ...staff, target: 'squall' }, 'target/unknown');
    rejected(encounter, { ...staff, target: EHLRIC }, 'target/self');
    rejected(encounter, { ...staff, weapon: 'gunblade' }, 'weapon/unknown');
    rejected(
      encounter,
      { type: 'summon', actor: EHLRIC, gf: 'shiva', target: GIANT },
      'gf/unknown',
    );
    rejected(encounter, { type: 'sense', actor: EHLRIC, target: 'squall' }, 'target/unknown');
    rejected(
      encounter,
      { type: 'draw', actor: EHLRIC, target: EHLRIC, spell: 'thunder' },
      'target/self',
    );
    rejected(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'cure', target: 'squall' },
      'target/unknown',
    );
    rejected(encounter, { type: 'complete', actor: EHLRIC }, 'action/nothing-carried');
    rejected(
      encounter,
      { type: 'gm-set', target: 'squall', resource: 'hp', value: 1 },
      'gm/unknown-combatant',
    );
  });

  it('"There is no Shot 0": waiting past shot 1 is refused', () => {
    const encounter = shot16();
    const error = rejected(
      encounter,
      { type: 'wait', actor: EHLRIC, shots: 16 },
      'action/wait-too-long',
    );
    expect(error.message).toContain('at most 15 shots');
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 15 });
  });

  it('the GM cannot set a shot the clock has already passed: it is clamped to the shot being played', () => {
    const encounter = shot16();
    const events = run(encounter, { type: 'gm-clock', target: GIANT, value: 17 });
    expect(events[0]).toMatchObject({
      type: 'gm-set',
      resource: 'shots',
      value: 16,
      requested: 17,
    });
    expect(who(encounter, GIANT).shot).toBe(16);
  });

  it('"Whenever a character or monster is attacked, they have the option to dodge": nothing else happens until the target answers, and only the target answers', () => {
    const encounter = shot16();
    run(encounter, staff);
    expect(encounter.state.phase).toBe('dodge');
    rejected(encounter, staff, 'action/awaiting-dodge');
    rejected(encounter, { type: 'attack', actor: GIANT, target: EHLRIC }, 'action/awaiting-dodge');
    rejected(encounter, { type: 'begin-round' }, 'action/awaiting-dodge');
    rejected(encounter, { type: 'pass', actor: EHLRIC }, 'action/awaiting-dodge');
    rejected(encounter, { type: 'dodge', actor: EHLRIC }, 'action/not-your-turn');
    rejected(encounter, { type: 'take-it', actor: 'squall' }, 'action/not-your-turn');
    expect(encounter.legalActions().map((a) => a.command)).toEqual([
      { type: 'dodge', actor: GIANT },
      { type: 'take-it', actor: GIANT },
    ]);
  });

  it('the dice of an attack its target may dodge are rolled on the answer, not on the declaration', () => {
    const encounter = shot16();
    rejected(encounter, staff, 'dice/entered-unused', {
      entered: { 'attack:iron-giant': rollOf(-4) },
    });
    run(encounter, staff);
    rejected(encounter, { type: 'take-it', actor: GIANT }, 'dice/entered-too-few', {
      entered: { 'attack:iron-giant': [6] },
    });
    const events = run(
      encounter,
      { type: 'take-it', actor: GIANT },
      { 'attack:iron-giant': rollOf(-4) },
    );
    expect(types(events)).toContain('check-rolled');
  });

  it('a target brought to 0 HP cannot be attacked again on that shot, though it still acts', () => {
    const encounter = start(ironGiantWith((s) => (sheetOf(s, GIANT).hp = 1)));
    beginRound(encounter);
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 4 });
    run(encounter, { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'pet' });
    run(encounter, { type: 'take-it', actor: GIANT }, { 'attack:iron-giant': rollOf(0) });
    expect(who(encounter, GIANT).hp).toBe(0);
    expect(encounter.state.shot).toBe(12);
    run(encounter, { type: 'gm-clock', target: EHLRIC, value: 12 });
    rejected(encounter, staff, 'target/out');
    rejected(
      encounter,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'cure' },
      'target/out',
    );
  });
});

describe('out of the fight, and after the battle', () => {
  it('one who fled acts no more and cannot be targeted', () => {
    const encounter = start(twoGiants());
    beginRound(encounter, TWO_GIANTS_INITIATIVE);
    run(encounter, { type: 'pass', actor: EHLRIC });
    const fled = run(encounter, { type: 'flee', actor: GIANT });
    expect(types(fled)).toContain('fled');
    expect(encounter.outcome().over).toBe(false);
    rejected(encounter, { type: 'pass', actor: GIANT }, 'actor/out');
    expect(encounter.state.shot).toBe(8);
    rejected(encounter, { type: 'attack', actor: GIANT2, target: GIANT }, 'target/out');
    run(encounter, { type: 'pass', actor: GIANT2 });
    expect(encounter.state.phase).toBe('initiative');
    rejected(encounter, { type: 'use-power', actor: GIANT, power: 'battle-focus' }, 'actor/out');
    // It rolls no initiative: an entered d10 for it is refused as unused.
    rejected(encounter, { type: 'begin-round' }, 'dice/entered-unused', {
      entered: initiative({ [EHLRIC]: 8, [GIANT]: 9, [GIANT2]: 5 }),
    });
    beginRound(encounter, initiative({ [EHLRIC]: 8, [GIANT2]: 5 }));
    rejected(encounter, staff, 'target/out');
  });

  it('a carried summon whose target fell asks for another target', () => {
    const encounter = start(twoGiants());
    beginRound(encounter, TWO_GIANTS_INITIATIVE);
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 14 });
    run(encounter, { type: 'pass', actor: GIANT });
    run(encounter, { type: 'pass', actor: GIANT2 });
    run(encounter, { type: 'summon', actor: EHLRIC, gf: 'infernus', target: GIANT });
    expect(encounter.state.phase).toBe('initiative');
    run(encounter, { type: 'gm-set', target: GIANT, resource: 'hp', value: 0 });
    expect(who(encounter, GIANT).down).toBe(true);
    beginRound(encounter, initiative({ [EHLRIC]: 10, [GIANT2]: 1 }));
    rejected(encounter, { type: 'complete', actor: EHLRIC }, 'target/out');
    rejected(encounter, { type: 'complete', actor: EHLRIC, target: EHLRIC }, 'target/out');
    rejected(encounter, { type: 'complete', actor: EHLRIC, target: 'squall' }, 'target/unknown');
    const offered = encounter.legalActions().map((a) => a.command);
    expect(offered).toContainEqual({ type: 'complete', actor: EHLRIC, target: GIANT2 });
    const events = run(encounter, { type: 'complete', actor: EHLRIC, target: GIANT2 });
    expect(types(events)).toContain('attack-declared');
    expect(encounter.state.pending).toMatchObject({ target: GIANT2 });
  });

  it('"until one side or another is defeated or runs away": after the battle, every command is refused with battle/over', () => {
    const encounter = shot16();
    const events = run(encounter, { type: 'flee', actor: EHLRIC });
    expect(events.at(-1)).toMatchObject({ type: 'battle-ended', winner: 'giant' });
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'giant' });
    expect(encounter.legalActions()).toEqual([]);
    for (const command of [
      { type: 'begin-round' },
      { type: 'attack', actor: GIANT, target: EHLRIC },
      { type: 'pass', actor: GIANT },
      { type: 'dodge', actor: GIANT },
      { type: 'use-power', actor: EHLRIC, power: 'battle-focus' },
      { type: 'gm-set', target: EHLRIC, resource: 'hp', value: 35 },
    ])
      rejected(encounter, command, 'battle/over');
  });
});

describe('setups the rules refuse', () => {
  it('names nobody defined, or a combatant twice', () => {
    const base = ironGiant();
    const cases: [string, (s: FfviiiSetup) => void, string][] = [
      ['spell', (s) => (sheetOf(s, EHLRIC).spellMatrix.ultima = 1), "ehlric: no spell 'ultima'"],
      [
        'shard',
        (s) => (sheetOf(s, GIANT).spellshards = ['ultima']),
        "iron-giant: no spell 'ultima'",
      ],
      ['item', (s) => (sheetOf(s, EHLRIC).items.elixir = 1), "ehlric: no item 'elixir'"],
      [
        'gf',
        (s) => (sheetOf(s, EHLRIC).guardianForces = [{ gf: 'shiva', compatibility: 1 }]),
        "ehlric: no Guardian Force 'shiva'",
      ],
      ['power', (s) => (sheetOf(s, EHLRIC).powers = ['haste']), "ehlric: no power 'haste'"],
      [
        'sight',
        (s) => (s.blockedSight = [[EHLRIC, 'squall']]),
        "blockedSight: nobody called 'squall'",
      ],
      [
        'twice',
        (s) => s.sides[1]!.combatants.push(structuredClone(sheetOf(s, GIANT))),
        "two combatants are called 'iron-giant'",
      ],
    ];
    for (const [name, change, message] of cases) {
      const setup = structuredClone(base);
      change(setup);
      expect(() => start(setup), name).toThrow(message);
    }
    expect(() => start({ ...base, sides: [base.sides[0]] })).toThrow('setup/invalid');
  });
});
