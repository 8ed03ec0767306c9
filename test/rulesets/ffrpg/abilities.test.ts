/**
 * Ability Types: Fast (Darkside), Magic (MP), Slow (Charge Time), Reaction (Counter) and Support,
 * with Targets, Chance of Success and the Status Conditions abilities inflict.
 */
import { describe, expect, it } from 'vitest';
import type { RollRecord } from '../../../src/engine/index.js';
import type { FfrpgEvent } from '../../../src/rulesets/ffrpg/index.js';
import {
  beginRound,
  d100,
  hp,
  initiative,
  mp,
  ofType,
  only,
  rejected,
  run,
  sheet,
  start,
  starterSetup,
  statusesOf,
  types,
  whoseTurn,
  windCaveWith,
} from './battle-helpers.js';
import { windCave } from './fixtures.js';

/** Haze first (18), then Mint (9), the Heket (7) and Hiro (6). */
const HAZE_FIRST = initiative({ hiro: 1, haze: 10, mint: 1, heket: 1 });
/** Mint first (18), then Haze (9), the Heket (7) and Hiro (6). */
const MINT_FIRST = initiative({ hiro: 1, haze: 1, mint: 10, heket: 1 });

/** Every roll a command's events record, in order. */
function rollsOf(events: readonly FfrpgEvent[]): RollRecord[] {
  const rolls: RollRecord[] = [];
  for (const e of events) {
    if (e.type === 'round-began') rolls.push(...e.initiative.map((i) => i.roll));
    if (e.type === 'attack-made' || e.type === 'effect-checked' || e.type === 'reaction-triggered')
      if (e.check.roll !== null) rolls.push(e.check.roll);
    if ((e.type === 'damage-dealt' || e.type === 'healed') && e.roll !== null) rolls.push(e.roll);
  }
  return rolls;
}

describe('Fast abilities: "Darkside is Target: Single and Fast"', () => {
  function darkside(setup = windCave(), hit = 30, die = 4) {
    const encounter = start(setup);
    beginRound(encounter, HAZE_FIRST);
    const events = run(
      encounter,
      { type: 'use-ability', actor: 'haze', ability: 'darkside', target: 'heket' },
      { 'effect:heket': d100(hit), ...(hit <= 68 ? { 'damage:heket': [die] } : {}) },
    );
    return { encounter, events };
  }

  it('"in exchange for 25% of his Hit Points": Haze (80 HP) pays 20 and it takes effect at once', () => {
    const { encounter, events } = darkside();
    expect(only(events, 'ability-used')).toEqual({
      type: 'ability-used',
      actor: 'haze',
      ability: 'darkside',
      targets: ['heket'],
      mpAfter: 10,
      hpAfter: 60,
      paid: '20 HP',
    });
    expect(hp(encounter, 'haze')).toBe(60);
    expect(mp(encounter, 'haze')).toBe(10);
    // Fast: no charging, the damage comes in the same command, then the next turn.
    expect(ofType(events, 'ability-charging')).toHaveLength(0);
    expect(types(events)).toEqual([
      'ability-used',
      'effect-checked',
      'damage-dealt',
      'turn-ended',
      'turn-began',
    ]);
    expect(whoseTurn(encounter)).toBe('mint');
  });

  it('its CoS is that of an Attack with the equipped weapon: ACC + Swords - EVA', () => {
    const { events } = darkside();
    expect(only(events, 'effect-checked')).toMatchObject({
      actor: 'haze',
      target: 'heket',
      ability: 'darkside',
      check: { cos: 68, formula: '(ACC + SKILL) 90 - EVA 22', success: true },
    });
  });

  it('"+100% Shadow Elemental damage": 2 x STR 8 + 4 = 20 +100% = 40 - ARM 10 = 30', () => {
    const { encounter, events } = darkside();
    expect(only(events, 'damage-dealt')).toMatchObject({
      source: 'haze',
      target: 'heket',
      amount: 30,
      breakdown: '20 +100% (Darkside +100%) = 40 - ARM 10 = 30',
      hpAfter: 270,
    });
    expect(hp(encounter, 'heket')).toBe(270);
  });

  it('against a Shadow Weakness the two percentages add up: +200%', () => {
    const setup = windCave();
    sheet(setup, 'heket').affinities = { shadow: 'weakness' };
    const { events } = darkside(setup);
    expect(only(events, 'damage-dealt')).toMatchObject({
      amount: 50,
      breakdown: '20 +200% (Darkside +100%, Weakness +100%) = 60 - ARM 10 = 50',
    });
  });

  it('a Critical on Darkside adds +100% more; a miss still costs the HP', () => {
    const crit = darkside(windCave(), 2, 4);
    expect(only(crit.events, 'damage-dealt').breakdown).toBe(
      '20 +200% (Darkside +100%, Critical +100%) = 60 - ARM 10 = 50',
    );
    const miss = darkside(windCave(), 80);
    expect(only(miss.events, 'effect-checked').check.success).toBe(false);
    expect(ofType(miss.events, 'damage-dealt')).toHaveLength(0);
    expect(hp(miss.encounter, 'haze')).toBe(60);
    expect(hp(miss.encounter, 'heket')).toBe(300);
  });

  it("from the starter content: 25% of Haze's maximum HP, CoS ACC + Swords - EVA 22", () => {
    const setup = starterSetup();
    const haze = setup.sides[0]!.combatants.find((c) => c.id === 'haze')!;
    const heketHp = setup.sides[1]!.combatants[0]!.stats.hp;
    const cost = Math.floor(haze.stats.hp / 4);
    const encounter = start(setup);
    beginRound(encounter, HAZE_FIRST);
    const events = run(
      encounter,
      { type: 'use-ability', actor: 'haze', ability: 'darkside', target: 'heket' },
      { 'effect:heket': d100(30), 'damage:heket': [2] },
    );
    expect(only(events, 'ability-used')).toMatchObject({
      hpAfter: haze.stats.hp - cost,
      paid: `${cost} HP`,
    });
    expect(only(events, 'effect-checked').check.cos).toBe(
      haze.stats.acc + haze.skills.Swords! - 22,
    );
    // (2 x STR + 2) +100%, - ARM 10.
    const amount = (2 * haze.attributes.STR + 2) * 2 - 10;
    expect(only(events, 'damage-dealt')).toMatchObject({ amount, hpAfter: heketHp - amount });
  });

  it('cannot be used when the HP it costs would knock the user out', () => {
    const setup = windCave();
    sheet(setup, 'haze').hp = 20;
    const encounter = start(setup);
    beginRound(encounter, HAZE_FIRST);
    expect(encounter.legalActions().map((a) => a.label)).not.toContain('Use Darkside on Heket');
    rejected(
      encounter,
      { type: 'use-ability', actor: 'haze', ability: 'darkside', target: 'heket' },
      'action/not-enough-hp',
    );
    const enough = windCave();
    sheet(enough, 'haze').hp = 21;
    const other = start(enough);
    beginRound(other, HAZE_FIRST);
    expect(other.legalActions().map((a) => a.label)).toContain('Use Darkside on Heket');
    run(
      other,
      { type: 'use-ability', actor: 'haze', ability: 'darkside', target: 'heket' },
      { 'effect:heket': d100(90) },
    );
    expect(hp(other, 'haze')).toBe(1);
  });
});

