/**
 * Status Conditions and the Status Phase: "Most Status Conditions only have a limited duration
 * ... called Timers"; Poison "decreases a character's Hit Points over time"; Sleep, Protect,
 * Haste; infinite Timers; the GM's hand.
 */
import { describe, expect, it } from 'vitest';
import type { FfrpgSetupInput } from '../../../src/rulesets/ffrpg/index.js';
import {
  beginRound,
  d100,
  hp,
  initiative,
  ofType,
  only,
  PLAYGUIDE_INITIATIVE,
  passRound,
  quietRound,
  rejected,
  run,
  sheet,
  start,
  starterSetup,
  statusesOf,
  types,
  whoseTurn,
} from './battle-helpers.js';
import { windCave } from './fixtures.js';

/** The fixture with more Status Conditions: Regen, Haste, Slow, Shell, Blind, Petrify. */
function withStatuses(): FfrpgSetupInput {
  const setup = windCave();
  setup.statuses = {
    ...setup.statuses,
    regen: {
      name: 'Regen',
      polarity: 'positive',
      timer: 4,
      effects: [{ kind: 'status-phase-heal', percentOfMaxHp: 10 }],
    },
    haste: {
      name: 'Haste',
      polarity: 'positive',
      effects: [{ kind: 'initiative-percent', percent: 50 }],
    },
    slow: {
      name: 'Slow',
      polarity: 'negative',
      effects: [{ kind: 'initiative-percent', percent: -50 }],
    },
    shell: {
      name: 'Shell',
      polarity: 'positive',
      timer: 6,
      effects: [{ kind: 'damage-taken-percent', damage: 'magical', percent: -50 }],
    },
    blind: {
      name: 'Blind',
      polarity: 'negative',
      effects: [{ kind: 'stat-bonus', stat: 'acc', amount: -30 }],
    },
    petrify: {
      name: 'Petrify',
      polarity: 'negative',
      timer: 'infinite',
      effects: [{ kind: 'cannot-act' }, { kind: 'incapacitated' }],
    },
  };
  return setup;
}

describe('Timers: "the phrase \'inflicting the Status Condition Sleep (6)\', for instance, has a Timer of 6"', () => {
  it('count down by one in each Status Phase, at the end of the round', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'hiro', status: 'protect', timer: 3 });
    expect(statusesOf(encounter, 'hiro')).toEqual([{ status: 'protect', timer: 3 }]);
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    // Not during the round.
    expect(statusesOf(encounter, 'hiro')).toEqual([{ status: 'protect', timer: 3 }]);
    const end = passRound(encounter);
    expect(types(end).slice(-2)).toEqual(['status-timers-counted', 'round-ended']);
    expect(only(end, 'status-timers-counted')).toEqual({ type: 'status-timers-counted', round: 1 });
    expect(statusesOf(encounter, 'hiro')).toEqual([{ status: 'protect', timer: 2 }]);
    quietRound(encounter);
    expect(statusesOf(encounter, 'hiro')).toEqual([{ status: 'protect', timer: 1 }]);
  });

  it('expire when they reach 0', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'hiro', status: 'protect', timer: 2 });
    const first = quietRound(encounter);
    expect(ofType(first, 'status-ended')).toHaveLength(0);
    const second = quietRound(encounter);
    expect(only(second, 'status-ended')).toEqual({
      type: 'status-ended',
      target: 'hiro',
      status: 'protect',
      reason: 'expired',
    });
    expect(types(second).slice(-3)).toEqual([
      'status-timers-counted',
      'status-ended',
      'round-ended',
    ]);
    expect(statusesOf(encounter, 'hiro')).toEqual([]);
  });

  it('Sleep (6) lasts six Status Phases', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'heket', status: 'sleep', timer: 6 });
    for (let round = 1; round <= 5; round++) {
      quietRound(encounter);
      expect(statusesOf(encounter, 'heket')).toEqual([{ status: 'sleep', timer: 6 - round }]);
    }
    const sixth = quietRound(encounter);
    expect(only(sixth, 'status-ended').reason).toBe('expired');
  });

  it('a status without a Timer of its own takes the usual one from its definition', () => {
    const encounter = start();
    const events = run(encounter, { type: 'gm-status', target: 'heket', status: 'poison' });
    expect(only(events, 'status-inflicted').timer).toBe(4);
    const setup = windCave();
    sheet(setup, 'heket').statuses = [{ status: 'protect' }, { status: 'poison', timer: 2 }];
    expect(start(setup).state.combatants.heket?.statuses).toEqual([
      { status: 'protect', timer: 6 },
      { status: 'poison', timer: 2 },
    ]);
  });

  it('"if \'(∞)\' appears, the effect has an unlimited Timer"', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'hiro', status: 'protect', timer: 'infinite' });
    for (let round = 0; round < 8; round++) {
      const events = quietRound(encounter);
      expect(ofType(events, 'status-ended')).toHaveLength(0);
    }
    expect(statusesOf(encounter, 'hiro')).toEqual([{ status: 'protect', timer: 'infinite' }]);
    // A status defined as (∞) is unlimited unless the effect says otherwise.
    const petrified = start(withStatuses());
    expect(
      only(
        run(petrified, { type: 'gm-status', target: 'hiro', status: 'petrify' }),
        'status-inflicted',
      ).timer,
    ).toBe('infinite');
  });

  it("every combatant's Timers count down together", () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'hiro', status: 'protect', timer: 1 });
    run(encounter, { type: 'gm-status', target: 'heket', status: 'protect', timer: 1 });
    run(encounter, { type: 'gm-status', target: 'mint', status: 'protect', timer: 2 });
    const events = quietRound(encounter);
    expect(ofType(events, 'status-ended').map((e) => e.target)).toEqual(['hiro', 'heket']);
    expect(statusesOf(encounter, 'mint')).toEqual([{ status: 'protect', timer: 1 }]);
  });
});

