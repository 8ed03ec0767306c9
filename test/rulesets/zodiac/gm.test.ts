/** The GM's hand in ZODIAC: the shared GM commands decided in Speed Points and ticks. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../../src/content/index.js';
import { readEncounterFile } from '../../../src/encounters/file.js';
import { type AnyRuleset, gm, loadEncounter } from '../../../src/engine/index.js';
import { SYSTEMS } from '../../../src/rulesets/index.js';
import {
  STARTER_CONTENT_DIR,
  type ZodiacSetup,
  zodiac,
  zodiacKinds,
  zodiacSystem,
} from '../../../src/rulesets/zodiac/index.js';
import {
  attack,
  begin,
  duel,
  hp,
  keef,
  ofType,
  ogre,
  only,
  rejected,
  run,
  snapshot,
  sp,
  start,
  statuses,
  whoseTurn,
} from './helpers.js';

const set = (target: string, resource: string, value: number, extra: object = {}) => ({
  type: 'gm-set',
  target,
  resource,
  value,
  ...extra,
});

describe('gm-set: HP, MP, SP and Potions, current values only', () => {
  it('absolute and relative; held to 0..maximum and said so; the maximum never changes', () => {
    const encounter = start();
    begin(encounter);
    run(encounter, set('ogre', 'hp', -100, { relative: true }));
    expect(hp(encounter, 'ogre')).toBe(900);
    const over = only(run(encounter, set('ogre', 'hp', 5000)), 'resource-set');
    expect(over).toMatchObject({ before: 900, after: 1000, clamped: true });
    expect(encounter.state.combatants.ogre!.maxHp).toBe(1000);
    run(encounter, set('keef', 'mp', -15, { relative: true }));
    expect(encounter.state.combatants.keef!.mp).toBe(25);
    expect(only(run(encounter, set('keef', 'mp', -99)), 'resource-set')).toMatchObject({
      after: 0,
      clamped: true,
    });
    run(encounter, set('keef', 'sp', 40));
    expect(sp(encounter, 'keef')).toBe(40);
    run(encounter, set('keef', 'item', 3, { key: 'potion' }));
    expect(encounter.state.combatants.keef!.items).toMatchObject({ potion: 3 });
    run(encounter, set('keef', 'item', -1, { key: 'potion', relative: true }));
    expect(encounter.state.combatants.keef!.items.potion).toBe(2);
  });

  it('HP to 0 knocks out (Reraise and all); above 0 brings the Unconscious back', () => {
    const encounter = start(duel([keef(), keef({ id: 'kid', name: 'Kid' })]));
    begin(encounter, { keef: 3, kid: 2, ogre: 1 });
    run(encounter, { type: 'gm-status', target: 'kid', status: 'reraise' });
    const events = run(encounter, set('kid', 'hp', 0));
    expect(ofType(events, 'knocked-out')).toHaveLength(1);
    expect(only(events, 'revived')).toMatchObject({ cause: 'Reraise', hp: 40 });
    run(encounter, set('kid', 'hp', 0));
    expect(encounter.state.combatants.kid!.unconscious).toBe(true);
    expect(sp(encounter, 'kid')).toBe(0);
    run(encounter, set('kid', 'hp', 10));
    expect(encounter.state.combatants.kid).toMatchObject({ unconscious: false, hp: 10 });
  });

  it('refuses what it cannot mean, changing nothing', () => {
    const encounter = start();
    begin(encounter);
    rejected(encounter, set('nobody', 'hp', 1), 'gm/unknown-combatant');
    rejected(encounter, set('constructor', 'hp', 1), 'command/reserved-name');
    rejected(encounter, set('keef', 'shots', 1), 'gm/unknown-resource');
    rejected(encounter, set('keef', 'item', 1), 'gm/needs-key');
    rejected(encounter, set('keef', 'item', 1, { key: 'elixir' }), 'gm/unknown-item');
    rejected(encounter, set('keef', 'item', 1, { key: 'toString' }), 'command/reserved-name');
    rejected(encounter, set('keef', 'hp', 1, { key: 'potion' }), 'gm/bad-key');
    run(encounter, { type: 'gm-death', target: 'keef' });
    rejected(encounter, set('keef', 'hp', 50), 'gm/dead');
  });
});

describe('gm-status: a timer in ticks, or ended early', () => {
  it('a timer counts down with the ticks; infinite lasts until cured; removal ends it', () => {
    const encounter = start();
    begin(encounter);
    run(encounter, { type: 'gm-status', target: 'ogre', status: 'poison', timer: 1 });
    expect(encounter.state.combatants.ogre!.statuses).toEqual([
      { status: 'poison', ticks: 1, untilRound: null },
    ]);
    run(encounter, { type: 'defend', actor: 'keef' });
    const tickEnd = run(encounter, { type: 'defend', actor: 'ogre' });
    // One tick: Poison takes its 10% and wears off.
    expect(only(tickEnd, 'damage-dealt')).toMatchObject({ cause: 'Poison', amount: 100 });
    expect(statuses(encounter, 'ogre')).toEqual([]);
    run(encounter, { type: 'gm-status', target: 'ogre', status: 'blind', timer: 'infinite' });
    run(encounter, { type: 'gm-status', target: 'ogre', status: 'blind', remove: true });
    expect(statuses(encounter, 'ogre')).toEqual([]);
    const round = encounter.state.round;
    run(encounter, { type: 'gm-status', target: 'ogre', status: 'death-sentence', timer: 2 });
    expect(encounter.state.combatants.ogre!.statuses[0]).toMatchObject({ untilRound: round + 2 });
  });

  it('refuses an unknown status, a timer Stun cannot have, and ending what is not there', () => {
    const encounter = start();
    begin(encounter);
    rejected(encounter, { type: 'gm-status', target: 'ogre', status: 'doom' }, 'gm/unknown-status');
    rejected(
      encounter,
      { type: 'gm-status', target: 'ogre', status: 'stun', timer: 2 },
      'gm/no-timer',
    );
    rejected(
      encounter,
      { type: 'gm-status', target: 'ogre', status: 'sleep', remove: true },
      'gm/no-such-status',
    );
    rejected(encounter, { type: 'gm-status', target: 'ogre', status: 'sleep' }, 'gm/needs-timer');
  });

  it('a status that takes the turn from whoever is acting passes it; Stun waits for the next', () => {
    const encounter = start();
    begin(encounter);
    expect(whoseTurn(encounter)).toBe('keef');
    run(encounter, { type: 'gm-status', target: 'keef', status: 'stun' });
    expect(whoseTurn(encounter)).toBe('keef');
    const events = run(encounter, { type: 'gm-status', target: 'keef', status: 'sleep', timer: 3 });
    expect(only(events, 'turn-lost')).toMatchObject({ actor: 'keef', reason: 'asleep' });
    // Its next turn is still the one Stun takes.
    expect(statuses(encounter, 'keef')).toEqual(['stun', 'sleep']);
    expect(whoseTurn(encounter)).toBe('ogre');
  });
});

describe('gm-add: a newcomer enters the clock as the rules give Speed Points', () => {
  const newcomer = { ...ogre(), statuses: [], items: {}, techs: [], immunities: [] };

  it('before the battle it rolls its 1d8 with everyone', () => {
    const encounter = start();
    const events = run(encounter, { type: 'gm-add', side: 'monsters', newcomer });
    expect(only(events, 'combatant-joined')).toMatchObject({
      sp: 0,
      roll: null,
      sheet: { id: 'ogre-2', name: 'Ogre 2' },
    });
    const began = begin(encounter, { keef: 3, ogre: 1, 'ogre-2': 4 });
    expect(only(began, 'round-began').gains.map((g) => g.spAfter)).toEqual([23, 12, 15]);
  });

  it('in round 1: Speed + 1d8, and its first turn in the next tick', () => {
    const encounter = start();
    begin(encounter);
    const events = run(
      encounter,
      { type: 'gm-add', side: 'monsters', newcomer, name: 'Grunt' },
      { 'sp:grunt': [5] },
    );
    expect(only(events, 'combatant-joined')).toMatchObject({ sp: 16, sheet: { id: 'grunt' } });
    expect(encounter.state.queue.map((e) => e.id)).toEqual(['keef', 'ogre']);
    attack(encounter, 'keef', 'ogre', 5);
    attack(encounter, 'ogre', 'keef', 5);
    // Tick 2: Keef 15, Grunt 16 SP; the ogre has 4.
    expect(encounter.state.queue.map((e) => e.id)).toEqual(['grunt', 'keef']);
    expect(whoseTurn(encounter)).toBe('grunt');
  });

  it('in a later round: its Speed alone', () => {
    const encounter = start();
    begin(encounter);
    for (let i = 0; i < 10 && encounter.state.round === 1; i++)
      run(encounter, { type: 'defend', actor: whoseTurn(encounter)! });
    expect(encounter.state.round).toBe(2);
    const events = run(encounter, { type: 'gm-add', side: 'monsters', newcomer });
    expect(only(events, 'combatant-joined')).toMatchObject({ sp: 11, roll: null });
  });

  it('from content, as an encounter file builds it; an unknown side is refused', () => {
    const loaded = loadContent([STARTER_CONTENT_DIR], [...zodiacKinds]);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const sheet = zodiacSystem.newcomer(loaded.library, 'ogre');
    if (!sheet.ok) throw new Error(sheet.error.message);
    expect(sheet.value).toMatchObject({ id: 'ogre', name: 'Ogre', weapon: { name: 'Ogre Club' } });
    expect(zodiacSystem.newcomer(loaded.library, 'dragon').ok).toBe(false);
    const encounter = start();
    begin(encounter);
    rejected(encounter, { type: 'gm-add', side: 'dragons', newcomer }, 'gm/unknown-side');
    rejected(
      encounter,
      { type: 'gm-add', side: 'monsters', newcomer: { ...newcomer, techs: ['ultima'] } },
      'gm/unknown-tech',
    );
  });
});

describe('gm-remove, gm-clock and gm-skip', () => {
  it('the last foe removed ends the battle; the one acting removed passes its turn', () => {
    const two = start(duel([keef()], [ogre(), ogre({ id: 'imp', name: 'Imp' })]));
    begin(two, { keef: 3, ogre: 1, imp: 1 });
    run(two, { type: 'gm-remove', target: 'keef', reason: 'fled' });
    expect(two.outcome()).toMatchObject({ over: true, winner: 'monsters' });
    expect(zodiacSystem.view(two.state).combatants[0]).toMatchObject({
      out: true,
      statuses: [{ name: 'Fled', timer: 'Permanent' }],
    });
    const encounter = start(duel([keef()], [ogre(), ogre({ id: 'imp', name: 'Imp' })]));
    begin(encounter, { keef: 3, ogre: 1, imp: 1 });
    attack(encounter, 'keef', 'ogre', 5);
    expect(whoseTurn(encounter)).toBe('ogre');
    const events = run(encounter, { type: 'gm-remove', target: 'ogre' });
    expect(only(events, 'turn-skipped')).toMatchObject({ actor: 'ogre', reason: 'dismissed' });
    expect(whoseTurn(encounter)).toBe('imp');
    rejected(encounter, { type: 'gm-remove', target: 'ogre' }, 'gm/gone');
    rejected(encounter, { type: 'attack', actor: 'imp', target: 'ogre' }, 'action/target-down');
  });

  it('gm-clock sets SP; the one acting left under 8 SP passes its turn without spending', () => {
    const encounter = start();
    begin(encounter);
    run(encounter, { type: 'gm-clock', target: 'ogre', value: 10, relative: true });
    expect(sp(encounter, 'ogre')).toBe(22);
    expect(
      only(run(encounter, { type: 'gm-clock', target: 'ogre', value: -50 }), 'resource-set'),
    ).toMatchObject({ after: 0, clamped: true });
    run(encounter, { type: 'gm-clock', target: 'ogre', value: 12 });
    const events = run(encounter, { type: 'gm-clock', target: 'keef', value: 5 });
    expect(only(events, 'turn-skipped')).toMatchObject({ actor: 'keef' });
    expect(sp(encounter, 'keef')).toBe(5);
    expect(whoseTurn(encounter)).toBe('ogre');
  });

  it('gm-skip: the next turn passes and its 8 SP are spent, now or when it comes', () => {
    const encounter = start();
    begin(encounter);
    run(encounter, { type: 'gm-skip', target: 'ogre' });
    rejected(encounter, { type: 'gm-skip', target: 'ogre' }, 'gm/already-skipping');
    const events = attack(encounter, 'keef', 'ogre', 5);
    expect(only(events, 'turn-lost')).toMatchObject({ actor: 'ogre', reason: 'skipped by the GM' });
    expect(sp(encounter, 'ogre')).toBe(4);
    expect(whoseTurn(encounter)).toBe('keef');
    const now = run(encounter, { type: 'gm-skip', target: 'keef' });
    expect(only(now, 'turn-lost')).toMatchObject({ actor: 'keef', spAfter: 7 });
    expect(encounter.state.round).toBe(2);
  });
});

describe('gm-damage and gm-heal: through the damage pipeline unless raw', () => {
  it('element, Defend, the cap; raw takes none of them', () => {
    const encounter = start(
      duel([keef()], [ogre({ affinities: { fire: 'weakness' } })], { damageCap: 150 }),
    );
    begin(encounter);
    run(encounter, { type: 'defend', actor: 'keef' });
    // The ogre is Weak to Fire: 100 doubled, under the cap of 150.
    expect(
      only(
        run(encounter, { type: 'gm-damage', target: 'ogre', amount: 60, element: 'fire' }),
        'damage-dealt',
      ).amount,
    ).toBe(120);
    expect(
      only(
        run(encounter, { type: 'gm-damage', target: 'ogre', amount: 100, element: 'fire' }),
        'damage-dealt',
      ).amount,
    ).toBe(150);
    // Keef Defends: "all damage dealt to you, regardless of their source, is reduced by half".
    expect(
      only(run(encounter, { type: 'gm-damage', target: 'keef', amount: 100 }), 'damage-dealt')
        .amount,
    ).toBe(50);
    expect(
      only(
        run(encounter, { type: 'gm-damage', target: 'keef', amount: 100, raw: true }),
        'damage-dealt',
      ).amount,
    ).toBe(100);
  });

  it('Barrier halves it without an element, MBarrier with one; Mini takes 50% more', () => {
    const encounter = start();
    begin(encounter);
    run(encounter, { type: 'gm-status', target: 'ogre', status: 'barrier' });
    const plain = run(encounter, { type: 'gm-damage', target: 'ogre', amount: 100 });
    expect(only(plain, 'damage-dealt').amount).toBe(50);
    const ice = run(encounter, { type: 'gm-damage', target: 'ogre', amount: 100, element: 'ice' });
    expect(only(ice, 'damage-dealt').amount).toBe(100);
    run(encounter, { type: 'gm-status', target: 'keef', status: 'mbarrier' });
    run(encounter, { type: 'gm-status', target: 'keef', status: 'mini' });
    const bolt = run(encounter, {
      type: 'gm-damage',
      target: 'keef',
      amount: 100,
      element: 'lightning',
    });
    expect(only(bolt, 'damage-dealt').amount).toBe(75);
  });

  it('dice as gm:<target>, a share of the target HP; enough knocks out and ends the battle', () => {
    const encounter = start();
    begin(encounter);
    const rolled = run(
      encounter,
      { type: 'gm-damage', target: 'ogre', amount: '2d6*10' },
      {
        'gm:ogre': [3, 4],
      },
    );
    expect(only(rolled, 'damage-dealt').amount).toBe(70);
    run(encounter, { type: 'gm-damage', target: 'ogre', amount: { percent: 50, of: 'max-hp' } });
    expect(hp(encounter, 'ogre')).toBe(430);
    run(encounter, { type: 'gm-damage', target: 'ogre', amount: 999 });
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
  });

  it('healing: capped at the maximum; Zombie reverses it unless raw; bad input is refused', () => {
    const encounter = start();
    begin(encounter);
    run(encounter, set('keef', 'hp', 100));
    expect(
      only(run(encounter, { type: 'gm-heal', target: 'keef', amount: 500 }), 'healed').hpAfter,
    ).toBe(400);
    run(encounter, { type: 'gm-status', target: 'keef', status: 'zombie' });
    const reversed = run(encounter, { type: 'gm-heal', target: 'keef', amount: 100 });
    expect(only(reversed, 'damage-dealt')).toMatchObject({ amount: 100, hpAfter: 300 });
    expect(
      only(run(encounter, { type: 'gm-heal', target: 'keef', amount: 50, raw: true }), 'healed')
        .hpAfter,
    ).toBe(350);
    rejected(encounter, { type: 'gm-damage', target: 'ogre', amount: '2q6' }, 'gm/bad-amount');
    rejected(
      encounter,
      { type: 'gm-damage', target: 'ogre', amount: 5, element: 'plasma' },
      'gm/unknown-element',
    );
    run(encounter, set('ogre', 'hp', 0));
    rejected(encounter, { type: 'gm-heal', target: 'ogre', amount: 5 }, 'gm/target-down');
    rejected(encounter, { type: 'gm-skip', target: 'keef' }, 'battle/over');
  });
});

describe('notes, the view, gm death typed, undo and saves', () => {
  it('a note shows with its combatant, and the view has the clock', () => {
    const encounter = start();
    run(encounter, { type: 'gm-note', target: 'ogre', text: 'behind the pillar' });
    begin(encounter);
    const view = zodiacSystem.view(encounter.state);
    expect(view.combatants[1]).toMatchObject({
      notes: ['behind the pillar'],
      clock: { sp: 12, speed: 11 },
    });
    expect(view.clock).toEqual({ phase: 'ticks', round: 1, tick: 1, actor: 'keef' });
    run(encounter, { type: 'gm-note', target: 'ogre', text: '' });
    expect(zodiacSystem.view(encounter.state).combatants[1]!.notes).toEqual([]);
    rejected(encounter, { type: 'gm-note', target: 'ogre', text: '' }, 'gm/no-notes');
  });

  it('gm death <who> is typed through parseGm', () => {
    const encounter = start();
    const parse = zodiacSystem.parseGm!;
    expect(parse(encounter.state, 'gm death ogre')).toEqual({
      ok: true,
      value: { type: 'gm-death', target: 'ogre' },
    });
    expect(parse(encounter.state, 'death Keef')).toMatchObject({
      ok: true,
      value: { target: 'keef' },
    });
    expect(parse(encounter.state, 'death nobody')?.ok).toBe(false);
    expect(parse(encounter.state, 'hp ogre 5')).toBeUndefined();
  });

  it('every GM command is undone and redone exactly, and survives a save', () => {
    const encounter = start();
    begin(encounter);
    const commands = [
      set('ogre', 'hp', -50, { relative: true }),
      set('keef', 'item', 4, { key: 'potion' }),
      { type: 'gm-status', target: 'ogre', status: 'slow', timer: 3 },
      {
        type: 'gm-add',
        side: 'monsters',
        newcomer: { ...ogre(), statuses: [], items: {}, techs: [], immunities: [] },
      },
      { type: 'gm-clock', target: 'ogre-2', value: 30 },
      { type: 'gm-skip', target: 'ogre' },
      { type: 'gm-damage', target: 'ogre', amount: '2d6*10', element: 'fire' },
      { type: 'gm-heal', target: 'keef', amount: 20 },
      { type: 'gm-note', target: 'keef', text: 'concentrating' },
      { type: 'gm-remove', target: 'ogre-2', reason: 'fled' },
    ];
    for (const command of commands) {
      const before = snapshot(encounter);
      const state = JSON.stringify(encounter.state);
      run(encounter, command);
      const after = JSON.stringify(encounter.state);
      encounter.undo();
      expect(JSON.stringify(encounter.state)).toBe(state);
      encounter.redo();
      expect(JSON.stringify(encounter.state)).toBe(after);
      expect(snapshot(encounter)).not.toBe(before);
    }
    const loaded = loadEncounter(JSON.parse(JSON.stringify(encounter.save())), [
      zodiac as unknown as AnyRuleset,
    ]);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.state).toEqual(encounter.state);
  });
});

describe("a d100's 00", () => {
  it('entered as 0 is a natural 100, which always hits', () => {
    const encounter = start(duel([keef()], [ogre({ stats: { ...ogre().stats, evade: 999 } })]));
    begin(encounter);
    const events = run(
      encounter,
      { type: 'attack', actor: 'keef', target: 'ogre' },
      {
        'hit:ogre': [0],
        'damage:ogre': { total: 40 },
      },
    );
    expect(only(events, 'attacked').attack).toMatchObject({
      natural: 100,
      hit: true,
      automatic: true,
      critical: true,
    });
  });
});

describe('GM commands at random, among legal actions', () => {
  it('never throw; a refused one changes nothing; HP, MP and SP stay in range; events replay', () => {
    const who = fc.constantFrom('keef', 'kid', 'ogre', 'ogre-2', 'nobody', '__proto__');
    const gmCommand = fc.oneof(
      fc.record({
        type: fc.constant('gm-set'),
        target: who,
        resource: fc.constantFrom('hp', 'mp', 'sp', 'item', 'ammo'),
        key: fc.option(fc.constantFrom('potion', 'elixir'), { nil: undefined }),
        value: fc.integer({ min: -2000, max: 2000 }),
        relative: fc.boolean(),
      }),
      fc.record({
        type: fc.constant('gm-status'),
        target: who,
        status: fc.constantFrom('poison', 'sleep', 'stun', 'stop', 'unconscious', 'reraise', 'x'),
        timer: fc.option(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant('infinite')), {
          nil: undefined,
        }),
        remove: fc.boolean(),
      }),
      fc.record({
        type: fc.constant('gm-clock'),
        target: who,
        value: fc.integer({ min: -30, max: 30 }),
        relative: fc.boolean(),
      }),
      fc.record({ type: fc.constant('gm-skip'), target: who }),
      fc.record({ type: fc.constant('gm-remove'), target: who }),
      fc.record({
        type: fc.constant('gm-damage'),
        target: who,
        amount: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constantFrom('2d6*10', 'd%', 'bad')),
        element: fc.option(fc.constantFrom('fire', 'ice', 'plasma'), { nil: undefined }),
        raw: fc.boolean(),
      }),
      fc.record({
        type: fc.constant('gm-heal'),
        target: who,
        amount: fc.integer({ min: 0, max: 500 }),
      }),
      fc.record({
        type: fc.constant('gm-add'),
        side: fc.constantFrom('monsters', 'party', 'nobody'),
        newcomer: fc.constant({ ...ogre(), statuses: [], items: {}, techs: [], immunities: [] }),
      }),
    );
    const step = fc.oneof(
      gmCommand,
      fc.nat().map((n) => ({ legal: n })),
    );
    fc.assert(
      fc.property(fc.integer(), fc.array(step, { maxLength: 40 }), (seed, steps) => {
        const encounter = start(duel([keef(), keef({ id: 'kid', name: 'Kid' })]), seed);
        encounter.submit({ type: 'begin-battle' });
        for (const s of steps) {
          let command: unknown = s;
          if ('legal' in s) {
            const actions = encounter.legalActions();
            if (actions.length === 0) continue;
            command = actions[s.legal % actions.length]!.command;
          }
          const before = snapshot(encounter);
          const result = encounter.submit(command);
          if (!result.ok) expect(snapshot(encounter)).toBe(before);
          for (const c of Object.values(encounter.state.combatants)) {
            expect(c.hp).toBeGreaterThanOrEqual(0);
            expect(c.hp).toBeLessThanOrEqual(c.maxHp);
            expect(c.mp).toBeGreaterThanOrEqual(0);
            expect(c.mp).toBeLessThanOrEqual(c.sheet.stats.mp);
            expect(c.sp).toBeGreaterThanOrEqual(0);
          }
        }
        let state = zodiac.initialState(encounter.setup);
        for (const event of encounter.events) state = zodiac.evolve(state, event);
        expect(state).toEqual(encounter.state);
      }),
      { numRuns: 40 },
    );
  });
});

describe('typed as at the table: every example `help gm` shows', () => {
  it('parses and is accepted by the example encounter', () => {
    const loaded = loadContent([STARTER_CONTENT_DIR], [...zodiacKinds]);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const read = readEncounterFile('examples/zodiac-keef-and-the-ogre.yaml', SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    for (const example of zodiacSystem.gm.examples) {
      const encounter = start(read.encounter.setup as ZodiacSetup, 'typed');
      begin(encounter);
      const line = example.replace(/^gm /, '');
      if (line === 'status ogre -poison')
        run(encounter, { type: 'gm-status', target: 'ogre', status: 'poison', timer: 4 });
      const state = encounter.state;
      const own = zodiacSystem.parseGm!(state, example);
      let command: unknown;
      if (own !== undefined) {
        if (!own.ok) throw new Error(own.error.message);
        command = own.value;
      } else {
        const context = {
          combatants: state.order.map((id) => ({ id, name: state.combatants[id]!.sheet.name })),
          sides: state.setup.sides.map((s) => ({ id: s.id, name: s.name })),
          vocabulary: zodiacSystem.gm,
        };
        const parsed = gm.parseGmLine(line, context);
        if (!parsed.ok) throw new Error(`${example}: ${parsed.error.message}`);
        const request = parsed.value;
        if (request.type === 'gm-add') {
          const sheet = zodiacSystem.newcomer(loaded.library, request.content);
          if (!sheet.ok) throw new Error(sheet.error.message);
          const { content: _, ...rest } = request;
          command = { ...rest, newcomer: sheet.value };
        } else command = request;
      }
      const result = encounter.submit(command);
      expect(result.ok, `${example}: ${result.ok ? '' : result.error.message}`).toBe(true);
    }
  });
});
