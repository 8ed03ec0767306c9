/**
 * Helpers for the Shining Force tests: small battles on the starter content's patterns, spells
 * and items with combatants written inline, dice entered by purpose, and rejected commands
 * checked to change nothing.
 */
import { expect } from 'vitest';
import { loadContent } from '../../../src/content/index.js';
import { Encounter, type EnteredRolls } from '../../../src/engine/index.js';
import {
  type ShiningForceCommand,
  type ShiningForceEvent,
  type ShiningForceSetup,
  type ShiningForceState,
  STARTER_CONTENT_DIR,
  shiningForce,
  shiningForceKinds,
  shiningForceSetupFrom,
} from '../../../src/rulesets/shining-force/index.js';

export type SfEncounter = Encounter<
  ShiningForceSetup,
  ShiningForceState,
  ShiningForceCommand,
  ShiningForceEvent
>;
export type EventOf<T extends ShiningForceEvent['type']> = Extract<ShiningForceEvent, { type: T }>;
type Sheet = ShiningForceSetup['sides'][number]['combatants'][number];

export function library() {
  const loaded = loadContent([STARTER_CONTENT_DIR], [...shiningForceKinds]);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.library;
}

/** The example's spec, for tests that use the starter content as a whole. */
export const GATE_SPEC = {
  battlefield: { rows: ['....,...', '.f..#...', '...~~.f.', '........', '..f..#..', '........'] },
  sides: [
    {
      id: 'force',
      name: 'The Shining Force',
      force: true,
      combatants: [
        { character: 'max', at: 'B3' },
        { character: 'ken', at: 'A2' },
        { character: 'hans', at: 'A4' },
        { character: 'tao', at: 'B5' },
        { character: 'lowe', at: 'A6' },
      ],
    },
    {
      id: 'runefaust',
      name: 'Runefaust',
      combatants: [
        { monster: 'goblin', at: 'G2' },
        { monster: 'goblin', id: 'goblin-2', name: 'Goblin 2', at: 'G4' },
        { monster: 'dark-dwarf', at: 'H3' },
        { monster: 'ooze', at: 'F6' },
        { monster: 'dark-mage', at: 'H5' },
      ],
    },
  ],
};

export function gateSetup(options: Record<string, unknown> = {}): ShiningForceSetup {
  const setup = shiningForceSetupFrom(library(), { ...GATE_SPEC, options });
  if (!setup.ok) throw new Error(setup.error.message);
  return setup.value;
}

const STATS = { hp: 20, mp: 0, attack: 10, defence: 4, agility: 8, luck: 1, movement: 4 };

/** A combatant with plain stats (Attack 10, Defence 4, Agility 8, Luck 1) unless told. */
export function sheet(
  id: string,
  at: string,
  changes: Partial<Omit<Sheet, 'stats'>> & { stats?: Partial<Sheet['stats']> } = {},
): Sheet {
  return {
    id,
    name: id[0]!.toUpperCase() + id.slice(1),
    kind: 'force',
    level: 1,
    exp: 0,
    mastery: 1,
    items: [],
    spells: [],
    expReward: 0,
    gold: 0,
    ...changes,
    stats: { ...STATS, ...changes.stats },
    at,
  } as Sheet;
}

export const SWORD = { item: 'short-sword', cracked: false, equipped: true };

/**
 * A battle on a small open field (5 x 5 unless given): the Force (armed with Short Swords, +5
 * Attack, unless given items) against monsters. Turn order is by Agility alone (no spread).
 */
export function battle(
  force: readonly Sheet[],
  monsters: readonly Sheet[],
  options: Record<string, unknown> = {},
  rows: readonly string[] = ['.....', '.....', '.....', '.....', '.....'],
): ShiningForceSetup {
  const base = gateSetup();
  const parsed = shiningForce.parseSetup({
    ...base,
    battlefield: { ...base.battlefield, rows },
    sides: [
      {
        id: 'force',
        name: 'The Force',
        force: true,
        combatants: force.map((c) => ({
          ...c,
          kind: 'force',
          items: c.items.length === 0 ? [SWORD] : c.items,
        })),
      },
      {
        id: 'monsters',
        name: 'Monsters',
        combatants: monsters.map((c) => ({ ...c, kind: 'monster' })),
      },
    ],
    options: { ...base.options, turnOrderSpread: 0, ...options },
  });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

export function start(setup: ShiningForceSetup, seed: number | string = 1): SfEncounter {
  const created = Encounter.create(shiningForce, setup, seed);
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

/** Starts the battle (turn order) and returns the encounter. */
export function begin(setup: ShiningForceSetup, seed: number | string = 1): SfEncounter {
  const encounter = start(setup, seed);
  run(encounter, { type: 'begin-battle' });
  return encounter;
}

export function run(
  encounter: SfEncounter,
  command: ShiningForceCommand | Record<string, unknown>,
  entered?: EnteredRolls,
): readonly ShiningForceEvent[] {
  const result = encounter.submit(command, entered === undefined ? {} : { entered });
  if (!result.ok)
    throw new Error(
      `${JSON.stringify(command)} was rejected: ${result.error.code}: ${result.error.message}`,
    );
  return result.value;
}

export function snapshot(encounter: SfEncounter): string {
  return JSON.stringify({ state: encounter.state, log: encounter.log, dice: encounter.diceState });
}

export function rejected(encounter: SfEncounter, command: unknown, code: string): string {
  const before = snapshot(encounter);
  const result = encounter.submit(command);
  expect(result.ok).toBe(false);
  if (result.ok) return '';
  expect(result.error.code).toBe(code);
  expect(snapshot(encounter)).toBe(before);
  return result.error.message;
}

export function ofType<T extends ShiningForceEvent['type']>(
  events: readonly ShiningForceEvent[],
  type: T,
): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

export function whoseTurn(encounter: SfEncounter): string | undefined {
  const s = encounter.state;
  return s.step === null ? undefined : s.order[s.cursor];
}

/** Five d100s for an attack on `target` (the third is the one critical roll of mastery 1). */
export function attackDice(
  target: string,
  [hit, variance, critical, counter, counterVariance]: readonly [
    number,
    number,
    number,
    number,
    number,
  ],
  extra: EnteredRolls = {},
): EnteredRolls {
  return {
    [`hit:${target}`]: [hit],
    [`variance:${target}`]: [variance],
    [`critical:${target}`]: [critical],
    [`counter:${target}`]: [counter],
    [`counter-variance:${target}`]: [counterVariance],
    ...extra,
  };
}
