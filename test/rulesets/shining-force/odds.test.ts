/**
 * Odds against sampled play: for every legal action with a target, the exact mean damage and
 * knock-out chance the odds give must be what thousands of decided commands give, at a fixed
 * seed (so the test never flakes).
 */
import { describe, expect, it } from 'vitest';
import { CommandDice } from '../../../src/engine/index.js';
import { seededDice } from '../../../src/index.js';
import {
  type ShiningForceCommand,
  type ShiningForceEvent,
  type ShiningForceState,
  shiningForce,
  shiningForceSystem,
} from '../../../src/rulesets/shining-force/index.js';
import { battle, begin, gateSetup, run, type SfEncounter, sheet } from './helpers.js';

const held = (item: string, equipped = false, cracked = false) => ({ item, equipped, cracked });

interface Sampled {
  meanDamage: number;
  sd: number;
  knockOut: number;
  events: ShiningForceEvent[][];
}

/** Decides the command `n` times on one seeded stream. */
function sample(
  state: ShiningForceState,
  command: ShiningForceCommand,
  target: string,
  n: number,
): Sampled {
  const stream = seededDice(20261130);
  let sum = 0;
  let squares = 0;
  let knocked = 0;
  const events: ShiningForceEvent[][] = [];
  for (let i = 0; i < n; i++) {
    const resolved = shiningForce.resolve!(
      state,
      command,
      new CommandDice(stream, { explain: false }),
    );
    if (!resolved.ok) throw new Error(resolved.error.message);
    let damage = 0;
    for (const event of resolved.value.events) {
      const dealt = shiningForceSystem.damageOf(event);
      if (dealt?.target === target) damage += dealt.amount;
    }
    sum += damage;
    squares += damage * damage;
    const after = shiningForceSystem.brief(resolved.value.state);
    if (after.combatants.find((c) => c.id === target)?.out) knocked++;
    events.push([...resolved.value.events]);
  }
  const meanDamage = sum / n;
  return {
    meanDamage,
    sd: Math.sqrt(Math.max(0, squares / n - meanDamage ** 2)),
    knockOut: knocked / n,
    events,
  };
}

function expectOddsMatchPlay(state: ShiningForceState, n = 1500): number {
  let checked = 0;
  for (const action of shiningForce.legalActions(state)) {
    const odds = shiningForceSystem.odds(state, action.command);
    if (action.command.type === 'move' || action.command.type === 'begin-battle') {
      expect(odds).toBeUndefined();
      continue;
    }
    expect(odds, action.label).toBeDefined();
    expect(odds!.summary.length, action.label).toBeLessThanOrEqual(48);
    if (odds!.target === undefined) continue;
    const played = sample(state, action.command, odds!.target, n);
    const meanSlack = (4 * played.sd) / Math.sqrt(n) + 0.05;
    expect(
      Math.abs(played.meanDamage - odds!.meanDamage!),
      `${action.label} mean damage`,
    ).toBeLessThan(meanSlack);
    const p = odds!.knockOut!;
    const koSlack = 4 * Math.sqrt((p * (1 - p)) / n) + 0.01;
    expect(Math.abs(played.knockOut - p), `${action.label} knock-out`).toBeLessThan(koSlack);
    checked++;
  }
  return checked;
}

/** The Gate with everyone drawn close: attacks, spells and items all in reach. */
function crowdedGate(seed: number): SfEncounter {
  const e = begin(gateSetup(), seed);
  const places: Record<string, string> = {
    max: 'D4',
    ken: 'C4',
    hans: 'B4',
    tao: 'C5',
    lowe: 'D5',
    goblin: 'E4',
    'goblin-2': 'E5',
    'dark-dwarf': 'F4',
    ooze: 'C6',
    'dark-mage': 'E6',
  };
  for (const [target, to] of Object.entries(places)) run(e, { type: 'gm-move', target, to });
  return e;
}

describe('odds against sampled play', () => {
  it('the Gate as it begins: every action but a move has odds', () => {
    const e = begin(gateSetup(), 1);
    expectOddsMatchPlay(e.state);
  });

  it('the Gate crowded, and a few turns in: attacks, spells and items match play', () => {
    let checked = 0;
    for (const seed of [1, 2, 3]) {
      const e = crowdedGate(seed);
      checked += expectOddsMatchPlay(e.state, 1200);
      // Two turns further, whatever is first on the list (an attack where there is one).
      for (let i = 0; i < 2 && !e.outcome().over; i++) run(e, e.legalActions()[0]!.command);
      if (!e.outcome().over) checked += expectOddsMatchPlay(e.state, 1200);
    }
    expect(checked).toBeGreaterThan(10);
  }, 60_000);
});