describe('the Status Phase: Poison and Regen', () => {
  it('Poison "decreases a character\'s Hit Points over time": 10% of maximum HP each round', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'heket', status: 'poison', timer: 2 });
    const first = quietRound(encounter);
    expect(only(first, 'damage-dealt')).toEqual({
      type: 'damage-dealt',
      source: 'Poison',
      target: 'heket',
      roll: null,
      amount: 30,
      absorbed: false,
      hpAfter: 270,
      breakdown: 'Poison: 10% of 300 max HP = 30',
    });
    // Poison (2) acts in two Status Phases, then ends.
    const second = quietRound(encounter);
    expect(only(second, 'damage-dealt').hpAfter).toBe(240);
    expect(only(second, 'status-ended').reason).toBe('expired');
    const third = quietRound(encounter);
    expect(ofType(third, 'damage-dealt')).toHaveLength(0);
    expect(hp(encounter, 'heket')).toBe(240);
  });

  it('Poison acts before Timers count down and does not wake a sleeper', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'heket', status: 'sleep' });
    run(encounter, { type: 'gm-status', target: 'heket', status: 'poison', timer: 1 });
    const events = quietRound(encounter);
    expect(types(events).slice(-5)).toEqual([
      'turn-skipped',
      'damage-dealt',
      'status-timers-counted',
      'status-ended',
      'round-ended',
    ]);
    expect(statusesOf(encounter, 'heket')).toEqual([{ status: 'sleep', timer: 3 }]);
  });

  it('Poison always takes at least 1 HP', () => {
    const setup = windCave();
    sheet(setup, 'hiro').stats.hp = 5;
    sheet(setup, 'hiro').statuses = [{ status: 'poison' }];
    const encounter = start(setup);
    const events = quietRound(encounter);
    expect(only(events, 'damage-dealt')).toMatchObject({ amount: 1, hpAfter: 4 });
  });

  it('Poison can knock out, ending the battle after the Status Phase', () => {
    const setup = windCave();
    sheet(setup, 'heket').hp = 25;
    sheet(setup, 'heket').statuses = [{ status: 'poison' }, { status: 'protect' }];
    const encounter = start(setup);
    const events = quietRound(encounter);
    expect(types(events).slice(-8)).toEqual([
      'damage-dealt',
      'knocked-out',
      'status-ended',
      'status-ended',
      'status-timers-counted',
      'round-ended',
      'battle-ended',
      'rewards-awarded',
    ]);
    expect(ofType(events, 'status-ended').map((e) => [e.status, e.reason])).toEqual([
      ['poison', 'knocked-out'],
      ['protect', 'knocked-out'],
    ]);
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
  });

  it('Regen heals 10% of maximum HP each Status Phase, never above the maximum', () => {
    const setup = withStatuses();
    sheet(setup, 'hiro').hp = 30;
    sheet(setup, 'hiro').statuses = [{ status: 'regen' }];
    const encounter = start(setup);
    const events = quietRound(encounter);
    expect(only(events, 'healed')).toEqual({
      type: 'healed',
      source: 'Regen',
      target: 'hiro',
      roll: null,
      amount: 6,
      hpAfter: 36,
    });
    run(encounter, { type: 'gm-set', target: 'hiro', resource: 'hp', value: 58 });
    quietRound(encounter);
    expect(hp(encounter, 'hiro')).toBe(60);
  });

  it('Regen reports the HP it restored when it tops a combatant up', () => {
    const setup = withStatuses();
    sheet(setup, 'hiro').hp = 58;
    sheet(setup, 'hiro').statuses = [{ status: 'regen' }];
    const encounter = start(setup);
    const events = quietRound(encounter);
    expect(only(events, 'healed')).toMatchObject({ hpAfter: 60, amount: 2 });
  });

  it('the knocked-out neither suffer Poison nor enjoy Regen', () => {
    const setup = withStatuses();
    const encounter = start(setup);
    run(encounter, { type: 'gm-set', target: 'hiro', resource: 'hp', value: 0 });
    run(encounter, { type: 'gm-status', target: 'hiro', status: 'regen' });
    const events = quietRound(encounter, initiative({ haze: 1, mint: 1, heket: 1 }));
    expect(ofType(events, 'healed')).toHaveLength(0);
    expect(hp(encounter, 'hiro')).toBe(0);
  });

  it("works with the starter content's Poison and Regen", () => {
    const setup = starterSetup();
    const encounter = start(setup);
    run(encounter, { type: 'gm-status', target: 'heket', status: 'poison' });
    run(encounter, { type: 'gm-set', target: 'hiro', resource: 'hp', value: 10 });
    run(encounter, { type: 'gm-status', target: 'hiro', status: 'regen' });
    const events = quietRound(encounter);
    const heketMax = setup.sides[1]!.combatants[0]!.stats.hp;
    const hiroMax = setup.sides[0]!.combatants[0]!.stats.hp;
    expect(only(events, 'damage-dealt')).toMatchObject({
      target: 'heket',
      amount: Math.floor(heketMax / 10),
    });
    expect(only(events, 'healed')).toMatchObject({
      target: 'hiro',
      hpAfter: 10 + Math.floor(hiroMax / 10),
    });
  });
});

