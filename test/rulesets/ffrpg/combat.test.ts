/**
 * The Playguide's "Combat in Action": Initiative, the Heket shot, and what else a d% to hit can
 * come to (misses, Critical Hits, Botches, the Rule of 10); plus the countdown's tie-breaks and
 * fixed-Initiative events, and how a battle ends.
 */
import { describe, expect, it } from 'vitest';
import { ffrpg } from '../../../src/rulesets/ffrpg/index.js';
import { ffrpgSystem } from '../../../src/rulesets/ffrpg/system.js';
import {
  beginRound,
  d100,
  hp,
  initiative,
  ofType,
  only,
  passRound,
  rejected,
  run,
  sheet,
  start,
  starterSetup,
  types,
  whoseTurn,
  windCaveSpec,
} from './battle-helpers.js';
import { windCave } from './fixtures.js';

/** Hiro shoots the Heket on his turn, with the d% and damage dice entered. */
function hiroShoots(setup = windCave(), hit: number, damageDie?: number) {
  const encounter = start(setup);
  beginRound(encounter);
  const events = run(
    encounter,
    { type: 'attack', actor: 'hiro', target: 'heket' },
    {
      'hit:heket': d100(hit),
      ...(damageDie === undefined ? {} : { 'damage:heket': [damageDie] }),
    },
  );
  return { encounter, events };
}

describe('Combat in Action: Initiative', () => {
  it('"Woo! 15." "14 over here." "12." ... Heket "has a SPD of 6, giving it an Initiative of 12"', () => {
    const encounter = start();
    const events = beginRound(encounter);
    const began = only(events, 'round-began');
    expect(began.round).toBe(1);
    const byId = Object.fromEntries(began.initiative.map((i) => [i.id, i]));
    // Hiro SPD 5 rolls 10 (entered as the d10's printed 0 or as 10), Haze SPD 8 rolls 6,
    // Mint SPD 8 rolls 4, the Heket SPD 6 rolls 6.
    expect(byId.hiro?.initiative).toBe(15);
    expect(byId.haze?.initiative).toBe(14);
    expect(byId.mint?.initiative).toBe(12);
    expect(byId.heket?.initiative).toBe(12);
    expect(byId.hiro?.roll).toMatchObject({
      purpose: 'initiative:hiro',
      notation: '1d10+SPD',
      total: 15,
      entered: true,
      text: '1d10+SPD = [10] + 5 = 15',
    });
    expect(byId.heket?.roll.text).toBe('1d10+SPD = [6] + 6 = 12');
  });

  it('"It\'s Hiro, Haze, Mint, and then Heket. Rob, you\'re up." (the tie at 12 goes to the higher SPD)', () => {
    const encounter = start();
    const events = beginRound(encounter);
    const began = only(events, 'round-began');
    expect(began.timeline).toEqual([
      { kind: 'combatant', id: 'hiro', count: 15 },
      { kind: 'combatant', id: 'haze', count: 14 },
      { kind: 'combatant', id: 'mint', count: 12 },
      { kind: 'combatant', id: 'heket', count: 12 },
    ]);
    expect(events.at(-1)).toEqual({ type: 'turn-began', cursor: 0, actor: 'hiro' });
    expect(whoseTurn(encounter)).toBe('hiro');
    expect(encounter.state.phase).toBe('action');
    // The countdown then runs Haze, Mint, the Heket.
    const order: string[] = [];
    while (encounter.state.phase === 'action') {
      const actor = whoseTurn(encounter)!;
      order.push(actor);
      run(encounter, { type: 'pass', actor });
    }
    expect(order).toEqual(['hiro', 'haze', 'mint', 'heket']);
  });

  it('"Rob: (rolling) Woo! 15.": Initiative is entered as the total called out, marked, read back to its d10', () => {
    const encounter = start();
    const result = encounter.submit(
      { type: 'begin-round' },
      {
        entered: {
          'initiative:hiro': { total: 15 },
          'initiative:haze': { total: 14 },
          'initiative:mint': { total: 12 },
          'initiative:heket': { total: 12 },
        },
      },
    );
    if (!result.ok) throw new Error(result.error.message);
    const began = only(result.value, 'round-began');
    const hiro = began.initiative.find((i) => i.id === 'hiro')!;
    expect(hiro.initiative).toBe(15);
    expect(hiro.roll.dice).toEqual([10]);
  });

  it('"Rob: (rolling) Woo! 15." typed as a bare 15 is a face, and no d10 shows 15', () => {
    const encounter = start();
    const result = encounter.submit(
      { type: 'begin-round' },
      { entered: { 'initiative:hiro': [15] } },
    );
    expect(result.ok ? 'accepted' : result.error).toMatchObject({
      code: 'dice/entered-out-of-range',
      purpose: 'initiative:hiro',
      message:
        'initiative:hiro (1d10+SPD): entered die 1 is 15, but it fills a d10, which shows 0 (for 10) to 10',
    });
  });

  it('works the same from the starter content (Hiro SPD 5, Haze 8, Mint 8, Heket 6)', () => {
    const encounter = start(starterSetup());
    const began = only(beginRound(encounter), 'round-began');
    expect(began.timeline.map((e) => `${e.id} ${e.count}`)).toEqual([
      'hiro 15',
      'haze 14',
      'mint 12',
      'heket 12',
    ]);
  });

  it('rolls Initiative from the seeded dice when none are entered, always 1d10 + SPD', () => {
    for (const seed of [1, 2, 3, 'wind-cave']) {
      const encounter = start(windCave(), seed);
      const began = only(run(encounter, { type: 'begin-round' }), 'round-began');
      const speed: Record<string, number> = { hiro: 5, haze: 8, mint: 8, heket: 6 };
      for (const roll of began.initiative) {
        expect(roll.roll.entered).toBe(false);
        expect(roll.initiative - speed[roll.id]!).toBeGreaterThanOrEqual(1);
        expect(roll.initiative - speed[roll.id]!).toBeLessThanOrEqual(10);
      }
      const counts = began.timeline.map((e) => e.count);
      expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    }
  });
});

