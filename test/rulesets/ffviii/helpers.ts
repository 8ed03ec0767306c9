/**
 * Helpers for the FFVIII tests: the text's running example (Ehlric Lineas against an Iron Giant)
 * from examples/ffviii-iron-giant.yaml, setups changed from it, entering action dice, and
 * checking that a refused command changes nothing.
 */
import { expect } from 'vitest';
import { readEncounterFile } from '../../../src/encounters/file.js';
import {
  Encounter,
  type EngineError,
  type EnteredRolls,
  type SubmitOptions,
} from '../../../src/engine/index.js';
import {
  type FfviiiCommand,
  type FfviiiEvent,
  type FfviiiSetup,
  type FfviiiState,
  ffviii,
} from '../../../src/rulesets/ffviii/index.js';
import { SYSTEMS } from '../../../src/rulesets/index.js';

export type FfviiiEncounter = Encounter<FfviiiSetup, FfviiiState, FfviiiCommand, FfviiiEvent>;
export type EventOf<T extends FfviiiEvent['type']> = Extract<FfviiiEvent, { type: T }>;
export type Sheet = FfviiiSetup['sides'][number]['combatants'][number];

export const EHLRIC = 'ehlric';
export const GIANT = 'iron-giant';

let example: FfviiiSetup | undefined;

/** The example encounter file's setup, read once; every call returns a fresh deep copy. */
export function ironGiant(): FfviiiSetup {
  if (example === undefined) {
    const read = readEncounterFile('examples/ffviii-iron-giant.yaml', SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    expect(read.encounter.system.ruleset.id).toBe('ffviii');
    const parsed = ffviii.parseSetup(read.encounter.setup);
    if (!parsed.ok) throw new Error(parsed.error.message);
    example = parsed.value;
  }
  return structuredClone(example);
}

/** A combatant of a setup, to change before the encounter starts. */
export function sheetOf(setup: FfviiiSetup, id: string): Sheet {
  for (const side of setup.sides) {
    const found = side.combatants.find((c) => c.id === id);
    if (found !== undefined) return found;
  }
  throw new Error(`no combatant ${id} in the setup`);
}

/** The example with changes made to a copy of it. */
export function ironGiantWith(change: (setup: FfviiiSetup) => void): FfviiiSetup {
  const setup = ironGiant();
  change(setup);
  return setup;
}

/** Starts an encounter or fails the test with the setup error. */
export function start(setup: unknown = ironGiant(), seed: number | string = 1): FfviiiEncounter {
  const created = Encounter.create(ffviii, setup, seed);
  if (!created.ok) throw new Error(`${created.error.code}: ${created.error.message}`);
  return created.value;
}

/** Submits a command that must be accepted; returns its events. */
export function run(
  encounter: FfviiiEncounter,
  command: FfviiiCommand | Record<string, unknown>,
  entered?: EnteredRolls,
  options: SubmitOptions = {},
): readonly FfviiiEvent[] {
  const result = encounter.submit(command, { ...options, ...(entered ? { entered } : {}) });
  if (!result.ok) {
    throw new Error(
      `${JSON.stringify(command)} was rejected: ${result.error.code}: ${result.error.message}`,
    );
  }
  return result.value;
}

/** Everything a command could change: the state, the log and the seeded dice. */
export function snapshot(encounter: FfviiiEncounter): string {
  return JSON.stringify({
    state: encounter.state,
    log: encounter.log,
    dice: encounter.diceState,
    undoable: encounter.undoable,
    redoable: encounter.redoable,
  });
}

/** Submits a command that must be refused with `code`, and checks that nothing changed. */
export function rejected(
  encounter: FfviiiEncounter,
  command: unknown,
  code: string,
  options: SubmitOptions = {},
): EngineError {
  const before = snapshot(encounter);
  const result = encounter.submit(command, options);
  expect(result.ok, `expected ${JSON.stringify(command)} to be refused with ${code}`).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.error.code).toBe(code);
  expect(result.error.message.length).toBeGreaterThan(0);
  expect(snapshot(encounter)).toBe(before);
  return result.error;
}

export function ofType<T extends FfviiiEvent['type']>(
  events: readonly FfviiiEvent[],
  type: T,
): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