describe('Sleep: cannot act, ends on damage', () => {
  it("skips the sleeper's turn", () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'haze', status: 'sleep' });
    beginRound(encounter);
    const events = run(encounter, { type: 'pass', actor: 'hiro' });
    expect(types(events)).toEqual(['turn-ended', 'turn-skipped', 'turn-began']);
    expect(only(events, 'turn-skipped')).toEqual({
      type: 'turn-skipped',
      cursor: 1,
      actor: 'haze',
      reason: 'Sleep',
    });
    expect(whoseTurn(encounter)).toBe('mint');
    rejected(encounter, { type: 'pass', actor: 'haze' }, 'action/not-your-turn');
  });

  it('a sleeper first in the countdown is skipped by the Initiative Phase itself', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'hiro', status: 'sleep' });
    const events = beginRound(encounter);
    expect(types(events)).toEqual(['round-began', 'turn-skipped', 'turn-began']);
    expect(whoseTurn(encounter)).toBe('haze');
  });

  it('ends when the sleeper takes damage; the sleeper acts again next round', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'heket', status: 'sleep' });
    beginRound(encounter);
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(28), 'damage:heket': [10] },
    );
    expect(types(events).slice(0, 3)).toEqual(['attack-made', 'damage-dealt', 'status-ended']);
    expect(only(events, 'status-ended')).toEqual({
      type: 'status-ended',
      target: 'heket',
      status: 'sleep',
      reason: 'damage',
    });
    expect(statusesOf(encounter, 'heket')).toEqual([]);
    // Awake within the round: its turn at 12 is not skipped.
    run(encounter, { type: 'pass', actor: 'haze' });
    run(encounter, { type: 'pass', actor: 'mint' });
    expect(whoseTurn(encounter)).toBe('heket');
  });

  it('does not end on a miss', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'heket', status: 'sleep' });
    beginRound(encounter);
    run(encounter, { type: 'attack', actor: 'hiro', target: 'heket' }, { 'hit:heket': d100(80) });
    expect(statusesOf(encounter, 'heket')).toEqual([{ status: 'sleep', timer: 4 }]);
    const rest = passRound(encounter);
    expect(ofType(rest, 'turn-skipped').map((e) => e.actor)).toEqual(['heket']);
  });

  it('a sleeper whose Sleep expires acts again', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'heket', status: 'sleep', timer: 1 });
    const first = quietRound(encounter);
    expect(ofType(first, 'turn-skipped').map((e) => e.actor)).toEqual(['heket']);
    expect(only(first, 'status-ended').reason).toBe('expired');
    const second = quietRound(encounter);
    expect(ofType(second, 'turn-skipped')).toHaveLength(0);
  });

  it('from the starter content: Sleep (6) and the Sleep spell', () => {
    const encounter = start(starterSetup());
    const events = run(encounter, { type: 'gm-status', target: 'heket', status: 'sleep' });
    expect(only(events, 'status-inflicted').timer).toBe(6);
    const round = quietRound(encounter);
    expect(ofType(round, 'turn-skipped').map((e) => e.actor)).toEqual(['heket']);
  });
});