describe('Initiative ties and fixed-Initiative events', () => {
  it('ties: higher SPD first, by default even before the party (Heket SPD 6 before Hiro SPD 5)', () => {
    const encounter = start();
    // Hiro 5 + 7 = 12, Heket 6 + 6 = 12.
    const began = only(
      beginRound(encounter, initiative({ hiro: 7, haze: 1, mint: 1, heket: 6 })),
      'round-began',
    );
    expect(began.timeline.map((e) => e.id)).toEqual(['heket', 'hiro', 'haze', 'mint']);
  });

  it("ties with option initiativeTies 'party-then-speed': the party first", () => {
    const encounter = start(windCave({ options: { initiativeTies: 'party-then-speed' } }));
    const began = only(
      beginRound(encounter, initiative({ hiro: 7, haze: 1, mint: 1, heket: 6 })),
      'round-began',
    );
    expect(began.timeline.map((e) => e.id)).toEqual(['hiro', 'heket', 'haze', 'mint']);
  });

  it('ties of equal SPD on the same side go by listing order (Haze before Mint)', () => {
    const encounter = start();
    const began = only(
      beginRound(encounter, initiative({ hiro: 1, haze: 3, mint: 3, heket: 1 })),
      'round-began',
    );
    expect(began.timeline.map((e) => e.id)).toEqual(['haze', 'mint', 'heket', 'hiro']);
  });

  it('"Ceiling comes down at 10": a fixed event joins the countdown on its count', () => {
    // Scenes in Action: M rolls 12, Blair 11, Rob 7; the ceiling comes down at 10.
    const encounter = start(
      windCave({ events: [{ id: 'ceiling', name: 'The ceiling comes down', initiative: 10 }] }),
    );
    const events = beginRound(encounter, initiative({ haze: 4, mint: 3, hiro: 2, heket: 1 }));
    expect(only(events, 'round-began').timeline).toEqual([
      { kind: 'combatant', id: 'haze', count: 12 },
      { kind: 'combatant', id: 'mint', count: 11 },
      { kind: 'event', id: 'ceiling', count: 10 },
      { kind: 'combatant', id: 'heket', count: 7 },
      { kind: 'combatant', id: 'hiro', count: 7 },
    ]);
    run(encounter, { type: 'pass', actor: 'haze' });
    const afterMint = run(encounter, { type: 'pass', actor: 'mint' });
    expect(types(afterMint)).toEqual(['turn-ended', 'fixed-event', 'turn-began']);
    expect(only(afterMint, 'fixed-event')).toEqual({
      type: 'fixed-event',
      cursor: 2,
      event: 'ceiling',
      name: 'The ceiling comes down',
    });
    expect(whoseTurn(encounter)).toBe('heket');
  });

  it('an event on the same count as a combatant comes first (option eventsBeforeTies)', () => {
    const event = { id: 'floor', name: 'The floorboards collapse', initiative: 14 };
    const before = start(windCave({ events: [event] }));
    const first = beginRound(before);
    expect(
      only(first, 'round-began')
        .timeline.slice(0, 3)
        .map((e) => e.id),
    ).toEqual(['hiro', 'floor', 'haze']);
    const after = start(windCave({ events: [event], options: { eventsBeforeTies: false } }));
    expect(
      only(beginRound(after), 'round-began')
        .timeline.slice(0, 3)
        .map((e) => e.id),
    ).toEqual(['hiro', 'haze', 'floor']);
  });

  it('an event above every Initiative happens before the first turn', () => {
    const encounter = start(windCave({ events: [{ id: 'quake', name: 'Quake', initiative: 99 }] }));
    const events = beginRound(encounter);
    expect(types(events)).toEqual(['round-began', 'fixed-event', 'turn-began']);
    expect(whoseTurn(encounter)).toBe('hiro');
  });

  it('an event with a round happens in that round only', () => {
    const encounter = start(
      windCave({ events: [{ id: 'gust', name: 'A gust', initiative: 5, round: 2 }] }),
    );
    const round1 = [...beginRound(encounter), ...passRound(encounter)];
    expect(ofType(round1, 'fixed-event')).toHaveLength(0);
    const round2 = [...beginRound(encounter), ...passRound(encounter)];
    expect(ofType(round2, 'fixed-event').map((e) => e.event)).toEqual(['gust']);
    const round3 = [...beginRound(encounter), ...passRound(encounter)];
    expect(ofType(round3, 'fixed-event')).toHaveLength(0);
  });

  it('two events on the same count happen in the order the setup lists them', () => {
    const encounter = start(
      windCave({
        events: [
          { id: 'first', name: 'First', initiative: 10 },
          { id: 'second', name: 'Second', initiative: 10 },
        ],
      }),
    );
    const timeline = only(beginRound(encounter), 'round-began').timeline;
    const ids = timeline.filter((e) => e.kind === 'event').map((e) => e.id);
    expect(ids).toEqual(['first', 'second']);
  });
});