describe('Magic abilities: "Spells ... consume Magic Points (MP) with each use"', () => {
  it('Cure costs Mint 6 MP and heals MAG + 2d8', () => {
    const setup = windCave();
    sheet(setup, 'hiro').hp = 30;
    const encounter = start(setup);
    beginRound(encounter, MINT_FIRST);
    const events = run(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'cure', target: 'hiro' },
      { 'heal:hiro': [3, 4] },
    );
    expect(only(events, 'ability-used')).toMatchObject({ mpAfter: 24, paid: '6 MP' });
    expect(only(events, 'healed')).toMatchObject({
      source: 'mint',
      target: 'hiro',
      amount: 15,
      hpAfter: 45,
    });
    expect(only(events, 'healed').roll?.text).toBe('MAG + 2d8 = 8 + [3, 4] = 15');
    expect(mp(encounter, 'mint')).toBe(24);
    expect(hp(encounter, 'hiro')).toBe(45);
  });

  it('healing stops at the maximum HP and reports what it restored', () => {
    const setup = windCave();
    sheet(setup, 'hiro').hp = 55;
    const encounter = start(setup);
    beginRound(encounter, MINT_FIRST);
    const events = run(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'cure', target: 'hiro' },
      { 'heal:hiro': [8, 8] },
    );
    expect(only(events, 'healed')).toMatchObject({ amount: 5, hpAfter: 60 });
  });

  it("'action/not-enough-mp': 5 MP does not pay for Cure (6); the cheaper Poison Strike (4) still does", () => {
    const setup = windCave();
    sheet(setup, 'mint').mp = 5;
    const encounter = start(setup);
    beginRound(encounter, MINT_FIRST);
    const labels = encounter.legalActions().map((a) => a.label);
    expect(labels.some((l) => l.startsWith('Cast Cure'))).toBe(false);
    expect(labels).toContain('Use Poison Strike on Heket');
    const error = rejected(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'cure', target: 'hiro' },
      'action/not-enough-mp',
    );
    expect(error.message).toBe('Cure costs 6 MP; Mint has 5');
  });

  it('MP spent is gone: five Cures leave Mint with 0 MP and no sixth', () => {
    const encounter = start(windCave());
    for (let i = 0; i < 5; i++) {
      beginRound(encounter, MINT_FIRST);
      run(encounter, { type: 'use-ability', actor: 'mint', ability: 'cure', target: 'mint' });
      while (encounter.state.phase === 'action')
        run(encounter, { type: 'pass', actor: whoseTurn(encounter)! });
    }
    expect(mp(encounter, 'mint')).toBe(0);
    beginRound(encounter, MINT_FIRST);
    rejected(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'cure', target: 'mint' },
      'action/not-enough-mp',
    );
  });

  it('a Spell cast at an enemy can set off its spell-cast-at Reaction', () => {
    const setup = windCaveWith(
      {
        holy: {
          name: 'Holy',
          type: 'magic',
          target: 'single',
          mpCost: 10,
          damage: { code: 'MAG + d8', damageType: 'magical', element: 'holy' },
        },
        'croak-back': {
          name: 'Croak Back',
          type: 'reaction',
          trigger: 'spell-cast-at',
          reaction: 'counter-attack',
          cos: { kind: 'flat', percent: 50 },
        },
      },
      { mint: ['holy'], heket: ['croak-back'] },
    );
    const encounter = start(setup);
    beginRound(encounter, MINT_FIRST);
    const events = run(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'holy', target: 'heket' },
      {
        'damage:heket': [8],
        'reaction:croak-back': d100(40),
        'hit:mint': d100(90),
      },
    );
    // MAG 8 + 8 = 16 - M. ARM 5 = 11.
    expect(only(events, 'damage-dealt')).toMatchObject({
      amount: 11,
      breakdown: '16 - M. ARM 5 = 11',
    });
    expect(only(events, 'reaction-triggered')).toMatchObject({
      actor: 'heket',
      ability: 'croak-back',
      against: 'mint',
      check: { cos: 50, success: true },
    });
    expect(only(events, 'attack-made')).toMatchObject({
      actor: 'heket',
      target: 'mint',
      reaction: true,
    });
  });
});

