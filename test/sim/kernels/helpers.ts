/**
 * Helpers for the kernel tests: encounters (the example and the fixtures here), the runner's
 * loop over the rules written out as a reference, the kernel's play of the same battles, and,
 * when the two part, where: the first command after which their states differ and the first
 * field that differs.
 *
 * Each side plays on its own copy of the setup. The tactician keeps exact odds per setup
 * (src/sim/tactician/odds-cache.ts), and the kernel keeps the choices of battles' first rounds
 * per setup too (its openings): on a copy of its own, the kernel works out its odds and its
 * openings from its own states, so a kernel that asked about a wrong state could not hide behind
 * answers the loop left in a shared cache. (The odds were once kept by whatever HP a target had
 * when first asked, so a battle's choices could depend on what was played before it; they are
 * keyed by that HP now, and test/sim/history.test.ts holds them to it.)
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ContentLibrary, loadContent } from '../../../src/content/index.js';
import type { SeededDiceState } from '../../../src/dice/index.js';
import {
  type EncounterFile,
  parseEncounterText,
  readEncounterFile,
} from '../../../src/encounters/file.js';
import type { CommandBase, EventBase } from '../../../src/engine/index.js';
import { SYSTEMS } from '../../../src/rulesets/index.js';
import type { ShiningForceSetup } from '../../../src/rulesets/shining-force/model.js';
import type { ShiningForceState } from '../../../src/rulesets/shining-force/state.js';
import type { AnySystem } from '../../../src/rulesets/system.js';
import { gmCommandFrom } from '../../../src/session/index.js';
import { type Aggregate, type CombatantTally, emptyTally } from '../../../src/sim/aggregate.js';
import { FastDice } from '../../../src/sim/fast-dice.js';
import { type BattleKernel, kernelFor } from '../../../src/sim/kernels/index.js';
import { type Policy, policyNamed } from '../../../src/sim/policies.js';
import { battleSeeds, MAX_COMMANDS_PER_BATTLE, runBattles } from '../../../src/sim/runner.js';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const FIXTURES = join(HERE, 'fixtures');
export const GATE = 'examples/shining-force-gate.yaml';

export const SF = SYSTEMS.find((s) => s.ruleset.id === 'shining-force')!;
export const TACTICIAN: Policy = policyNamed('tactician')!;

export function readEncounter(path: string): EncounterFile {
  const read = readEncounterFile(path, SYSTEMS);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.encounter;
}

/** A fixture encounter (test/sim/kernels/fixtures/<name>.yaml), with the fixtures' content. */
export function fixture(name: string): EncounterFile {
  return readEncounter(join(FIXTURES, `${name}.yaml`));
}

/**
 * An encounter from YAML text (parseEncounterText), read as if it were a file of the fixtures
 * folder, so that `content: [content]` finds the fixtures' content.
 */