describe('counters', () => {
  it('are 0% when the defender cannot reach the attacker from where it stands', () => {
    const e = begin(
      battle(
        [sheet('hans', 'A1', { items: [held('wooden-arrow', true)], stats: { agility: 20 } })],
        [sheet('goblin', 'C1', { stats: { luck: 30 } })],
      ),
    );
    const command = { type: 'attack', actor: 'hans', target: 'goblin' } as const;
    const odds = shiningForceSystem.odds(e.state, command)!;
    expect(odds.summary).toMatch(/ctr 0%$/);
    expect(odds.lines).toContain('  counter 0%: Goblin cannot strike back (out of reach)');
    const played = sample(e.state, command, 'goblin', 300);
    expect(played.events.flat().some((ev) => ev.type === 'damage-dealt' && ev.counter)).toBe(false);
  });

  it('happen as often as the odds say when the defender can reach', () => {
    const e = begin(
      battle(
        [sheet('max', 'A1', { stats: { agility: 20 } })],
        [sheet('goblin', 'B1', { stats: { luck: 30, agility: 16 } })],
      ),
    );
    const command = { type: 'attack', actor: 'max', target: 'goblin' } as const;
    const odds = shiningForceSystem.odds(e.state, command)!;
    // Evade 4 + 30 = 34: hits 66%; critical 1%: 99% of hits are not; counter 2 + 30 = 32%.
    expect(odds.chance).toBeCloseTo(0.66);
    const played = sample(e.state, command, 'goblin', 4000);
    const counters = played.events.filter((evs) =>
      evs.some((ev) => ev.type === 'damage-dealt' && ev.counter),
    );
    expect(counters.length / 4000).toBeCloseTo(0.66 * 0.99 * 0.32, 1);
  });
});

describe('spells and items', () => {
  it("a status spell's chance against Luck is what play gives (Sleep 1, 70% less 10% a point)", () => {
    const e = begin(
      battle(
        [
          sheet('tao', 'A1', {
            spells: ['sleep-1'],
            stats: { mp: 10, luck: 2, agility: 20 },
            items: [held('wooden-staff', true)],
          }),
        ],
        [sheet('goblin', 'C1', { stats: { luck: 5 } })],
      ),
    );
    const command = { type: 'cast', actor: 'tao', spell: 'sleep-1', target: 'goblin' } as const;
    const odds = shiningForceSystem.odds(e.state, command)!;
    // 3 points of Luck: 70 -> 63 -> 56 -> 51 (the 'multiply' reading).
    expect(odds.status).toBeCloseTo(0.51);
    expect(odds.cost).toBe('6 MP of 10');
    expect(odds.summary).toBe('sleep 51%');
    const played = sample(e.state, command, 'goblin', 3000);
    const slept = played.events.filter((evs) =>
      evs.some((ev) => ev.type === 'status-inflicted'),
    ).length;
    expect(Math.abs(slept / 3000 - 0.51)).toBeLessThan(0.04);
  });

  it("Desoul's knock-out chance, and Blaze's damage, match play", () => {
    const e = begin(
      battle(
        [
          sheet('mage', 'A1', {
            spells: ['desoul-1', 'blaze-1'],
            stats: { mp: 20, luck: 6, agility: 20 },
            items: [held('wooden-staff', true)],
          }),
        ],
        [sheet('syntesis', 'B1', { stats: { luck: 9, hp: 5 } })],
      ),
    );
    expectOddsMatchPlay(e.state, 3000);
    const desoul = shiningForceSystem.odds(e.state, {
      type: 'cast',
      actor: 'mage',
      spell: 'desoul-1',
      target: 'syntesis',
    })!;
    // "the usual 70% success rate of desoul would drop to 50%" (51% under 'multiply').
    expect(desoul.knockOut).toBeCloseTo(0.51);
  });

  it('items give healing, and whether they are used up or may crack', () => {
    const e = begin(
      battle(
        [
          sheet('lowe', 'A1', {
            items: [held('wooden-staff', true), held('medical-herb'), held('shower-of-cure')],
            stats: { agility: 20 },
          }),
          sheet('max', 'A2', { hp: 3 }),
        ],
        [sheet('goblin', 'E5')],
      ),
    );
    const herb = shiningForceSystem.odds(e.state, {
      type: 'use',
      actor: 'lowe',
      item: 'medical-herb',
      target: 'max',
    })!;
    expect(herb.summary).toBe('heal 10 · used up');
    expect(herb.lines).toContain('  Max: heals 10 (to 13 HP)');
    const shower = shiningForceSystem.odds(e.state, {
      type: 'use',
      actor: 'lowe',
      item: 'shower-of-cure',
      target: 'max',
    })!;
    expect(shower.summary).toBe('heal 15 · cracks 30%');
    const command = { type: 'use', actor: 'lowe', item: 'shower-of-cure', target: 'max' } as const;
    const played = sample(e.state, command, 'max', 2000);
    const cracked = played.events.filter((evs) =>
      evs.some((ev) => ev.type === 'item-condition' && ev.result === 'cracked'),
    );
    expect(Math.abs(cracked.length / 2000 - 0.3)).toBeLessThan(0.04);
    expect(shiningForceSystem.odds(e.state, { type: 'stay', actor: 'lowe' })!.summary).toBe(
      'no roll',
    );
  });
});