describe('Combat in Action: "Hiro\'s locking and loading his rifle and shooting that overgrown toad"', () => {
  it('"28. Accuracy plus Guns comes out to 92" against "Evasion is 22": CoS 70, a hit', () => {
    const { events } = hiroShoots(windCave(), 28, 10);
    const attack = only(events, 'attack-made');
    expect(attack).toMatchObject({
      actor: 'hiro',
      target: 'heket',
      weapon: 'Valiant Rifle',
      reaction: false,
    });
    expect(attack.check).toMatchObject({
      cos: 70,
      formula: 'ACC 42 + Guns 50 - EVA 22',
      success: true,
      critical: false,
      botch: false,
      ruleOf10: false,
      automatic: false,
    });
    expect(attack.check.roll).toMatchObject({
      purpose: 'hit:heket',
      notation: 'd%',
      total: 28,
      entered: true,
      text: 'd% = [20+8] = 28',
    });
  });

  it('"2 x AGI + d12 ... (rolling) 10. 30 Physical damage" less "the Heket\'s ARM ... 10": 20', () => {
    const { encounter, events } = hiroShoots(windCave(), 28, 10);
    const damage = only(events, 'damage-dealt');
    expect(damage).toMatchObject({
      source: 'hiro',
      target: 'heket',
      amount: 20,
      absorbed: false,
      hpAfter: 280,
      breakdown: '30 - ARM 10 = 20',
    });
    expect(damage.roll).toMatchObject({
      purpose: 'damage:heket',
      notation: '2*AGI + d12',
      total: 30,
      text: '2*AGI + d12 = 2 * 10 + [10] = 30',
      entered: true,
    });
    expect(hp(encounter, 'heket')).toBe(300 - 20);
    // "M, you're up."
    expect(types(events).slice(-2)).toEqual(['turn-ended', 'turn-began']);
    expect(whoseTurn(encounter)).toBe('haze');
  });

  it('the same shot with the starter content takes 20 HP off the Heket', () => {
    const setup = starterSetup();
    const heketHp = setup.sides[1]!.combatants[0]!.stats.hp;
    const encounter = start(setup);
    beginRound(encounter);
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': [2, 8], 'damage:heket': [10] },
    );
    expect(only(events, 'attack-made').check).toMatchObject({
      cos: 70,
      formula: 'ACC 42 + Guns 50 - EVA 22',
      success: true,
    });
    expect(only(events, 'damage-dealt')).toMatchObject({
      amount: 20,
      breakdown: '30 - ARM 10 = 20',
      hpAfter: heketHp - 20,
    });
    expect(hp(encounter, 'heket')).toBe(heketHp - 20);
  });

  it('a roll equal to the CoS hits (70 against 70); one over misses (71)', () => {
    expect(only(hiroShoots(windCave(), 70, 1).events, 'attack-made').check.success).toBe(true);
    const miss = hiroShoots(windCave(), 71);
    const attack = only(miss.events, 'attack-made');
    expect(attack.check).toMatchObject({ success: false, critical: false, botch: false });
    expect(ofType(miss.events, 'damage-dealt')).toHaveLength(0);
    expect(hp(miss.encounter, 'heket')).toBe(300);
    expect(whoseTurn(miss.encounter)).toBe('haze');
  });

  it('a miss rolls no damage: entering damage dice for it is a mistake', () => {
    const encounter = start();
    beginRound(encounter);
    rejected(encounter, { type: 'attack', actor: 'hiro', target: 'heket' }, 'dice/entered-unused', {
      entered: { 'hit:heket': d100(90), 'damage:heket': [5] },
    });
  });

  it('a Critical Hit (roll 1 to 10) adds +100% before ARM: 30 +100% = 60 - ARM 10 = 50', () => {
    for (const roll of [1, 5, 10]) {
      const { encounter, events } = hiroShoots(windCave(), roll, 10);
      expect(only(events, 'attack-made').check).toMatchObject({
        success: true,
        critical: true,
        ruleOf10: false,
      });
      const damage = only(events, 'damage-dealt');
      expect(damage.amount).toBe(50);
      expect(damage.breakdown).toBe('30 +100% (Critical +100%) = 60 - ARM 10 = 50');
      expect(hp(encounter, 'heket')).toBe(250);
    }
  });

  it('option criticalDamagePercent changes what a Critical Hit adds', () => {
    const setup = windCave({ options: { criticalDamagePercent: 50 } });
    const damage = only(hiroShoots(setup, 3, 10).events, 'damage-dealt');
    expect(damage.breakdown).toBe('30 +50% (Critical +50%) = 45 - ARM 10 = 35');
    expect(damage.amount).toBe(35);
  });

  it('a Botch (95 to 100, "0 and 0 always equal 100") misses', () => {
    for (const roll of [95, 99, 100]) {
      const { encounter, events } = hiroShoots(windCave(), roll);
      const attack = only(events, 'attack-made');
      expect(attack.check).toMatchObject({ success: false, botch: true, critical: false });
      expect(attack.check.roll?.total).toBe(roll);
      expect(hp(encounter, 'heket')).toBe(300);
    }
    expect(only(hiroShoots(windCave(), 100).events, 'attack-made').check.roll?.text).toBe(
      'd% = [00+0] = 100',
    );
  });

  it('attacks always roll, so a Botch fails even at a CoS of 100 or more (ruling)', () => {
    const setup = windCave();
    sheet(setup, 'hiro').stats.acc = 200; // CoS 228
    const botched = hiroShoots(setup, 97);
    expect(only(botched.events, 'attack-made').check).toMatchObject({
      cos: 228,
      success: false,
      botch: true,
    });
    const hit = hiroShoots(setup, 94, 1);
    expect(only(hit.events, 'attack-made').check.success).toBe(true);
  });

  it('option botchAlwaysFails: false lets 97 hit a CoS of 228', () => {
    const setup = windCave({ options: { botchAlwaysFails: false } });
    sheet(setup, 'hiro').stats.acc = 200;
    const { events } = hiroShoots(setup, 97, 1);
    expect(only(events, 'attack-made').check).toMatchObject({ success: true, botch: false });
    expect(ofType(events, 'damage-dealt')).toHaveLength(1);
  });

  it('the Rule of 10: a roll of 10 or less hits a CoS below 0, and is not a Critical Hit', () => {
    const setup = windCave();
    sheet(setup, 'heket').stats.eva = 150; // CoS 92 - 150 = -58
    const { events } = hiroShoots(setup, 7, 10);
    expect(only(events, 'attack-made').check).toMatchObject({
      cos: -58,
      success: true,
      ruleOf10: true,
      critical: false,
    });
    const damage = only(events, 'damage-dealt');
    expect(damage.breakdown).toBe('30 - ARM 10 = 20');
    const miss = hiroShoots(setup, 11);
    expect(only(miss.events, 'attack-made').check).toMatchObject({
      success: false,
      ruleOf10: false,
    });
  });

  it('at a CoS of 6, a 4 is a Critical Hit and a 7 a Rule of 10 hit (ruling)', () => {
    const setup = windCave();
    sheet(setup, 'heket').stats.eva = 86; // CoS 92 - 86 = 6
    const crit = only(hiroShoots(setup, 4, 10).events, 'attack-made').check;
    expect(crit).toMatchObject({ cos: 6, success: true, critical: true, ruleOf10: false });
    const lucky = only(hiroShoots(setup, 7, 10).events, 'attack-made').check;
    expect(lucky).toMatchObject({ cos: 6, success: true, critical: false, ruleOf10: true });
  });

  it('a magical weapon is guarded against by M. EVA and reduced by M. ARM', () => {
    const setup = windCave();
    sheet(setup, 'hiro').weapon = {
      name: 'Magic Rifle',
      damage: '2*AGI + d12',
      skill: 'Guns',
      damageType: 'magical',
    };
    sheet(setup, 'heket').stats.meva = 12;
    const { events } = hiroShoots(setup, 28, 10);
    expect(only(events, 'attack-made').check).toMatchObject({
      cos: 80,
      formula: 'ACC 42 + Guns 50 - M. EVA 12',
    });
    expect(only(events, 'damage-dealt').breakdown).toBe('30 - M. ARM 5 = 25');
  });

  it('a combatant with no weapon attacks Unarmed: STR + d6, no Skill', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    const events = run(
      encounter,
      { type: 'attack', actor: 'mint', target: 'heket' },
      { 'hit:heket': d100(5), 'damage:heket': [6] },
    );
    const attack = only(events, 'attack-made');
    expect(attack.weapon).toBe('Unarmed');
    expect(attack.check).toMatchObject({ cos: 8, formula: 'ACC 30 - EVA 22', critical: true });
    // STR 8 + 6 = 14, +100% Critical = 28, - ARM 10 = 18.
    expect(only(events, 'damage-dealt')).toMatchObject({
      amount: 18,
      breakdown: '14 +100% (Critical +100%) = 28 - ARM 10 = 18',
    });
  });

  it("an elemental weapon meets the target's affinities: Air is absorbed by the Heket", () => {
    const setup = windCave();
    sheet(setup, 'hiro').weapon = {
      name: 'Wind Rifle',
      damage: '2*AGI + d12',
      skill: 'Guns',
      element: 'wind',
    };
    const { encounter, events } = hiroShoots(setup, 28, 10);
    const damage = only(events, 'damage-dealt');
    expect(damage.absorbed).toBe(true);
    // Already at full HP: absorbing heals nothing beyond the maximum.
    expect(damage.hpAfter).toBe(300);
    expect(hp(encounter, 'heket')).toBe(300);
  });

  it('the Heket attacks back on its turn with its Webbed Claw', () => {
    const encounter = start();
    beginRound(encounter);
    for (const actor of ['hiro', 'haze', 'mint']) run(encounter, { type: 'pass', actor });
    const events = run(
      encounter,
      { type: 'attack', actor: 'heket', target: 'hiro' },
      { 'hit:hiro': d100(50), 'damage:hiro': [4] },
    );
    // ACC 70 - EVA 10 = 60; 3 x STR 12 + 4 = 40 - ARM 4 = 36.
    expect(only(events, 'attack-made').check).toMatchObject({ cos: 60, success: true });
    expect(only(events, 'damage-dealt')).toMatchObject({
      amount: 36,
      hpAfter: 24,
      breakdown: '40 - ARM 4 = 36',
    });
    expect(encounter.state.phase).toBe('initiative');
    expect(encounter.state.round).toBe(1);
  });
});