export function encounterText(name: string, text: string): EncounterFile {
  const parsed = parseEncounterText(join(FIXTURES, `${name}.yaml`), text, SYSTEMS, (dirs) =>
    loadContent(
      dirs,
      SYSTEMS.flatMap((s) => s.kinds),
      { within: [...SYSTEMS.map((s) => s.starterContent), FIXTURES] },
    ),
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.encounter;
}

/** A fixture encounter with these options (JSON is YAML): each option the setup has, varied. */
export function fixtureWith(name: string, options: Record<string, unknown>): EncounterFile {
  const text = readFileSync(join(FIXTURES, `${name}.yaml`), 'utf8');
  return encounterText(name, `${text}\noptions: ${JSON.stringify(options)}\n`);
}

/** Battles to play both ways: a setup and the state they start from. */
export interface Case {
  readonly name: string;
  readonly system: AnySystem;
  readonly setup: unknown;
  readonly start: ShiningForceState;
}

export function caseOf(name: string, encounter: EncounterFile, start?: unknown): Case {
  return caseOfSetup(name, encounter.setup as ShiningForceSetup, start);
}

/** A case from a setup built in a test (no encounter file). */
export function caseOfSetup(name: string, setup: ShiningForceSetup, start?: unknown): Case {
  return {
    name,
    system: SF,
    setup,
    start: (start ?? SF.ruleset.initialState(setup)) as ShiningForceState,
  };
}

/** The same case on its own copy of the setup (the start state's setup copied with it). */
export function copyOf(c: Case): Case {
  const { setup, start } = structuredClone({ setup: c.setup, start: c.start });
  return { name: c.name, system: c.system, setup, start };
}

/** What one command did, for tests that look at which rules a battle met. */
export type See = (command: CommandBase, events: readonly EventBase[]) => void;

export interface LoopBattle {
  readonly state: ShiningForceState;
  readonly commands: number;
  /** The state after each command, the start first. */
  readonly states: readonly unknown[];
  /** Where the rules' dice stream stands after each command, the start first. */
  readonly dice: readonly SeededDiceState[];
  readonly played: readonly CommandBase[];
}

/**
 * The runner's loop over the rules (runner.ts, hooks.kernel false) for battle i of `seed`: the
 * tactician's direct choice, else the list; resolveOffered; until the battle is over or
 * `maxCommands` commands.
 */
export function loopBattle(
  c: Case,
  seed: string,
  i: number,
  maxCommands = MAX_COMMANDS_PER_BATTLE,
  see?: See,
): LoopBattle {
  const { system, start } = c;
  const { ruleset } = system;
  const seeds = battleSeeds(seed, i);
  const dice = new FastDice(seeds.dice);
  let state: unknown = start;
  const states: unknown[] = [state];
  const drawn: SeededDiceState[] = [seeds.dice.state];
  const played: CommandBase[] = [];
  let commands = 0;
  for (; commands < maxCommands; commands++) {
    if (ruleset.outcome(state).over) break;
    let command = TACTICIAN.direct?.(system, state, seeds.choices);
    if (command === undefined) {
      const actions = ruleset.legalActions(state);
      if (actions.length === 0) break;
      command = TACTICIAN(system, state, actions, seeds.choices).command;
    }
    const resolved =
      ruleset.resolveOffered?.(state, command, dice) ?? ruleset.resolve!(state, command, dice);
    if (!resolved.ok)
      throw new Error(`refused ${JSON.stringify(command)}: ${resolved.error.message}`);
    state = resolved.value.state;
    see?.(command, resolved.value.events as readonly EventBase[]);
    states.push(state);
    drawn.push(seeds.dice.state);
    played.push(command);
  }
  return { state: state as ShiningForceState, commands, states, dice: drawn, played };
}

export function emptyTallies(c: Case): CombatantTally[] {
  return c.system.view(c.start).combatants.map((v) => emptyTally(v));
}

/** One kernel per case, as the runner keeps one for all the battles of a range. */
const KERNELS = new WeakMap<Case, BattleKernel>();

export function kernelOf(c: Case): BattleKernel {
  let kernel = KERNELS.get(c);
  if (kernel === undefined) {
    kernel = kernelFor(c.system, c.start, TACTICIAN);
    if (kernel === undefined) throw new Error(`no kernel for ${c.name}`);
    KERNELS.set(c, kernel);
  }
  return kernel;
}

/** The kernel's play of battle i of `seed`: its state, commands and blows tallied. */
export function kernelBattle(
  c: Case,
  seed: string,
  i: number,
  maxCommands = MAX_COMMANDS_PER_BATTLE,
): {
  state: ShiningForceState;
  commands: number;
  tallies: CombatantTally[];
  dice: SeededDiceState;
} {
  const tallies = emptyTallies(c);
  const dice = battleSeeds(seed, i).dice;
  const played = kernelOf(c).play(dice, maxCommands, tallies);
  return {
    state: played.state as ShiningForceState,
    commands: played.commands,
    tallies,
    dice: dice.state,
  };
}

/** The path of the first difference between two plain values, and both values there. */
export function firstDifference(
  loop: unknown,
  kernel: unknown,
  path = '',
): { path: string; loop: unknown; kernel: unknown } | undefined {
  if (Object.is(loop, kernel)) return undefined;
  if (
    typeof loop !== 'object' ||
    typeof kernel !== 'object' ||
    loop === null ||
    kernel === null ||
    Array.isArray(loop) !== Array.isArray(kernel)
  )
    return { path: path || '(root)', loop, kernel };
  if (Array.isArray(loop) && Array.isArray(kernel)) {
    for (let k = 0; k < Math.max(loop.length, kernel.length); k++) {
      const d = firstDifference(loop[k], kernel[k], `${path}[${k}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  const a = loop as Record<string, unknown>;
  const b = kernel as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    // An absent field and one that is undefined are the same to toEqual.
    if (a[key] === undefined && b[key] === undefined) continue;
    const d = firstDifference(a[key], b[key], path === '' ? key : `${path}.${key}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

/** The same battle: the same state at the end, after as many commands, the dice drawn alike. */
function same(
  loop: LoopBattle,
  kernel: { state: unknown; commands: number; dice: SeededDiceState },
): boolean {
  return (
    kernel.commands === loop.commands &&
    firstDifference(loop.state, kernel.state) === undefined &&
    firstDifference(loop.dice[loop.commands], kernel.dice) === undefined
  );
}

/** A combatant's id beside its place in a path: `combatants[3]` -> `combatants[3 tao]`. */
function named(state: unknown, path: string): string {
  const s = state as ShiningForceState;
  return path.replace(
    /^combatants\[(\d+)\]/,
    (_, k: string) => `combatants[${k} ${s.combatants?.[Number(k)]?.id ?? '?'}]`,
  );
}

/**
 * Where the kernel and the loop part in battle i of `seed` (each on its own copy of the case):
 * the first number of commands after which their states differ, the command the loop played
 * last, and the first field that differs. Undefined when the whole battles agree.
 */
export function divergence(c: Case, seed: string, i: number): string | undefined {
  const loopSide = copyOf(c);
  const kernelSide = copyOf(c);
  const loop = loopBattle(loopSide, seed, i);
  const whole = kernelBattle(kernelSide, seed, i);
  if (same(loop, whole)) return undefined;
  const where = `${c.name}, seed '${seed}', battle ${i}`;
  for (let k = 1; k <= loop.commands + 1; k++) {
    const kernel = kernelBattle(kernelSide, seed, i, k);
    const after = Math.min(k, loop.commands);
    const expected = loop.states[after];
    const d =
      firstDifference(expected, kernel.state) ??
      firstDifference({ dice: loop.dice[after] }, { dice: kernel.dice });
    if (d !== undefined || kernel.commands !== after) {
      const command = JSON.stringify(loop.played[k - 1] ?? null);
      const what =
        d === undefined
          ? `the kernel played ${kernel.commands} commands`
          : d.path.startsWith('dice')
            ? 'the states agree, but the dice stream stands elsewhere (dice drawn in another number or order)'
            : `${named(expected, d.path)}: loop ${JSON.stringify(d.loop)}, kernel ${JSON.stringify(d.kernel)}`;
      return `${where}: first differs after command ${k} of ${loop.commands} (${command}): ${what}`;
    }
  }
  return `${where}: ${loop.commands} commands in the loop, ${whole.commands} in the kernel`;
}

/**
 * Battles `from` to `to - 1` of `seed` played both ways, each way on its own copy of the case:
 * the loop's final state, command count and dice against the kernel's, battle by battle. The
 * mismatches, each with where it starts (divergence); [] when every battle agrees.
 */
export function mismatches(c: Case, seed: string, from: number, to: number, see?: See): string[] {
  return playedBothWays(c, seed, from, to, see, copyOf(c), copyOf(c));
}

function playedBothWays(
  c: Case,
  seed: string,
  from: number,
  to: number,
  see: See | undefined,
  loopSide: Case,
  kernelSide: Case,
): string[] {
  const found: string[] = [];
  for (let i = from; i < to; i++) {
    const loop = loopBattle(loopSide, seed, i, MAX_COMMANDS_PER_BATTLE, see);
    const kernel = kernelBattle(kernelSide, seed, i);
    if (!same(loop, kernel))
      found.push(divergence(c, seed, i) ?? `${c.name}, seed '${seed}', battle ${i}: differs`);
  }
  return found;
}

/** runBattles over `from` to `to - 1`, through the loop and through the kernel, each on its copy. */
export function aggregates(
  c: Case,
  seed: string,
  from: number,
  to: number,
  sides: { loopSide: Case; kernelSide: Case } = { loopSide: copyOf(c), kernelSide: copyOf(c) },
): { loop: Aggregate; kernel: Aggregate } {
  const range = { seed, from, to };
  const { loopSide, kernelSide } = sides;
  return {
    loop: runBattles(c.system, loopSide.setup, TACTICIAN, range, { kernel: false }, loopSide.start),
    kernel: runBattles(c.system, kernelSide.setup, TACTICIAN, range, {}, kernelSide.start),
  };
}

/**
 * Both comparisons on one pair of copies, the cheaper for it (each copy works out its odds
 * once): battle by battle (mismatches), then runBattles over the same range both ways. The
 * copies play the same battles in the same order, so they keep the same odds.
 */
export function compared(
  c: Case,
  seed: string,
  from: number,
  to: number,
  see?: See,
): { mismatches: string[]; loop: Aggregate; kernel: Aggregate } {
  const sides = { loopSide: copyOf(c), kernelSide: copyOf(c) };
  const found = playedBothWays(c, seed, from, to, see, sides.loopSide, sides.kernelSide);
  return { mismatches: found, ...aggregates(c, seed, from, to, sides) };
}

/**
 * The GM's lines (`status tao +sleep`) applied to `state`, each read as the GM screen reads it
 * (gmCommandFrom) and resolved by the ruleset with dice of their own (`gm add` rolls for the turn
 * order). With `lenient`, a line the rules refuse (a status on the defeated) is left out, as the
 * GM would see it refused; else it throws.
 */
export function applyGm(
  system: AnySystem,
  library: ContentLibrary,
  state: unknown,
  lines: readonly string[],
  seed: string,
  lenient = false,
): ShiningForceState {
  const dice = new FastDice(battleSeeds(`${seed}:gm`, 0).dice);
  for (const line of lines) {
    const command = gmCommandFrom(system, library, state, line);
    const resolved = command.ok ? system.ruleset.resolve!(state, command.value, dice) : command;
    if (!resolved.ok) {
      if (lenient) continue;
      throw new Error(`gm ${line}: ${resolved.error.message}`);
    }
    state = resolved.value.state;
  }
  return state as ShiningForceState;
}

/**
 * A start state as the GM screen passes one: `commands` commands of a battle of `seed` played
 * through the rules under the tactician, then the GM's lines.
 */
export function startAfter(
  encounter: EncounterFile,
  seed: string,
  commands: number,
  gmLines: readonly string[],
): ShiningForceState {
  const state = loopBattle(caseOf('prefix', encounter), seed, 0, commands).state;
  return applyGm(encounter.system, encounter.library, state, gmLines, seed);
}

/**
 * What a battle met, by name, counted: `see` for loopBattle or mismatches. The names are the
 * rules the kernel re-writes (turns.ts startOfTurn and endTurn, combat.ts attack, applyEffect,
 * wear and inflict).
 */
export function rulesMet(): { met: Record<string, number>; see: See } {
  const met: Record<string, number> = {};
  const add = (name: string) => {
    met[name] = (met[name] ?? 0) + 1;
  };
  const see: See = (_command, events) => {
    for (const e of events) {
      const event = e as EventBase & Record<string, unknown>;
      switch (event.type) {
        case 'turn-began':
          if (event.canMove === false) add('turn frozen in place');
          break;
        case 'turn-lost':
          add(`turn lost: ${event.reason}`);
          break;
        case 'status-rolled':
          add(`${event.status}: ${event.result}`);
          break;
        case 'status-inflicted':
          add(`inflicted: ${(event.instance as { status: string }).status}`);
          break;
        case 'status-ended':
          add(`ended: ${event.reason}`);
          break;
        case 'points-lost':
          add(`${event.cause}: ${(event.hp as number) > 0 ? 'HP' : 'MP'} lost`);
          break;
        case 'attacked': {
          const a = event.attack as {
            illusion: boolean;
            hit: boolean;
            counter: boolean;
            critical: { level: unknown } | null;
          };
          if (a.illusion) add('attack under Illusion');
          if (!a.hit) add('attack missed');
          if (a.counter) add('counter');
          if (a.critical !== null) add(`critical: ${a.critical.level}`);
          break;
        }
        case 'spell-cast':
        case 'item-used':
          add(
            `${event.type === 'spell-cast' ? 'spell' : 'item'} on ${(event.targets as unknown[]).length > 1 ? 'several' : 'one'}`,
          );
          break;
        case 'item-condition':
          add(`item ${event.result}`);
          break;
        case 'instantly-defeated':
          add('instantly defeated');
          break;
        case 'healed':
          add('healed');
          break;
        case 'exp-gained':
          add('EXP');
          break;
        case 'defeated':
          add('defeated');
          break;
        case 'battle-ended':
          add(event.winner === null ? 'battle undecided' : 'battle won');
          break;
      }
    }
  };
  return { met, see };
}