describe('Slow abilities: "\'Slow (4)\' ... has a Charge Time of 4"', () => {
  it("Poison Strike (Slow 4) declared at 12 goes off at 8, after the Heket's turn at 12", () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    const declared = run(encounter, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'poison-strike',
      target: 'heket',
    });
    expect(types(declared)).toEqual([
      'ability-used',
      'ability-charging',
      'turn-ended',
      'turn-began',
    ]);
    expect(only(declared, 'ability-used')).toMatchObject({ mpAfter: 26, paid: '4 MP' });
    expect(only(declared, 'ability-charging')).toEqual({
      type: 'ability-charging',
      cursor: 2,
      charging: {
        id: 'r1-mint-poison-strike',
        actor: 'mint',
        ability: 'poison-strike',
        targets: ['heket'],
        resolvesAt: 8,
      },
    });
    expect(encounter.state.timeline.at(-1)).toEqual({
      kind: 'charge',
      id: 'r1-mint-poison-strike',
      count: 8,
    });
    // Nothing has happened to the Heket yet; it takes its turn at 12.
    expect(statusesOf(encounter, 'heket')).toEqual([]);
    expect(whoseTurn(encounter)).toBe('heket');
    const heketTurn = run(encounter, { type: 'pass', actor: 'heket' });
    expect(types(heketTurn)).toEqual([
      'turn-ended',
      'charge-resolved',
      'status-inflicted',
      'damage-dealt',
      'status-timers-counted',
      'round-ended',
    ]);
    expect(only(heketTurn, 'charge-resolved')).toEqual({
      type: 'charge-resolved',
      id: 'r1-mint-poison-strike',
      cursor: 4,
    });
    expect(only(heketTurn, 'status-inflicted')).toEqual({
      type: 'status-inflicted',
      target: 'heket',
      status: 'poison',
      timer: 2,
    });
    expect(encounter.state.charging).toEqual([]);
  });

  it("a Charge Time ending on a combatant's count resolves before that combatant acts", () => {
    const setup = windCaveWith(
      {
        'aimed-shot': {
          name: 'Aimed Shot',
          type: 'slow',
          chargeTime: 3,
          target: 'single',
          damage: { percent: 50 },
        },
      },
      { hiro: ['aimed-shot'] },
    );
    const encounter = start(setup);
    beginRound(encounter);
    const declared = run(encounter, {
      type: 'use-ability',
      actor: 'hiro',
      ability: 'aimed-shot',
      target: 'heket',
    });
    expect(only(declared, 'ability-charging').charging.resolvesAt).toBe(12);
    expect(encounter.state.timeline.map((e) => `${e.kind}:${e.id}@${e.count}`)).toEqual([
      'combatant:hiro@15',
      'combatant:haze@14',
      'charge:r1-hiro-aimed-shot@12',
      'combatant:mint@12',
      'combatant:heket@12',
    ]);
    expect(whoseTurn(encounter)).toBe('haze');
    const hazeTurn = run(encounter, { type: 'pass', actor: 'haze' }, { 'damage:heket': [10] });
    expect(types(hazeTurn)).toEqual([
      'turn-ended',
      'charge-resolved',
      'damage-dealt',
      'turn-began',
    ]);
    // 30 +50% = 45 - ARM 10 = 35.
    expect(only(hazeTurn, 'damage-dealt')).toMatchObject({
      source: 'hiro',
      amount: 35,
      breakdown: '30 +50% (Aimed Shot +50%) = 45 - ARM 10 = 35',
    });
    expect(only(hazeTurn, 'turn-began').actor).toBe('mint');
  });

  it('on one count: fixed events first, then Charge Times in the order declared, then combatants', () => {
    const setup = windCaveWith(
      {
        'aimed-shot': {
          name: 'Aimed Shot',
          type: 'slow',
          chargeTime: 3,
          target: 'single',
          damage: { percent: 50 },
        },
        'dark-charge': {
          name: 'Dark Charge',
          type: 'slow',
          chargeTime: 2,
          target: 'single',
          damage: { percent: 25 },
        },
      },
      { hiro: ['aimed-shot'], haze: ['dark-charge'] },
      { events: [{ id: 'gust', name: 'A gust', initiative: 12 }] },
    );
    const encounter = start(setup);
    beginRound(encounter);
    run(encounter, { type: 'use-ability', actor: 'hiro', ability: 'aimed-shot', target: 'heket' });
    // (Both charges roll their damage from the seeded dice here: see the purpose bug below.)
    const events = run(encounter, {
      type: 'use-ability',
      actor: 'haze',
      ability: 'dark-charge',
      target: 'heket',
    });
    expect(encounter.state.timeline.map((e) => `${e.kind}:${e.id}@${e.count}`)).toEqual([
      'combatant:hiro@15',
      'combatant:haze@14',
      'event:gust@12',
      'charge:r1-hiro-aimed-shot@12',
      'charge:r1-haze-dark-charge@12',
      'combatant:mint@12',
      'combatant:heket@12',
    ]);
    expect(
      events
        .filter((e) => e.type === 'fixed-event' || e.type === 'charge-resolved')
        .map((e) =>
          e.type === 'fixed-event' ? e.event : e.type === 'charge-resolved' ? e.id : '',
        ),
    ).toEqual(['gust', 'r1-hiro-aimed-shot', 'r1-haze-dark-charge']);
    expect(whoseTurn(encounter)).toBe('mint');
  });

  it('a Charge Time longer than the count left resolves at 0, still in the same round', () => {
    const setup = windCaveWith(
      {
        'big-croak': {
          name: 'Big Croak',
          type: 'slow',
          chargeTime: 20,
          target: 'group',
          damage: { code: 'STR', damageType: 'physical' },
        },
      },
      { heket: ['big-croak'] },
    );
    const encounter = start(setup);
    beginRound(encounter);
    for (const actor of ['hiro', 'haze', 'mint']) run(encounter, { type: 'pass', actor });
    const events = run(encounter, {
      type: 'use-ability',
      actor: 'heket',
      ability: 'big-croak',
      target: 'party',
    });
    expect(only(events, 'ability-charging').charging).toMatchObject({
      resolvesAt: 0,
      targets: ['hiro', 'haze', 'mint'],
    });
    expect(types(events)).toEqual([
      'ability-used',
      'ability-charging',
      'turn-ended',
      'charge-resolved',
      'damage-dealt',
      'damage-dealt',
      'damage-dealt',
      'status-timers-counted',
      'round-ended',
    ]);
    // STR 12, less each ARM: Hiro 4, Haze 6, Mint 2.
    expect(ofType(events, 'damage-dealt').map((e) => [e.target, e.amount])).toEqual([
      ['hiro', 8],
      ['haze', 6],
      ['mint', 10],
    ]);
  });

  it('fizzles when the user is knocked out before it resolves (the MP stays spent)', () => {
    const setup = windCave();
    sheet(setup, 'mint').hp = 1;
    const encounter = start(setup);
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    run(encounter, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'poison-strike',
      target: 'heket',
    });
    const events = run(
      encounter,
      { type: 'attack', actor: 'heket', target: 'mint' },
      { 'hit:mint': d100(20), 'damage:mint': [1] },
    );
    expect(types(events)).toEqual([
      'attack-made',
      'damage-dealt',
      'knocked-out',
      'turn-ended',
      'charge-fizzled',
      'status-timers-counted',
      'round-ended',
    ]);
    expect(only(events, 'charge-fizzled')).toEqual({
      type: 'charge-fizzled',
      id: 'r1-mint-poison-strike',
      cursor: 4,
      reason: 'Mint is knocked out',
    });
    expect(statusesOf(encounter, 'heket')).toEqual([]);
    expect(mp(encounter, 'mint')).toBe(26);
  });

  it('fizzles when the user falls asleep before it resolves', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    run(encounter, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'poison-strike',
      target: 'heket',
    });
    run(encounter, { type: 'gm-status', target: 'mint', status: 'sleep' });
    const events = run(encounter, { type: 'pass', actor: 'heket' });
    const fizzled = only(events, 'charge-fizzled');
    expect(fizzled.reason).toMatch(/^Mint is /);
    expect(ofType(events, 'status-inflicted')).toHaveLength(0);
  });

  it('a Slow Spell (Sleep from the starter content, Slow 2) rolls its CoS when it goes off', () => {
    const setup = starterSetup();
    const mint = setup.sides[0]!.combatants.find((c) => c.id === 'mint')!;
    const heket = setup.sides[1]!.combatants[0]!;
    const encounter = start(setup);
    beginRound(encounter, MINT_FIRST);
    // "(M. ACC - 50), M. Evasion": a low CoS, so the d% 8 lands it under the Rule of 10 if
    // not outright.
    const cos = mint.stats.macc - 50 - heket.stats.meva;
    const events = run(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'sleep-spell', target: 'heket' },
      { 'effect:heket': d100(8) },
    );
    expect(only(events, 'ability-used')).toMatchObject({
      mpAfter: mint.stats.mp - 10,
      paid: '10 MP',
    });
    // Mint acts at 18; Slow (2) goes off at 16, before Haze at 9.
    expect(only(events, 'ability-charging').charging.resolvesAt).toBe(16);
    expect(types(events)).toEqual([
      'ability-used',
      'ability-charging',
      'turn-ended',
      'charge-resolved',
      'effect-checked',
      'status-inflicted',
      'turn-began',
    ]);
    expect(only(events, 'effect-checked').check).toMatchObject({
      cos,
      formula: `(MACC - 50) ${mint.stats.macc - 50} - M. EVA ${heket.stats.meva}`,
      success: true,
      ruleOf10: cos < 8,
    });
    // "inflicting the Status Condition Sleep (6)"
    expect(only(events, 'status-inflicted')).toMatchObject({ status: 'sleep', timer: 6 });
    expect(whoseTurn(encounter)).toBe('haze');
    run(encounter, { type: 'pass', actor: 'haze' });
    // The Heket sleeps through its turn.
    expect(whoseTurn(encounter)).toBe('hiro');
  });
});

