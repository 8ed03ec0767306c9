/**
 * Helpers for the ZODIAC tests: an inline Keef-and-the-ogre setup to change per test, entering
 * dice by purpose, and checking that a rejected command changes nothing.
 */
import { expect } from 'vitest';
import {
  Encounter,
  type EngineError,
  type EnteredRolls,
  type SubmitOptions,
} from '../../../src/engine/index.js';
import {
  type ZodiacCommand,
  type ZodiacEvent,
  type ZodiacSetup,
  type ZodiacSetupInput,
  type ZodiacState,
  zodiac,
} from '../../../src/rulesets/zodiac/index.js';

export type ZodiacEncounter = Encounter<ZodiacSetup, ZodiacState, ZodiacCommand, ZodiacEvent>;
export type EventOf<T extends ZodiacEvent['type']> = Extract<ZodiacEvent, { type: T }>;
export type CombatantInput = ZodiacSetupInput['sides'][number]['combatants'][number];

/** Keef the Thief, Speed 20: sample numbers besides his Speed. */
export function keef(changes: Partial<CombatantInput> = {}): CombatantInput {
  return {
    id: 'keef',
    name: 'Keef',
    kind: 'character',
    stats: {
      hp: 400,
      mp: 40,
      speed: 20,
      accuracy: 40,
      evade: 50,
      critical: 95,
      attackPower: 20,
      strengthDice: 1,
      magicAccuracy: 30,
      resist: 40,
      magicDice: 2,
      map: 30,
    },
    weapon: {
      name: 'Poison Dagger',
      die: 4,
      attackPower: 10,
      inflicts: [{ status: 'poison', ticks: 4, check: 'automatic' }],
    },
    ...changes,
  };
}

/** The ogre, Speed 11. */
export function ogre(changes: Partial<CombatantInput> = {}): CombatantInput {
  return {
    id: 'ogre',
    name: 'Ogre',
    kind: 'monster',
    stats: {
      hp: 1000,
      speed: 11,
      accuracy: 30,
      evade: 30,
      critical: 97,
      attackPower: 40,
      strengthDice: 1,
      resist: 20,
    },
    weapon: { name: 'Club', die: 10, attackPower: 10 },
    ...changes,
  };
}

/** Techs the tests use, by id. */
export const TECHS: NonNullable<ZodiacSetupInput['techs']> = {
  meltdown: {
    name: 'Meltdown',
    type: 'magic',
    mpCost: 10,
    damage: { dice: 0, power: 0, die: 10, element: 'fire' },
  },
  fire: {
    name: 'Fire',
    type: 'magic',
    mpCost: 5,
    damage: { dice: 0, power: 10, die: 6, element: 'fire' },
  },
  cure: { name: 'Cure', type: 'magic', mpCost: 5, heal: { dice: 0, power: 20, die: 8 } },
  life: { name: 'Life', type: 'magic', mpCost: 10, revive: { hpPercent: 25 } },
  sleep: { name: 'Sleep', type: 'magic', mpCost: 5, inflicts: [{ status: 'sleep', ticks: 3 }] },
  haste: { name: 'Haste', type: 'magic', mpCost: 5, inflicts: [{ status: 'haste' }] },
  slow: { name: 'Slow', type: 'magic', mpCost: 5, inflicts: [{ status: 'slow', ticks: 6 }] },
  wall: { name: 'Wall', type: 'magic', mpCost: 5, inflicts: [{ status: 'wall' }] },
  dispel: { name: 'Dispel', type: 'magic', mpCost: 5, dispel: 'positive' },
  'power-strike': {
    name: 'Power Strike',
    type: 'weapon',
    mpCost: 6,
    damage: { dice: 1, power: 20 },
  },
  blizzard: {
    name: 'Blizzard',
    type: 'magic',
    mpCost: 5,
    target: 'enemies',
    damage: { dice: 0, power: 50, die: 6, element: 'ice' },
  },
};

export const ITEMS: NonNullable<ZodiacSetupInput['items']> = {
  potion: { name: 'Potion', restoreHp: 100 },
  'phoenix-down': { name: 'Phoenix Down', revive: { hpPercent: 10 } },
  antidote: { name: 'Antidote', cures: ['poison'] },
};

