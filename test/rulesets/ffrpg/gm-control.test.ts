/**
 * The shared GM commands in FFRPG's terms: current HP and MP, Status Conditions, newcomers that
 * roll Initiative and enter the countdown, Initiative moved, turns skipped, damage and healing
 * through the pipeline (the Damage Cap on damage read from the target), notes.
 */
import { describe, expect, it } from 'vitest';
import { loadEncounter } from '../../../src/engine/index.js';
import { ffrpg } from '../../../src/rulesets/ffrpg/index.js';
import { ffrpgSystem } from '../../../src/rulesets/ffrpg/system.js';
import {
  beginRound,
  d100,
  type FfrpgEncounter,
  hp,
  mp,
  ofType,
  only,
  passRound,
  rejected,
  run,
  sheet,
  start,
  starterLibrary,
  starterSetup,
  types,
  whoseTurn,
  windCaveWith,
} from './battle-helpers.js';
import { windCave } from './fixtures.js';

/** The Playguide's order: Hiro 15, Haze 14, Mint 12, the Heket 12. */
function underway(): FfrpgEncounter {
  const encounter = start();
  beginRound(encounter);
  return encounter;
}

function countdown(encounter: FfrpgEncounter): string[] {
  const { timeline, cursor } = encounter.state;
  return timeline.map((e, i) => `${i === cursor ? '>' : ''}${e.id} ${e.count}`);
}

const heketSheet = () => sheet(windCave(), 'heket');

function reloaded(encounter: FfrpgEncounter): FfrpgEncounter {
  const loaded = loadEncounter(JSON.parse(JSON.stringify(encounter.save())), [ffrpg]);
  if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
  return loaded.value as unknown as FfrpgEncounter;
}

describe('gm-set: current HP and MP', () => {
  it('sets absolutely or relatively, clamped to 0..maximum, and says when it clamped', () => {
    const encounter = underway();
    const down = run(encounter, {
      type: 'gm-set',
      target: 'heket',
      resource: 'hp',
      value: -30,
      relative: true,
    });
    expect(down).toEqual([
      {
        type: 'resource-set',
        target: 'heket',
        resource: 'hp',
        value: 270,
        clamped: false,
        revived: false,
      },
    ]);
    run(encounter, { type: 'gm-set', target: 'mint', resource: 'mp', value: -50, relative: true });
    expect(mp(encounter, 'mint')).toBe(0);
    expect(encounter.state.combatants.heket!.sheet.stats.hp).toBe(300);
    expect(whoseTurn(encounter)).toBe('hiro');
  });

  it('0 HP knocks out the one whose turn it is, and the countdown moves on', () => {
    const encounter = underway();
    const events = run(encounter, { type: 'gm-set', target: 'hiro', resource: 'hp', value: 0 });
    expect(types(events)).toEqual(['resource-set', 'knocked-out', 'turn-ended', 'turn-began']);
    expect(whoseTurn(encounter)).toBe('haze');
    const back = run(encounter, { type: 'gm-set', target: 'hiro', resource: 'hp', value: 5 });
    expect(back[0]).toMatchObject({ revived: true });
    expect(encounter.state.combatants.hiro).toMatchObject({ hp: 5, down: false });
  });

  it('refuses a resource FFRPG does not have, a key, and an unknown combatant', () => {
    const encounter = underway();
    rejected(
      encounter,
      { type: 'gm-set', target: 'hiro', resource: 'shots', value: 1 },
      'gm/unknown-resource',
    );
    rejected(
      encounter,
      { type: 'gm-set', target: 'hiro', resource: 'hp', key: 'rifle', value: 1 },
      'gm/bad-key',
    );
    rejected(
      encounter,
      { type: 'gm-set', target: 'constructor', resource: 'hp', value: 1 },
      'command/reserved-name',
    );
  });
});