describe('Barriers: Protect and Shell', () => {
  it('Protect halves Physical damage after ARM: 30 - ARM 10 = 20 -50% = 10', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'heket', status: 'protect' });
    beginRound(encounter);
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(28), 'damage:heket': [10] },
    );
    expect(only(events, 'damage-dealt')).toMatchObject({
      amount: 10,
      hpAfter: 290,
      breakdown: '30 - ARM 10 = 20 -50% (Protect) = 10',
    });
  });

  it('Protect does nothing against Magical damage; Shell does', () => {
    const setup = withStatuses();
    sheet(setup, 'hiro').weapon = {
      name: 'Magic Rifle',
      damage: '2*AGI + d12',
      skill: 'Guns',
      damageType: 'magical',
    };
    const protect = start(setup);
    run(protect, { type: 'gm-status', target: 'heket', status: 'protect' });
    beginRound(protect);
    const unchanged = run(
      protect,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(28), 'damage:heket': [10] },
    );
    expect(only(unchanged, 'damage-dealt')).toMatchObject({
      amount: 25,
      breakdown: '30 - M. ARM 5 = 25',
    });
    const shell = start(setup);
    run(shell, { type: 'gm-status', target: 'heket', status: 'shell' });
    beginRound(shell);
    const halved = run(
      shell,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(28), 'damage:heket': [10] },
    );
    expect(only(halved, 'damage-dealt')).toMatchObject({
      amount: 12,
      breakdown: '30 - M. ARM 5 = 25 -50% (Shell) = 12',
    });
  });

  it('Protect from the starter content, cast by Mint', () => {
    const setup = starterSetup();
    const encounter = start(setup);
    beginRound(encounter, initiative({ hiro: 1, haze: 1, mint: 10, heket: 1 }));
    const events = run(encounter, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'protect-spell',
      target: 'hiro',
    });
    expect(only(events, 'status-inflicted')).toEqual({
      type: 'status-inflicted',
      target: 'hiro',
      status: 'protect',
      timer: 6,
    });
  });
});

