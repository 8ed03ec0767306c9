/**
 * Helpers for the FFRPG battle tests: starting encounters from the inline fixture or the starter
 * content, entering dice, playing rounds, and checking that a rejected command changes nothing.
 */
import { expect } from 'vitest';
import { type ContentLibrary, loadContent } from '../../../src/content/index.js';
import {
  Encounter,
  type EngineError,
  type EnteredRolls,
  type SubmitOptions,
} from '../../../src/engine/index.js';
import {
  type FfrpgCommand,
  type FfrpgEvent,
  type FfrpgSetup,
  type FfrpgSetupInput,
  type FfrpgState,
  ffrpg,
  ffrpgKinds,
  ffrpgSetupFrom,
  STARTER_CONTENT_DIR,
} from '../../../src/rulesets/ffrpg/index.js';
import { windCave } from './fixtures.js';

export type FfrpgEncounter = Encounter<FfrpgSetup, FfrpgState, FfrpgCommand, FfrpgEvent>;
export type EventOf<T extends FfrpgEvent['type']> = Extract<FfrpgEvent, { type: T }>;
type SideInput = FfrpgSetupInput['sides'][number];
export type CombatantInput = SideInput['combatants'][number];

/** Starts an encounter or fails the test with the setup error. */
export function start(setup: unknown = windCave(), seed: number | string = 1): FfrpgEncounter {
  const created = Encounter.create(ffrpg, setup, seed);
  if (!created.ok) throw new Error(`${created.error.code}: ${created.error.message}`);
  return created.value;
}

/**
 * The two d10 of a d%, called (tens) die first, as a GM enters them: 28 is [2, 8], 70 is
 * [7, 0], 5 is [0, 5], 10 is [1, 0] and 100 is [0, 0] ("0 and 0 always equal 100").
 */
export function d100(n: number): number[] {
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new Error(`no d% shows ${n}`);
  if (n === 100) return [0, 0];
  return [Math.floor(n / 10), n % 10];
}

/**
 * Submits with entered dice written as faces, as the text gives them ("Rob: (rolling) 10. 30
 * Physical damage": `[10]` on 2*AGI + d12; "Rodger rolls ... 6", the Heket's d10 before its
 * SPD). Faces entered are faces, so this is a plain submit.
 */
export function submitFaces(
  encounter: FfrpgEncounter,
  command: unknown,
  entered: EnteredRolls | undefined,
  options: SubmitOptions = {},
): ReturnType<FfrpgEncounter['submit']> {
  return encounter.submit(command, { ...options, ...(entered ? { entered } : {}) });
}

/** Submits a command that must be accepted; returns its events. */
export function run(
  encounter: FfrpgEncounter,
  command: FfrpgCommand | Record<string, unknown>,
  entered?: EnteredRolls,
  options: SubmitOptions = {},
): readonly FfrpgEvent[] {
  const result = submitFaces(encounter, command, entered, options);
  if (!result.ok) {
    throw new Error(
      `${JSON.stringify(command)} was rejected: ${result.error.code}: ${result.error.message}`,
    );
  }
  return result.value;
}

/** Everything a command could change: the state, the log and the seeded dice. */
export function snapshot(encounter: FfrpgEncounter): string {
  return JSON.stringify({
    state: encounter.state,
    log: encounter.log,
    dice: encounter.diceState,
    undoable: encounter.undoable,
    redoable: encounter.redoable,
  });
}

/** Submits a command that must be rejected with `code`, and checks that nothing changed. */
export function rejected(
  encounter: FfrpgEncounter,
  command: unknown,
  code: string,
  options: SubmitOptions = {},
): EngineError {
  const before = snapshot(encounter);
  const result = encounter.submit(command, options);
  expect(result.ok, `expected ${JSON.stringify(command)} to be rejected with ${code}`).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.error.code).toBe(code);
  expect(result.error.message.length).toBeGreaterThan(0);
  expect(snapshot(encounter)).toBe(before);
  return result.error;
}

export function ofType<T extends FfrpgEvent['type']>(
  events: readonly FfrpgEvent[],
  type: T,
): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

export function only<T extends FfrpgEvent['type']>(
  events: readonly FfrpgEvent[],
  type: T,
): EventOf<T> {
  const found = ofType(events, type);
  expect(found, `exactly one ${type} event`).toHaveLength(1);
  return found[0]!;
}

export function types(events: readonly FfrpgEvent[]): string[] {
  return events.map((e) => e.type);
}

/** "Hiro ... 15. Haze: 14 over here. Mint: 12. Rodger rolls ... 6": the Playguide's d10s. */
export const PLAYGUIDE_INITIATIVE: EnteredRolls = {
  'initiative:hiro': [10],
  'initiative:haze': [6],
  'initiative:mint': [4],
  'initiative:heket': [6],
};

/** Initiative d10s for every combatant: `{ hiro: 10, heket: 6 }`. */
export function initiative(d10s: Readonly<Record<string, number>>): EnteredRolls {
  return Object.fromEntries(Object.entries(d10s).map(([id, face]) => [`initiative:${id}`, [face]]));
}

export function beginRound(
  encounter: FfrpgEncounter,
  entered: EnteredRolls = PLAYGUIDE_INITIATIVE,
): readonly FfrpgEvent[] {
  return run(encounter, { type: 'begin-round' }, entered);
}