describe('knock-outs and the end of the battle', () => {
  it('0 HP knocks a combatant out; with nobody left on a side the battle ends', () => {
    const encounter = start(windCave());
    run(encounter, { type: 'gm-set', target: 'heket', resource: 'hp', value: 15 });
    beginRound(encounter);
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(28), 'damage:heket': [10] },
    );
    expect(types(events)).toEqual([
      'attack-made',
      'damage-dealt',
      'knocked-out',
      'turn-ended',
      'battle-ended',
      'rewards-awarded',
    ]);
    expect(only(events, 'damage-dealt').hpAfter).toBe(0);
    expect(encounter.state.combatants.heket?.down).toBe(true);
    expect(encounter.outcome()).toEqual({
      over: true,
      winner: 'party',
      reason: 'The party stand; The Heket cannot fight on',
    });
    expect(encounter.legalActions()).toEqual([]);
    expect(encounter.state.phase).toBe('ended');
  });

  it('damage never takes HP below 0', () => {
    const encounter = start(windCave());
    run(encounter, { type: 'gm-set', target: 'heket', resource: 'hp', value: 1 });
    beginRound(encounter);
    const events = run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(5), 'damage:heket': [12] },
    );
    expect(only(events, 'damage-dealt')).toMatchObject({ amount: 54, hpAfter: 0 });
    expect(hp(encounter, 'heket')).toBe(0);
  });

  it('the enemies win when the party is down; they collect nothing', () => {
    const setup = windCave();
    for (const id of ['haze', 'mint']) sheet(setup, id).hp = 0;
    sheet(setup, 'hiro').hp = 10;
    const encounter = start(setup);
    const began = beginRound(encounter, initiative({ hiro: 1, heket: 10 }));
    expect(only(began, 'round-began').initiative.map((i) => i.id)).toEqual(['hiro', 'heket']);
    const events = run(
      encounter,
      { type: 'attack', actor: 'heket', target: 'hiro' },
      { 'hit:hiro': d100(20), 'damage:hiro': [1] },
    );
    expect(only(events, 'battle-ended')).toMatchObject({ winner: 'enemies' });
    expect(ofType(events, 'rewards-awarded')).toHaveLength(0);
    expect(encounter.state.rewards).toBeNull();
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'enemies' });
  });

  it('a side that flees loses: fleeing the Heket ends the battle for the enemies', () => {
    const setup = windCave();
    for (const id of ['haze', 'mint']) sheet(setup, id).hp = 0;
    const encounter = start(setup);
    beginRound(encounter, initiative({ hiro: 10, heket: 1 }));
    const events = run(encounter, { type: 'flee', actor: 'hiro' });
    expect(types(events)).toEqual(['fled', 'turn-ended', 'battle-ended']);
    expect(encounter.state.combatants.hiro?.fled).toBe(true);
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'enemies' });
  });

  it('a monster that flees leaves the party the winners, but not "by overcoming" it: no XP or Gil for it', () => {
    const setup = windCave();
    setup.sides[1]!.combatants.push({
      ...structuredClone(sheet(setup, 'heket')),
      id: 'heket-2',
      name: 'Heket 2',
    });
    const encounter = start(setup);
    run(encounter, { type: 'gm-set', target: 'heket-2', resource: 'hp', value: 0 });
    beginRound(encounter);
    for (const actor of ['hiro', 'haze', 'mint']) run(encounter, { type: 'pass', actor });
    const events = run(encounter, { type: 'flee', actor: 'heket' });
    expect(only(events, 'battle-ended').winner).toBe('party');
    // The knocked-out Heket 2 is worth its 1560 XP and 820 Gil; the one that fled, nothing.
    expect(only(events, 'rewards-awarded').rewards).toMatchObject({ xp: 1560, gil: 820 });
    const view = ffrpgSystem.view(encounter.state).combatants;
    expect(view.find((c) => c.id === 'heket')).toMatchObject({ out: true, fled: true });
    expect(view.find((c) => c.id === 'heket-2')).toMatchObject({ out: true, fled: false });
  });

  it('a fled or knocked-out target cannot be attacked', () => {
    const setup = windCave();
    setup.sides[1]!.combatants.push({
      ...structuredClone(sheet(setup, 'heket')),
      id: 'heket-2',
      name: 'Heket 2',
    });
    const encounter = start(setup);
    run(encounter, { type: 'gm-set', target: 'heket-2', resource: 'hp', value: 0 });
    beginRound(encounter);
    rejected(encounter, { type: 'attack', actor: 'hiro', target: 'heket-2' }, 'action/target-down');
    rejected(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'nobody' },
      'action/unknown-target',
    );
    rejected(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'haze' },
      'action/friendly-target',
    );
    rejected(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'hiro' },
      'action/friendly-target',
    );
  });

  it('nobody standing on either side is a draw: Poison takes the last of both sides at once', () => {
    const setup = windCave();
    for (const id of ['haze', 'mint']) sheet(setup, id).hp = 0;
    sheet(setup, 'hiro').hp = 1;
    sheet(setup, 'heket').hp = 1;
    for (const id of ['hiro', 'heket']) sheet(setup, id).statuses = [{ status: 'poison' }];
    const encounter = start(setup);
    const events = [...beginRound(encounter, initiative({ hiro: 1, heket: 1 }))];
    events.push(...passRound(encounter));
    expect(ofType(events, 'knocked-out').map((e) => e.target)).toEqual(['hiro', 'heket']);
    expect(only(events, 'battle-ended')).toEqual({
      type: 'battle-ended',
      winner: null,
      reason: 'no side is left standing',
    });
    expect(encounter.outcome()).toEqual({
      over: true,
      winner: null,
      reason: 'no side is left standing',
    });
    expect(ofType(events, 'rewards-awarded')).toHaveLength(0);
  });

  it('the ruleset is named and identified', () => {
    expect(ffrpg.id).toBe('ffrpg');
    expect(ffrpg.name).toBe('FFRPG 3rd Edition');
  });

  it('a setup from the starter content can be built with options', () => {
    const setup = starterSetup(windCaveSpec({ damageCap: 500, xpToKnockedOut: true }));
    expect(setup.options.damageCap).toBe(500);
    expect(setup.options.xpToKnockedOut).toBe(true);
    expect(setup.options.criticalDamagePercent).toBe(100);
  });
});