describe('gm-add: a newcomer rolls Initiative and enters the countdown where it falls', () => {
  it('mid-round, on a count still to come: it acts this round, after those already on its count', () => {
    const encounter = underway();
    const events = run(
      encounter,
      { type: 'gm-add', side: 'enemies', newcomer: heketSheet() },
      // d10 + SPD 6, entered as the total: 12.
      { 'initiative:heket-2': { total: 12 } },
    );
    const joined = only(events, 'combatant-joined');
    expect(joined.combatant).toMatchObject({ id: 'heket-2', side: 'enemies', hp: 300 });
    expect(joined.combatant.sheet.name).toBe('Heket 2');
    expect(joined.initiative?.initiative).toBe(12);
    expect(countdown(encounter)).toEqual([
      '>hiro 15',
      'haze 14',
      'mint 12',
      'heket 12',
      'heket-2 12',
    ]);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    run(encounter, { type: 'pass', actor: 'mint' });
    run(encounter, { type: 'pass', actor: 'heket' });
    expect(whoseTurn(encounter)).toBe('heket-2');
  });

  it('mid-round, on a count already past: it acts from the next round (docs/rulings.md)', () => {
    const encounter = underway();
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    // The countdown is at Mint's 12; the newcomer rolls 16.
    const events = run(
      encounter,
      { type: 'gm-add', side: 'enemies', newcomer: heketSheet(), name: 'Frog' },
      { 'initiative:frog': { total: 16 } },
    );
    expect(only(events, 'combatant-joined')).toMatchObject({ at: null });
    expect(countdown(encounter)).not.toContain('frog 16');
    passRound(encounter);
    const next = only(beginRound(encounter, { 'initiative:frog': [1] }), 'round-began');
    expect(next.initiative.map((i) => i.id)).toContain('frog');
  });

  it('between rounds it just joins, and rolls with everyone; a side with a newcomer standing is not beaten', () => {
    const encounter = start();
    run(encounter, { type: 'gm-add', side: 'enemies', newcomer: heketSheet() });
    expect(encounter.state.order).toEqual(['hiro', 'haze', 'mint', 'heket', 'heket-2']);
    beginRound(encounter, { 'initiative:heket-2': [2] });
    run(encounter, { type: 'gm-set', target: 'heket', resource: 'hp', value: 0 });
    expect(encounter.outcome()).toEqual({ over: false });
    const ended = run(encounter, { type: 'gm-remove', target: 'heket-2', reason: 'fled' });
    expect(types(ended)).toContain('battle-ended');
    // The Heket knocked out pays 1560 XP; the one that fled pays nothing: XP is for
    // "overcoming obstacles" (docs/rulings.md, a fled monster pays no reward).
    expect(encounter.state.rewards?.xp).toBe(1560);
  });

  it('is undone, redone and saved exactly; a second add of the same sheet is numbered again', () => {
    const encounter = underway();
    run(encounter, { type: 'gm-add', side: 'enemies', newcomer: heketSheet() });
    run(encounter, { type: 'gm-add', side: 'enemies', newcomer: heketSheet() });
    expect(encounter.state.order.slice(-2)).toEqual(['heket-2', 'heket-3']);
    const after = JSON.stringify(encounter.state);
    expect(JSON.stringify(reloaded(encounter).state)).toBe(after);
    encounter.undo(2);
    expect(encounter.state.order).toEqual(['hiro', 'haze', 'mint', 'heket']);
    encounter.redo(2);
    expect(JSON.stringify(encounter.state)).toBe(after);
  });

  it('refuses an unknown side, a sheet using what the encounter does not know, and an ended battle', () => {
    const encounter = underway();
    rejected(
      encounter,
      { type: 'gm-add', side: 'moogles', newcomer: heketSheet() },
      'gm/unknown-side',
    );
    rejected(
      encounter,
      { type: 'gm-add', side: 'enemies', newcomer: { ...heketSheet(), abilities: ['ultima'] } },
      'gm/invalid-newcomer',
    );
    run(encounter, { type: 'gm-set', target: 'heket', resource: 'hp', value: 0 });
    rejected(encounter, { type: 'gm-add', side: 'enemies', newcomer: heketSheet() }, 'battle/over');
  });

  it("builds a newcomer from content exactly as an encounter file does (the Heket's weapon inlined)", () => {
    const newcomer = ffrpgSystem.newcomer(starterLibrary(), 'heket');
    if (!newcomer.ok) throw new Error(newcomer.error.message);
    const fromFile = starterSetup().sides[1]!.combatants[0]!;
    expect(newcomer.value).toEqual(fromFile);
    expect(ffrpgSystem.newcomer(starterLibrary(), 'tonberry')).toMatchObject({ ok: false });
  });
});