describe('Status Conditions inflicted by abilities', () => {
  const sleepSetup = (cos?: unknown, timer?: number) =>
    windCaveWith(
      {
        lullaby: {
          name: 'Lullaby',
          type: 'fast',
          target: 'single',
          inflicts: [
            {
              status: 'sleep',
              ...(timer === undefined ? {} : { timer }),
              ...(cos === undefined ? {} : { cos }),
            },
          ],
        },
      },
      { hiro: ['lullaby'] },
    );

  it("with the Timer the ability gives, or the status's usual one", () => {
    const given = start(sleepSetup(undefined, 6));
    beginRound(given);
    const events = run(given, {
      type: 'use-ability',
      actor: 'hiro',
      ability: 'lullaby',
      target: 'heket',
    });
    expect(only(events, 'status-inflicted')).toMatchObject({ status: 'sleep', timer: 6 });
    const usual = start(sleepSetup());
    beginRound(usual);
    const plain = run(usual, {
      type: 'use-ability',
      actor: 'hiro',
      ability: 'lullaby',
      target: 'heket',
    });
    expect(only(plain, 'status-inflicted').timer).toBe(4);
    expect(statusesOf(usual, 'heket')).toEqual([{ status: 'sleep', timer: 4 }]);
  });

  it('"Flat CoS ... will always work on a roll of 60 or lower" and fail above it', () => {
    const setup = sleepSetup({ kind: 'flat', percent: 60 });
    const lands = start(setup);
    beginRound(lands);
    const ok = run(
      lands,
      { type: 'use-ability', actor: 'hiro', ability: 'lullaby', target: 'heket' },
      { 'status:sleep:heket': d100(60) },
    );
    expect(only(ok, 'effect-checked').check).toMatchObject({
      cos: 60,
      formula: 'Flat CoS 60%',
      success: true,
    });
    expect(ofType(ok, 'status-inflicted')).toHaveLength(1);
    const misses = start(setup);
    beginRound(misses);
    const no = run(
      misses,
      { type: 'use-ability', actor: 'hiro', ability: 'lullaby', target: 'heket' },
      { 'status:sleep:heket': d100(61) },
    );
    expect(only(no, 'effect-checked').check.success).toBe(false);
    expect(ofType(no, 'status-inflicted')).toHaveLength(0);
    expect(statusesOf(misses, 'heket')).toEqual([]);
  });

  it('"(M. ACC - 50), M. Evasion": the target\'s M. EVA comes off the formula', () => {
    const setup = sleepSetup({ kind: 'formula', formula: 'MACC - 50', guard: 'meva' });
    sheet(setup, 'hiro').stats.macc = 90;
    sheet(setup, 'heket').stats.meva = 15;
    const encounter = start(setup);
    beginRound(encounter);
    const events = run(
      encounter,
      { type: 'use-ability', actor: 'hiro', ability: 'lullaby', target: 'heket' },
      { 'status:sleep:heket': d100(25) },
    );
    expect(only(events, 'effect-checked').check).toMatchObject({
      cos: 25,
      formula: '(MACC - 50) 40 - M. EVA 15',
      success: true,
    });
  });

  it('a combatant immune to a Status Condition resists it without a roll', () => {
    const setup = sleepSetup({ kind: 'flat', percent: 60 });
    sheet(setup, 'heket').immunities = ['sleep'];
    const encounter = start(setup);
    beginRound(encounter);
    const events = run(encounter, {
      type: 'use-ability',
      actor: 'hiro',
      ability: 'lullaby',
      target: 'heket',
    });
    expect(only(events, 'status-resisted')).toEqual({
      type: 'status-resisted',
      target: 'heket',
      status: 'sleep',
      reason: 'immune',
    });
    expect(ofType(events, 'effect-checked')).toHaveLength(0);
    expect(statusesOf(encounter, 'heket')).toEqual([]);
  });

  it('inflicting a status again replaces its Timer', () => {
    const encounter = start(sleepSetup(undefined, 2));
    run(encounter, { type: 'gm-status', target: 'heket', status: 'sleep', timer: 5 });
    beginRound(encounter);
    run(encounter, { type: 'use-ability', actor: 'hiro', ability: 'lullaby', target: 'heket' });
    expect(statusesOf(encounter, 'heket')).toEqual([{ status: 'sleep', timer: 2 }]);
  });

  it('an ability can cure a status', () => {
    const setup = windCaveWith(
      { esuna: { name: 'Esuna', type: 'magic', target: 'single', mpCost: 2, cures: ['poison'] } },
      { mint: ['esuna'] },
    );
    sheet(setup, 'hiro').statuses = [{ status: 'poison' }];
    const encounter = start(setup);
    beginRound(encounter, MINT_FIRST);
    const events = run(encounter, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'esuna',
      target: 'hiro',
    });
    expect(only(events, 'status-ended')).toEqual({
      type: 'status-ended',
      target: 'hiro',
      status: 'poison',
      reason: 'cured',
    });
    expect(statusesOf(encounter, 'hiro')).toEqual([]);
  });
});