export function only<T extends FfviiiEvent['type']>(
  events: readonly FfviiiEvent[],
  type: T,
): EventOf<T> {
  const found = ofType(events, type);
  expect(found, `exactly one ${type} event`).toHaveLength(1);
  return found[0]!;
}

export function types(events: readonly FfviiiEvent[]): string[] {
  return events.map((e) => e.type);
}

/** Initiative d10s by combatant: `{ ehlric: 8, 'iron-giant': 9 }`. */
export function initiative(d10s: Readonly<Record<string, number>>): EnteredRolls {
  return Object.fromEntries(Object.entries(d10s).map(([id, face]) => [`initiative:${id}`, [face]]));
}

/**
 * "Fnord rolls the initiative dice and gets a 8 ... The GM rolls a die for the Iron Giant and
 * gets an 9": Ehlric 16, the Iron Giant 12.
 */
export const TEXT_INITIATIVE = initiative({ [EHLRIC]: 8, [GIANT]: 9 });

export function beginRound(
  encounter: FfviiiEncounter,
  entered: EnteredRolls = TEXT_INITIATIVE,
): readonly FfviiiEvent[] {
  return run(encounter, { type: 'begin-round' }, entered);
}

/** One exploding d6 showing `value`: 9 is [6, 3]. A multiple of 6 cannot be shown. */
function explodingFaces(value: number): number[] {
  if (value < 1 || value % 6 === 0) throw new Error(`one exploding d6 never totals ${value}`);
  return [...Array<number>(Math.floor(value / 6)).fill(6), value % 6];
}

/**
 * Faces of the action dice (`1d6!-1d6!`, the positive die first) that roll `n`, never boxcars:
 * -4 is [1, 5], 0 is [1, 1], 5 is [6, 1, 1] (an exploding 6 then 1, minus 1).
 */
export function rollOf(n: number): number[] {
  let positive = n >= 0 ? n + 1 : 1;
  let negative = n >= 0 ? 1 : 1 - n;
  if (positive % 6 === 0 || negative % 6 === 0) {
    positive += 1;
    negative += 1;
  }
  return [...explodingFaces(positive), ...explodingFaces(negative)];
}

/** The combatant's state now. */
export function who(encounter: FfviiiEncounter, id: string): FfviiiState['combatants'][string] {
  const c = encounter.state.combatants[id];
  if (c === undefined) throw new Error(`no combatant ${id}`);
  return c;
}

export function hp(encounter: FfviiiEncounter, id: string): number {
  return who(encounter, id).hp;
}

export function shotOf(encounter: FfviiiEncounter, id: string): number {
  return who(encounter, id).shot;
}

/**
 * Declares an attack, a hostile spell, a thrown item or a summon whose target may dodge, then
 * answers for the target with the attacker's dice entered under `purpose` (the roll happens on
 * the answer). Returns the events of both commands.
 */
export function declareAndAnswer(
  encounter: FfviiiEncounter,
  command: FfviiiCommand,
  answer: 'dodge' | 'take-it',
  purpose: string,
  faces: readonly number[],
): { declared: readonly FfviiiEvent[]; answered: readonly FfviiiEvent[] } {
  const declared = run(encounter, command);
  expect(encounter.state.phase, 'the target is offered a dodge').toBe('dodge');
  const target = encounter.state.pending!.target;
  const answered = run(encounter, { type: answer, actor: target }, { [purpose]: [...faces] });
  return { declared, answered };
}

/** A staff swing or other attack whose target does not dodge: the roll is entered on take-it. */
export function attackTaken(
  encounter: FfviiiEncounter,
  actor: string,
  target: string,
  faces: readonly number[],
  weapon?: string,
): readonly FfviiiEvent[] {
  return declareAndAnswer(
    encounter,
    { type: 'attack', actor, target, ...(weapon === undefined ? {} : { weapon }) },
    'take-it',
    `attack:${target}`,
    faces,
  ).answered;
}

/** Who the called shot waits on, in encounter order (the first of those acting on it). */
export function acting(encounter: FfviiiEncounter): string[] {
  const state = encounter.state;
  if (state.phase !== 'shots') return [];
  return state.order.filter((id) => {
    const c = state.combatants[id]!;
    return !c.down && !c.fled && c.shot === state.shot;
  });
}