describe("gm-clock: Initiative on this round's countdown", () => {
  it('moves a combatant later; the one acting now is delayed and the countdown goes on', () => {
    const encounter = underway();
    run(encounter, { type: 'gm-clock', target: 'heket', value: 13 });
    expect(countdown(encounter)).toEqual(['>hiro 15', 'haze 14', 'heket 13', 'mint 12']);
    const delayed = run(encounter, { type: 'gm-clock', target: 'hiro', value: -5, relative: true });
    expect(types(delayed)).toEqual(['initiative-set', 'turn-began']);
    expect(whoseTurn(encounter)).toBe('haze');
    expect(countdown(encounter).at(-1)).toBe('hiro 10');
    expect(
      ffrpgSystem.view(encounter.state).combatants.find((c) => c.id === 'hiro')?.clock,
    ).toEqual({ initiative: 10 });
  });

  it('refuses a count already past, one who has acted, and a clock between rounds', () => {
    const encounter = underway();
    run(encounter, { type: 'pass', actor: 'hiro' });
    rejected(encounter, { type: 'gm-clock', target: 'heket', value: 15 }, 'gm/clock-passed');
    rejected(encounter, { type: 'gm-clock', target: 'hiro', value: 3 }, 'gm/already-acted');
    rejected(encounter, { type: 'gm-clock', target: 'heket', value: -1 }, 'gm/bad-clock');
    rejected(start(), { type: 'gm-clock', target: 'heket', value: 3 }, 'gm/no-countdown');
  });
});

describe('gm-skip', () => {
  it("passes the acting combatant's turn; another's pending turn is taken away", () => {
    const encounter = underway();
    const skipped = run(encounter, { type: 'gm-skip', target: 'hiro' });
    expect(types(skipped)).toEqual(['turn-skipped', 'turn-began']);
    expect(whoseTurn(encounter)).toBe('haze');
    const cancelled = run(encounter, { type: 'gm-skip', target: 'mint' });
    expect(types(cancelled)).toEqual(['turn-cancelled']);
    run(encounter, { type: 'pass', actor: 'haze' });
    expect(whoseTurn(encounter)).toBe('heket');
    rejected(encounter, { type: 'gm-skip', target: 'mint' }, 'gm/no-turn');
  });
});