describe('Targets', () => {
  const setup = () =>
    windCaveWith(
      {
        cura: { name: 'Cura', type: 'magic', target: 'party', heal: { code: '10' } },
        quake: {
          name: 'Quake',
          type: 'magic',
          target: 'group',
          damage: { code: '20', damageType: 'magical', element: 'earth' },
        },
        flare: {
          name: 'Flare',
          type: 'magic',
          target: 'all',
          damage: { code: '20', damageType: 'magical' },
        },
        focus: {
          name: 'Focus',
          type: 'fast',
          target: 'self',
          inflicts: [{ status: 'protect' }],
        },
      },
      { mint: ['cura', 'quake', 'flare', 'focus'] },
    );

  function mintTurn() {
    const encounter = start(setup());
    beginRound(encounter, MINT_FIRST);
    return encounter;
  }

  it('Party: every standing ally, the user too', () => {
    const encounter = mintTurn();
    const events = run(encounter, { type: 'use-ability', actor: 'mint', ability: 'cura' });
    expect(only(events, 'ability-used').targets).toEqual(['hiro', 'haze', 'mint']);
    expect(ofType(events, 'healed')).toHaveLength(3);
  });

  it('Group: a side named by its id', () => {
    const encounter = mintTurn();
    const events = run(encounter, {
      type: 'use-ability',
      actor: 'mint',
      ability: 'quake',
      target: 'enemies',
    });
    expect(only(events, 'ability-used').targets).toEqual(['heket']);
    rejected(
      start(setup()),
      { type: 'use-ability', actor: 'mint', ability: 'quake', target: 'enemies' },
      'battle/no-round',
    );
    const other = mintTurn();
    rejected(
      other,
      { type: 'use-ability', actor: 'mint', ability: 'quake', target: 'heket' },
      'action/bad-target',
    );
  });

  it('All: everyone standing, friend and foe', () => {
    const encounter = mintTurn();
    const events = run(encounter, { type: 'use-ability', actor: 'mint', ability: 'flare' });
    expect(ofType(events, 'damage-dealt').map((e) => e.target)).toEqual([
      'hiro',
      'haze',
      'mint',
      'heket',
    ]);
  });

  it('Self: the user, whatever target is named', () => {
    const encounter = mintTurn();
    const events = run(encounter, { type: 'use-ability', actor: 'mint', ability: 'focus' });
    expect(only(events, 'status-inflicted')).toMatchObject({ target: 'mint', status: 'protect' });
  });

  it('Single: needs a standing target', () => {
    const encounter = mintTurn();
    rejected(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'cure' },
      'action/bad-target',
    );
    rejected(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'cure', target: 'ghost' },
      'action/unknown-target',
    );
    run(encounter, { type: 'gm-set', target: 'hiro', resource: 'hp', value: 0 });
    rejected(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'cure', target: 'hiro' },
      'action/target-down',
    );
  });

  it('legalActions offers each ability on the targets it is meant for (Cure at allies, Poison Strike at enemies), and never Reactions or Supports', () => {
    const withCounter = setup();
    sheet(withCounter, 'mint').abilities = [
      ...(sheet(withCounter, 'mint').abilities ?? []),
      'counter',
    ];
    const encounter = start(withCounter);
    beginRound(encounter, MINT_FIRST);
    const labels = encounter.legalActions().map((a) => a.label);
    expect(labels).toEqual([
      'Attack Heket with bare hands',
      'Cast Cure on Hiro',
      'Cast Cure on Haze',
      'Cast Cure on Mint',
      'Use Poison Strike on Heket',
      'Cast Cura',
      'Cast Quake on The party',
      'Cast Quake on The Heket',
      'Cast Flare',
      'Use Focus',
      'Pass',
      'Flee',
    ]);
    for (const action of encounter.legalActions()) {
      const copy = start(withCounter);
      beginRound(copy, MINT_FIRST);
      expect(copy.submit(action.command).ok, action.label).toBe(true);
    }
  });
});