/** Keef against the ogre unless told otherwise. */
export function duel(
  left: CombatantInput[] = [keef()],
  right: CombatantInput[] = [ogre()],
  options: ZodiacSetupInput['options'] = {},
): ZodiacSetupInput {
  return {
    sides: [
      { id: 'party', name: 'The party', party: true, combatants: left },
      { id: 'monsters', name: 'The monsters', combatants: right },
    ],
    techs: TECHS,
    items: ITEMS,
    options: options as ZodiacSetupInput['options'],
  };
}

export function start(setup: unknown = duel(), seed: number | string = 1): ZodiacEncounter {
  const created = Encounter.create(zodiac, setup, seed);
  if (!created.ok) throw new Error(`${created.error.code}: ${created.error.message}`);
  return created.value;
}

/** Submits a command that must be accepted; returns its events. */
export function run(
  encounter: ZodiacEncounter,
  command: ZodiacCommand | Record<string, unknown>,
  entered?: EnteredRolls,
  options: SubmitOptions = {},
): readonly ZodiacEvent[] {
  const result = encounter.submit(command, { ...options, ...(entered ? { entered } : {}) });
  if (!result.ok)
    throw new Error(
      `${JSON.stringify(command)} was rejected: ${result.error.code}: ${result.error.message}`,
    );
  return result.value;
}

export function snapshot(encounter: ZodiacEncounter): string {
  return JSON.stringify({ state: encounter.state, log: encounter.log, dice: encounter.diceState });
}

/** Submits a command that must be rejected with `code`, and checks that nothing changed. */
export function rejected(
  encounter: ZodiacEncounter,
  command: unknown,
  code: string,
  options: SubmitOptions = {},
): EngineError {
  const before = snapshot(encounter);
  const result = encounter.submit(command, options);
  expect(result.ok, `expected ${JSON.stringify(command)} to be rejected with ${code}`).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.error.code).toBe(code);
  expect(snapshot(encounter)).toBe(before);
  return result.error;
}

export function ofType<T extends ZodiacEvent['type']>(
  events: readonly ZodiacEvent[],
  type: T,
): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

export function only<T extends ZodiacEvent['type']>(
  events: readonly ZodiacEvent[],
  type: T,
): EventOf<T> {
  const found = ofType(events, type);
  expect(found, `exactly one ${type} event`).toHaveLength(1);
  return found[0]!;
}

/** The first-round d8s: `{ keef: 3, ogre: 1 }`. */
export function d8s(faces: Readonly<Record<string, number>>): EnteredRolls {
  return Object.fromEntries(Object.entries(faces).map(([id, face]) => [`sp:${id}`, [face]]));
}

export function begin(
  encounter: ZodiacEncounter,
  faces: Readonly<Record<string, number>> = { keef: 3, ogre: 1 },
): readonly ZodiacEvent[] {
  return run(encounter, { type: 'begin-battle' }, d8s(faces));
}

export function whoseTurn(encounter: ZodiacEncounter): string | undefined {
  const s = encounter.state;
  return s.phase === 'ticks' ? s.queue[s.cursor]?.id : undefined;
}

export function sp(encounter: ZodiacEncounter, id: string): number {
  return encounter.state.combatants[id]!.sp;
}

export function hp(encounter: ZodiacEncounter, id: string): number {
  return encounter.state.combatants[id]!.hp;
}

export function statuses(encounter: ZodiacEncounter, id: string): string[] {
  return encounter.state.combatants[id]!.statuses.map((s) => s.status);
}

/** An attack by whoever's turn it is, with its d100 and damage dice entered. */
export function attack(
  encounter: ZodiacEncounter,
  actor: string,
  target: string,
  natural: number,
  damage?: number[],
): readonly ZodiacEvent[] {
  const entered: Record<string, number[]> = { [`hit:${target}`]: [natural] };
  if (damage !== undefined) entered[`damage:${target}`] = damage;
  return run(encounter, { type: 'attack', actor, target }, entered);
}