describe('gm-damage and gm-heal through the damage pipeline', () => {
  it('an element reads the affinity: Ice doubles on the Heket, Air heals it', () => {
    const encounter = underway();
    const ice = only(
      run(encounter, { type: 'gm-damage', target: 'heket', amount: 20, element: 'ice' }),
      'damage-dealt',
    );
    expect(ice).toMatchObject({ source: 'gm', amount: 40, hpAfter: 260 });
    const wind = only(
      run(encounter, { type: 'gm-damage', target: 'heket', amount: 20, element: 'wind' }),
      'damage-dealt',
    );
    expect(wind).toMatchObject({ absorbed: true, hpAfter: 280 });
    rejected(
      encounter,
      { type: 'gm-damage', target: 'heket', amount: 20, element: 'chocobo' },
      'gm/unknown-element',
    );
  });

  it('"50% of the target\'s HP would still only remove 999 HP even if the target had more than 10,000 HP"; raw does not cap', () => {
    const setup = windCave();
    sheet(setup, 'heket').stats = { hp: 12_000, acc: 70, eva: 22, arm: 10, marm: 5 };
    const encounter = start(setup);
    beginRound(encounter);
    const capped = only(
      run(encounter, { type: 'gm-damage', target: 'heket', amount: { percent: 50, of: 'hp' } }),
      'damage-dealt',
    );
    expect(capped).toMatchObject({ amount: 999, hpAfter: 11_001 });
    expect(capped.breakdown).toBe('6000, capped at 999');
    const raw = only(
      run(encounter, {
        type: 'gm-damage',
        target: 'heket',
        amount: { percent: 50, of: 'max-hp' },
        raw: true,
      }),
      'damage-dealt',
    );
    expect(raw).toMatchObject({ amount: 6000, hpAfter: 5001 });
  });

  it('"The same also applies to attacks that damage the target\'s MP": a share of MP damages MP, capped', () => {
    const setup = windCave();
    sheet(setup, 'heket').stats = { hp: 300, mp: 5000, acc: 70, eva: 22, arm: 10, marm: 5 };
    const encounter = start(setup);
    const dealt = only(
      run(encounter, { type: 'gm-damage', target: 'heket', amount: { percent: 50, of: 'mp' } }),
      'damage-dealt',
    );
    expect(dealt).toMatchObject({ amount: 999, mpAfter: 4001, hpAfter: 300 });
  });

  it('dice are rolled as gm:<target> and may be entered; bad dice are an error value', () => {
    const encounter = underway();
    const events = run(
      encounter,
      { type: 'gm-damage', target: 'mint', amount: '2d6' },
      {
        'gm:mint': [3, 4],
      },
    );
    expect(only(events, 'damage-dealt')).toMatchObject({ amount: 7, hpAfter: 43 });
    expect(
      ffrpgSystem.rolls(encounter.state, {
        type: 'gm-damage',
        target: 'mint',
        amount: '2d6',
        raw: false,
      }),
    ).toContainEqual(
      expect.objectContaining({ purpose: 'gm:mint', notation: '2d6', label: '2d6' }),
    );
    rejected(encounter, { type: 'gm-damage', target: 'mint', amount: '2d' }, 'gm/bad-amount');
  });

  it('healing stops at the maximum; it raises the knocked out only raw', () => {
    const encounter = underway();
    run(encounter, { type: 'gm-set', target: 'mint', resource: 'hp', value: 40 });
    const healed = only(run(encounter, { type: 'gm-heal', target: 'mint', amount: 30 }), 'healed');
    expect(healed).toMatchObject({ amount: 10, hpAfter: 50 });
    run(encounter, { type: 'gm-set', target: 'mint', resource: 'hp', value: 0 });
    rejected(encounter, { type: 'gm-heal', target: 'mint', amount: 10 }, 'gm/target-out');
    run(encounter, { type: 'gm-heal', target: 'mint', amount: 10, raw: true });
    expect(encounter.state.combatants.mint).toMatchObject({ hp: 10, down: false });
    expect(hp(encounter, 'mint')).toBe(10);
  });
});