describe('Support abilities: "always in effect ... do not require Actions to use"', () => {
  const setup = () =>
    windCaveWith(
      {
        'eagle-eye': {
          name: 'Eagle Eye',
          type: 'support',
          passive: [{ kind: 'stat-bonus', stat: 'acc', amount: 8 }],
        },
        'gun-mastery': {
          name: 'Gun Mastery',
          type: 'support',
          passive: [{ kind: 'damage-dealt-percent', percent: 25, skill: 'Guns' }],
        },
        'sword-mastery': {
          name: 'Sword Mastery',
          type: 'support',
          passive: [{ kind: 'damage-dealt-percent', percent: 50, skill: 'Swords' }],
        },
      },
      { hiro: ['eagle-eye', 'gun-mastery', 'sword-mastery'] },
    );

  it('raise the CoS and the damage of a plain Attack, only with the right Skill', () => {
    const encounter = start(setup());
    beginRound(encounter);
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(78), 'damage:heket': [10] },
    );
    expect(only(events, 'attack-made').check).toMatchObject({
      cos: 78,
      formula: 'ACC 50 + Guns 50 - EVA 22',
      success: true,
    });
    // +25% for Guns; Sword Mastery does not apply to a rifle.
    expect(only(events, 'damage-dealt').breakdown).toBe(
      '30 +25% (Gun Mastery +25%) = 37 - ARM 10 = 27',
    );
  });

  it('cannot be used as an action', () => {
    const encounter = start(setup());
    beginRound(encounter);
    const error = rejected(
      encounter,
      { type: 'use-ability', actor: 'hiro', ability: 'eagle-eye' },
      'action/not-an-action',
    );
    expect(error.message).toMatch(/Support/);
    expect(encounter.legalActions().some((a) => a.label.startsWith('Eagle Eye'))).toBe(false);
  });
});