describe('other Status Conditions', () => {
  it('Haste raises Initiative by 50%, Slow lowers it, rounding down', () => {
    const setup = withStatuses();
    sheet(setup, 'hiro').statuses = [{ status: 'haste' }];
    sheet(setup, 'heket').statuses = [{ status: 'slow' }];
    const encounter = start(setup);
    const began = only(beginRound(encounter, PLAYGUIDE_INITIATIVE), 'round-began');
    const byId = Object.fromEntries(began.initiative.map((i) => [i.id, i]));
    expect(byId.hiro?.roll.total).toBe(15);
    expect(byId.hiro?.initiative).toBe(22); // 15 x 150% = 22.5
    expect(byId.heket?.initiative).toBe(6); // 12 x 50%
    expect(began.timeline.map((e) => e.id)).toEqual(['hiro', 'haze', 'mint', 'heket']);
    expect(began.timeline.at(-1)?.count).toBe(6);
  });

  it('a status can change a Combat Statistic: Blind (ACC -30) lowers the CoS to hit', () => {
    const setup = withStatuses();
    sheet(setup, 'hiro').statuses = [{ status: 'blind' }];
    const encounter = start(setup);
    beginRound(encounter);
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(41) },
    );
    expect(only(events, 'attack-made').check).toMatchObject({
      cos: 40,
      formula: 'ACC 12 + Guns 50 - EVA 22',
      success: false,
    });
  });

  it('being knocked out ends every Status Condition', () => {
    const setup = windCave();
    sheet(setup, 'heket').hp = 5;
    sheet(setup, 'heket').statuses = [{ status: 'poison' }, { status: 'protect' }];
    setup.sides[1]!.combatants.push({
      ...structuredClone(sheet(setup, 'heket')),
      id: 'heket-2',
      name: 'Heket 2',
      hp: 300,
      statuses: [],
    });
    const encounter = start(setup);
    beginRound(encounter, { ...PLAYGUIDE_INITIATIVE, 'initiative:heket-2': [1] });
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(28), 'damage:heket': [10] },
    );
    expect(types(events).slice(0, 5)).toEqual([
      'attack-made',
      'damage-dealt',
      'knocked-out',
      'status-ended',
      'status-ended',
    ]);
    expect(ofType(events, 'status-ended').every((e) => e.reason === 'knocked-out')).toBe(true);
    expect(statusesOf(encounter, 'heket')).toEqual([]);
    expect(encounter.state.phase).toBe('action');
  });

  it('a Petrified (incapacitated) side cannot fight on: the battle ends at the next Initiative', () => {
    const encounter = start(withStatuses());
    run(encounter, { type: 'gm-status', target: 'heket', status: 'petrify' });
    const events = run(encounter, { type: 'begin-round' }, PLAYGUIDE_INITIATIVE);
    expect(types(events)).toEqual(['round-began', 'battle-ended', 'rewards-awarded']);
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
  });

  it('the GM petrifying the last enemy mid-round ends the battle at once', () => {
    const encounter = start(withStatuses());
    beginRound(encounter);
    run(encounter, { type: 'gm-status', target: 'heket', status: 'petrify' });
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
  });
});

describe("the GM's hand: gm-status", () => {
  it('adds a status at any time, with a Timer or the usual one, and never moves the countdown', () => {
    const encounter = start();
    beginRound(encounter);
    const added = run(encounter, {
      type: 'gm-status',
      target: 'mint',
      status: 'protect',
      timer: 3,
    });
    expect(added).toEqual([
      { type: 'status-inflicted', target: 'mint', status: 'protect', timer: 3 },
    ]);
    expect(whoseTurn(encounter)).toBe('hiro');
    expect(statusesOf(encounter, 'mint')).toEqual([{ status: 'protect', timer: 3 }]);
  });

  it('removes a status ("cured")', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'mint', status: 'poison' });
    const removed = run(encounter, {
      type: 'gm-status',
      target: 'mint',
      status: 'poison',
      remove: true,
    });
    expect(removed).toEqual([
      { type: 'status-ended', target: 'mint', status: 'poison', reason: 'cured' },
    ]);
    expect(statusesOf(encounter, 'mint')).toEqual([]);
  });

  it('rejects unknown statuses and targets, and removing what is not there', () => {
    const encounter = start();
    const unknown = rejected(
      encounter,
      { type: 'gm-status', target: 'mint', status: 'zombie' },
      'gm/unknown-status',
    );
    expect(unknown.message).toContain('poison, sleep, protect');
    rejected(
      encounter,
      { type: 'gm-status', target: 'moogle', status: 'poison' },
      'gm/unknown-combatant',
    );
    rejected(
      encounter,
      { type: 'gm-status', target: 'mint', status: 'poison', remove: true },
      'gm/no-such-status',
    );
    rejected(
      encounter,
      { type: 'gm-status', target: 'mint', status: 'poison', timer: 0 },
      'command/invalid',
    );
    rejected(
      encounter,
      { type: 'gm-status', target: 'mint', status: 'poison', timer: 1000 },
      'command/invalid',
    );
  });
});