describe('damage read from the target, in content', () => {
  const gravity = {
    gravity: {
      name: 'Gravity',
      type: 'magic',
      target: 'single',
      damage: { share: { percent: 50, of: 'hp' }, damageType: 'magical', ignoresArmor: true },
    },
    'gravity-ex': {
      name: 'Gravity EX',
      type: 'magic',
      target: 'single',
      damage: {
        share: { percent: 50, of: 'max-hp' },
        damageType: 'magical',
        ignoresArmor: true,
        ignoresCap: true,
      },
    },
  };

  it("50% of the Heket's current HP, capped at 999 past 1998 HP; an effect that says so ignores the Cap", () => {
    const setup = windCaveWith(gravity, { mint: ['gravity', 'gravity-ex'] });
    sheet(setup, 'heket').stats = { hp: 5000, acc: 70, eva: 22, arm: 10, marm: 5 };
    sheet(setup, 'heket').hp = 300;
    const encounter = start(setup);
    beginRound(encounter, {
      'initiative:mint': [10],
      'initiative:hiro': [1],
      'initiative:haze': [1],
      'initiative:heket': [1],
    });
    expect(whoseTurn(encounter)).toBe('mint');
    const half = only(
      run(encounter, { type: 'use-ability', actor: 'mint', ability: 'gravity', target: 'heket' }),
      'damage-dealt',
    );
    expect(half).toMatchObject({ amount: 150, roll: null, hpAfter: 150 });
    expect(half.breakdown).toBe('50% of HP: 150');
    run(encounter, { type: 'gm-set', target: 'heket', resource: 'hp', value: 5000 });
    passRound(encounter);
    beginRound(encounter, {
      'initiative:mint': [10],
      'initiative:hiro': [1],
      'initiative:haze': [1],
      'initiative:heket': [1],
    });
    const capped = only(
      run(encounter, { type: 'use-ability', actor: 'mint', ability: 'gravity', target: 'heket' }),
      'damage-dealt',
    );
    expect(capped).toMatchObject({ amount: 999, hpAfter: 4001 });
    passRound(encounter);
    beginRound(encounter, {
      'initiative:mint': [10],
      'initiative:hiro': [1],
      'initiative:haze': [1],
      'initiative:heket': [1],
    });
    const uncapped = only(
      run(encounter, {
        type: 'use-ability',
        actor: 'mint',
        ability: 'gravity-ex',
        target: 'heket',
      }),
      'damage-dealt',
    );
    expect(uncapped).toMatchObject({ amount: 2500, hpAfter: 1501 });
  });

  it('a share and a damage code together are refused when the content loads', () => {
    const setup = windCaveWith({
      bad: { name: 'Bad', type: 'magic', damage: { code: 'd6', share: { percent: 10, of: 'hp' } } },
    });
    expect(ffrpg.parseSetup(setup)).toMatchObject({ ok: false });
  });
});

describe('gm-status and gm-note', () => {
  it('a status with its timer and ended early; notes shown in the view and kept in saves', () => {
    const encounter = underway();
    run(encounter, { type: 'gm-status', target: 'heket', status: 'poison', timer: 2 });
    expect(
      ffrpgSystem.view(encounter.state).combatants.find((c) => c.id === 'heket')?.statuses,
    ).toEqual([{ id: 'poison', name: 'Poison', timer: '2' }]);
    run(encounter, { type: 'gm-status', target: 'heket', status: 'poison', remove: true });
    run(encounter, { type: 'gm-note', target: 'heket', text: 'behind the boulder' });
    const view = ffrpgSystem.view(reloaded(encounter).state);
    expect(view.combatants.find((c) => c.id === 'heket')?.notes).toEqual(['behind the boulder']);
    expect(view.clock).toEqual({ round: 1, phase: 'action', initiative: 15 });
    run(encounter, { type: 'gm-note', target: 'heket', text: '' });
    expect(encounter.state.notes).toEqual({});
  });
});

describe('entered dice', () => {
  it('"Rob: (rolling) 28." d% entered as one number 28 reads as faces 2 and 8: the same events as [2, 8]', () => {
    const one = underway();
    const two = underway();
    const attack = { type: 'attack', actor: 'hiro', target: 'heket' } as const;
    const a = run(one, attack, { 'hit:heket': { sum: 28 }, 'damage:heket': [10] });
    const b = run(two, attack, { 'hit:heket': d100(28), 'damage:heket': { total: 30 } });
    expect(a).toEqual(b);
    expect(only(a, 'attack-made').check.roll?.dice).toEqual([2, 8]);
  });

  it('initiative:<id> entered as a marked total is the total of 1d10 + SPD', () => {
    const encounter = start();
    const result = encounter.submit(
      { type: 'begin-round' },
      { entered: { 'initiative:heket': { total: 12 } } },
    );
    if (!result.ok) throw new Error(result.error.message);
    const heket = only(result.value, 'round-began').initiative.find((i) => i.id === 'heket')!;
    expect(heket.initiative).toBe(12);
    expect(heket.roll.dice).toEqual([6]);
    expect(ofType(result.value, 'round-began')).toHaveLength(1);
  });
});