describe('Reaction abilities: Counter, "only be used if and when an Attack is made against the Monk"', () => {
  const counterSetup = (both = false) => {
    const setup = windCave();
    sheet(setup, 'heket').abilities = ['counter'];
    if (both) sheet(setup, 'hiro').abilities = ['counter'];
    return setup;
  };

  function hiroAttacks(setup: ReturnType<typeof windCave>, entered: Record<string, number[]>) {
    const encounter = start(setup);
    beginRound(encounter);
    const events = run(encounter, { type: 'attack', actor: 'hiro', target: 'heket' }, entered);
    return { encounter, events };
  }

  it('triggers on being attacked, on a Flat CoS of 30%, and strikes back', () => {
    const { encounter, events } = hiroAttacks(counterSetup(), {
      'hit:heket': d100(28),
      'damage:heket': [10],
      'reaction:counter': d100(30),
      'hit:hiro': d100(50),
      'damage:hiro': [4],
    });
    expect(types(events)).toEqual([
      'attack-made',
      'damage-dealt',
      'reaction-triggered',
      'attack-made',
      'damage-dealt',
      'turn-ended',
      'turn-began',
    ]);
    expect(only(events, 'reaction-triggered')).toMatchObject({
      actor: 'heket',
      ability: 'counter',
      against: 'hiro',
      check: { cos: 30, formula: 'Flat CoS 30%', success: true },
    });
    const [, counter] = ofType(events, 'attack-made');
    expect(counter).toMatchObject({
      actor: 'heket',
      target: 'hiro',
      weapon: 'Webbed Claw',
      reaction: true,
      check: { cos: 60, success: true },
    });
    // 3 x STR 12 + 4 = 40 - ARM 4 = 36.
    expect(hp(encounter, 'hiro')).toBe(24);
    expect(hp(encounter, 'heket')).toBe(280);
    // The Counter is not the Heket's turn: the countdown goes on to Haze.
    expect(whoseTurn(encounter)).toBe('haze');
  });

  it('"a Flat CoS is not modified by anything": 31 fails against 30 and nothing strikes back', () => {
    const { events } = hiroAttacks(counterSetup(), {
      'hit:heket': d100(28),
      'damage:heket': [10],
      'reaction:counter': d100(31),
    });
    expect(only(events, 'reaction-triggered').check.success).toBe(false);
    expect(ofType(events, 'attack-made')).toHaveLength(1);
  });

  it('an Attack that misses still counts as an Attack made against it', () => {
    const { events } = hiroAttacks(counterSetup(), {
      'hit:heket': d100(90),
      'reaction:counter': d100(5),
      'hit:hiro': d100(90),
    });
    expect(ofType(events, 'reaction-triggered')).toHaveLength(1);
    expect(ofType(events, 'attack-made').map((a) => a.reaction)).toEqual([false, true]);
  });

  it("Reactions vs. Reactions: the counter-attack does not set off the attacker's own Counter", () => {
    const { events } = hiroAttacks(counterSetup(true), {
      'hit:heket': d100(28),
      'damage:heket': [10],
      'reaction:counter': d100(5),
      'hit:hiro': d100(50),
      'damage:hiro': [4],
    });
    // Only the Heket's Counter: Hiro's shares the trigger (attacked) with it.
    expect(ofType(events, 'reaction-triggered').map((e) => e.actor)).toEqual(['heket']);
    expect(ofType(events, 'attack-made').map((a) => `${a.actor}>${a.target}`)).toEqual([
      'hiro>heket',
      'heket>hiro',
    ]);
  });

  it("Hiro's own Counter works when the Heket attacks him on its turn", () => {
    const encounter = start(counterSetup(true));
    beginRound(encounter);
    for (const actor of ['hiro', 'haze', 'mint']) run(encounter, { type: 'pass', actor });
    const events = run(
      encounter,
      { type: 'attack', actor: 'heket', target: 'hiro' },
      {
        'hit:hiro': d100(90),
        'reaction:counter': d100(5),
        'hit:heket': d100(90),
      },
    );
    // Hiro counters; the Heket's Counter is not set off by Hiro's counter-attack.
    expect(ofType(events, 'reaction-triggered').map((e) => e.actor)).toEqual(['hiro']);
    expect(ofType(events, 'attack-made')).toHaveLength(2);
  });

  it('a Reaction with another trigger may answer a Reaction (physical-damage after attacked)', () => {
    const setup = windCaveWith(
      {
        vengeance: {
          name: 'Vengeance',
          type: 'reaction',
          trigger: 'physical-damage',
          reaction: 'counter-attack',
          cos: { kind: 'flat', percent: 50 },
        },
      },
      { hiro: ['vengeance'] },
    );
    sheet(setup, 'heket').abilities = ['counter'];
    const encounter = start(setup);
    beginRound(encounter);
    for (const actor of ['hiro', 'haze', 'mint']) run(encounter, { type: 'pass', actor });
    // The Heket attacks; Hiro's Vengeance answers the damage; the Heket's Counter answers
    // the Attack, since its trigger (attacked) is not one of those that led here.
    const events = run(
      encounter,
      { type: 'attack', actor: 'heket', target: 'hiro' },
      {
        'hit:hiro': d100(50),
        'damage:hiro': [1],
        'reaction:vengeance': d100(10),
        'hit:heket': d100(90),
        'reaction:counter': d100(90),
      },
    );
    expect(ofType(events, 'reaction-triggered').map((e) => `${e.actor}:${e.ability}`)).toEqual([
      'hiro:vengeance',
      'heket:counter',
    ]);
  });

  it('no Counter from a combatant knocked out by the Attack, or asleep through it', () => {
    const setup = counterSetup();
    sheet(setup, 'heket').hp = 10;
    const ko = hiroAttacks(setup, { 'hit:heket': d100(28), 'damage:heket': [10] });
    expect(ofType(ko.events, 'reaction-triggered')).toHaveLength(0);
    const asleep = counterSetup();
    sheet(asleep, 'heket').statuses = [{ status: 'sleep' }];
    const miss = hiroAttacks(asleep, { 'hit:heket': d100(90) });
    expect(ofType(miss.events, 'reaction-triggered')).toHaveLength(0);
  });

  it('cannot be used as an action', () => {
    const encounter = start(counterSetup(true));
    beginRound(encounter);
    const error = rejected(
      encounter,
      { type: 'use-ability', actor: 'hiro', ability: 'counter', target: 'heket' },
      'action/not-an-action',
    );
    expect(error.message).toMatch(/Reaction/);
  });
});