/** Whose turn it is, if the countdown waits on a combatant. */
export function whoseTurn(encounter: FfrpgEncounter): string | undefined {
  const state = encounter.state;
  if (state.phase !== 'action') return undefined;
  const entry = state.timeline[state.cursor];
  return entry?.kind === 'combatant' ? entry.id : undefined;
}

/** Everyone left in the round passes, so the Status Phase runs; returns the events. */
export function passRound(encounter: FfrpgEncounter): FfrpgEvent[] {
  const events: FfrpgEvent[] = [];
  let guard = 0;
  while (encounter.state.phase === 'action') {
    const actor = whoseTurn(encounter);
    if (actor === undefined) throw new Error('the countdown waits on nobody');
    events.push(...run(encounter, { type: 'pass', actor }));
    if (++guard > 100) throw new Error('the round does not end');
  }
  return events;
}

/** A full round in which nobody does anything: Initiative, everyone passes, Status Phase. */
export function quietRound(
  encounter: FfrpgEncounter,
  entered: EnteredRolls = PLAYGUIDE_INITIATIVE,
): FfrpgEvent[] {
  const events = [...beginRound(encounter, entered)];
  events.push(...passRound(encounter));
  return events;
}

export function hp(encounter: FfrpgEncounter, id: string): number {
  return encounter.state.combatants[id]!.hp;
}

export function mp(encounter: FfrpgEncounter, id: string): number {
  return encounter.state.combatants[id]!.mp;
}

export function statusesOf(
  encounter: FfrpgEncounter,
  id: string,
): FfrpgState['combatants'][string]['statuses'] {
  return encounter.state.combatants[id]!.statuses;
}

/** A combatant of an inline setup, to change before the encounter starts. */
export function sheet(setup: FfrpgSetupInput, id: string): CombatantInput {
  for (const side of setup.sides) {
    const found = side.combatants.find((c) => c.id === id);
    if (found !== undefined) return found;
  }
  throw new Error(`no combatant ${id} in the setup`);
}

/** The fixture with extra abilities defined and given to combatants. */
export function windCaveWith(
  abilities: Record<string, unknown>,
  given: Readonly<Record<string, readonly string[]>> = {},
  overrides: Partial<FfrpgSetupInput> = {},
): FfrpgSetupInput {
  const setup = windCave(overrides);
  setup.abilities = {
    ...(setup.abilities ?? {}),
    ...(abilities as NonNullable<FfrpgSetupInput['abilities']>),
  };
  for (const [id, list] of Object.entries(given)) {
    const c = sheet(setup, id);
    c.abilities = [...(c.abilities ?? []), ...list];
  }
  return setup;
}

let library: ContentLibrary | undefined;

/** The starter content (content/ffrpg), loaded once. */
export function starterLibrary(): ContentLibrary {
  if (library !== undefined) return library;
  const loaded = loadContent(STARTER_CONTENT_DIR, ffrpgKinds);
  if (!loaded.ok) {
    throw new Error(
      `the starter content does not load: ${loaded.errors.map((e) => JSON.stringify(e)).join('; ')}`,
    );
  }
  library = loaded.library;
  return library;
}

/** The Wind Cave fight from the starter content: Hiro, Haze and Mint against the Heket. */
export function windCaveSpec(options: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sides: [
      {
        id: 'party',
        name: 'The party',
        party: true,
        combatants: [{ character: 'hiro' }, { character: 'haze' }, { character: 'mint' }],
      },
      { id: 'enemies', name: 'The Heket', combatants: [{ monster: 'heket' }] },
    ],
    levelTable: 'standard',
    options,
  };
}

export function starterSetup(spec: unknown = windCaveSpec()): FfrpgSetup {
  const setup = ffrpgSetupFrom(starterLibrary(), spec);
  if (!setup.ok) throw new Error(`${setup.error.code}: ${setup.error.message}`);
  return setup.value;
}

/** The commands in force, as the log records them, to play again elsewhere. */
export function appliedCommands(encounter: FfrpgEncounter): FfrpgCommand[] {
  const applied: FfrpgCommand[] = [];
  const undone: FfrpgCommand[] = [];
  for (const entry of encounter.log) {
    if (entry.type === 'command') {
      applied.push(entry.command);
      undone.length = 0;
    } else if (entry.type === 'undo') {
      for (let i = 0; i < entry.steps; i++) undone.push(applied.pop()!);
    } else {
      for (let i = 0; i < entry.steps; i++) applied.push(undone.pop()!);
    }
  }
  return applied;
}

/** Chooses a command from the legal actions, or none to stop. */
export type Policy = (
  actions: readonly { readonly label: string; readonly command: FfrpgCommand }[],
  encounter: FfrpgEncounter,
) => FfrpgCommand | undefined;

/** "The first attack in legalActions", or the first action when there is no attack. */
export const firstAttack: Policy = (actions) =>
  (actions.find((a) => a.command.type === 'attack') ?? actions[0])?.command;

/** Plays until the battle is over (or `limit` commands); returns the commands submitted. */
export function playOut(
  encounter: FfrpgEncounter,
  policy: Policy = firstAttack,
  limit = 1000,
): FfrpgCommand[] {
  const played: FfrpgCommand[] = [];
  while (!encounter.outcome().over && played.length < limit) {
    const command = policy(encounter.legalActions(), encounter);
    if (command === undefined) break;
    run(encounter, command);
    played.push(command);
  }
  return played;
}