describe('abilities a combatant does not have', () => {
  it("'action/unknown-ability' for an ability nobody has, or one another combatant has", () => {
    const encounter = start();
    beginRound(encounter);
    const error = rejected(
      encounter,
      { type: 'use-ability', actor: 'hiro', ability: 'ultima', target: 'heket' },
      'action/unknown-ability',
    );
    expect(error.message).toBe("Hiro has no ability 'ultima' (has: none)");
    rejected(
      encounter,
      { type: 'use-ability', actor: 'hiro', ability: 'darkside', target: 'heket' },
      'action/unknown-ability',
    );
    rejected(
      encounter,
      { type: 'use-ability', actor: 'hiro', ability: 'counter', target: 'heket' },
      'action/unknown-ability',
    );
  });

  it('a setup naming an ability that is not defined does not load', () => {
    const setup = windCave();
    sheet(setup, 'hiro').abilities = ['ultima'];
    expect(() => start(setup)).toThrow(/setup\/invalid.*unknown ability 'ultima'/);
  });
});

describe('each roll in a command can be entered on its own', () => {
  it('no two rolls of one command share a purpose', () => {
    const setup = windCaveWith(
      {
        'quick-shot': {
          name: 'Quick Shot',
          type: 'slow',
          chargeTime: 2,
          target: 'single',
          damage: { percent: 50 },
        },
      },
      { hiro: ['quick-shot'] },
    );
    const encounter = start(setup);
    beginRound(encounter);
    run(encounter, { type: 'use-ability', actor: 'hiro', ability: 'quick-shot', target: 'heket' });
    const events = run(
      encounter,
      { type: 'attack', actor: 'haze', target: 'heket' },
      { 'hit:heket': d100(20), 'damage:heket': [8], 'damage:heket#2': [5] },
      { enterAll: true },
    );
    const purposes = rollsOf(events).map((r) => r.purpose);
    expect(purposes).toEqual(['hit:heket', 'damage:heket', 'damage:heket#2']);
    expect(new Set(purposes).size).toBe(purposes.length);
  });

  it('without a charge or a Reaction in between, every purpose in a command is unique', () => {
    const encounter = start();
    const began = beginRound(encounter);
    expect(rollsOf(began).map((r) => r.purpose)).toEqual([
      'initiative:hiro',
      'initiative:haze',
      'initiative:mint',
      'initiative:heket',
    ]);
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(28), 'damage:heket': [10] },
      { enterAll: true },
    );
    expect(rollsOf(events).map((r) => r.purpose)).toEqual(['hit:heket', 'damage:heket']);
  });

  it('with enterAll, a roll left out is asked for by its purpose and nothing changes', () => {
    const encounter = start();
    beginRound(encounter);
    const error = rejected(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      'dice/needs-entry',
      { enterAll: true, entered: { 'hit:heket': d100(28) } },
    );
    expect(error.message).toContain('damage:heket');
    expect(hp(encounter, 'heket')).toBe(300);
  });
});
