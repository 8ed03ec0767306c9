import { z } from 'zod';
import { DiceError, SeededDice, type SeededDiceState, seededDice } from '../dice/index.js';
import { CommandDice, type CommandDiceOptions, DiceEntryError } from './dice.js';
import { type CommandEntry, effectiveHistory, type History, type LogEntry } from './log.js';
import { reservedNameIn } from './reserved.js';
import { err, ok, type Result } from './result.js';
import type { CommandBase, EventBase, LegalAction, Outcome, Ruleset } from './ruleset.js';
import { verifyCommandEntry, verifyLog } from './verify-log.js';

export const SAVE_FORMAT = 'moogle-encounter';
export const SAVE_VERSION = 1;

/** A saved encounter: everything needed to rebuild it and continue the same dice stream. */
export interface SavedEncounter {
  readonly format: typeof SAVE_FORMAT;
  readonly version: typeof SAVE_VERSION;
  readonly ruleset: string;
  readonly setup: unknown;
  /** The dice stream as it was before the first command. */
  readonly initialDice: SeededDiceState;
  /** The dice stream now; derived from the log, kept to check the file on load. */
  readonly dice: SeededDiceState;
  readonly log: readonly LogEntry[];
}

export type SubmitOptions = CommandDiceOptions;

/** An encounter at one moment, for `restore`: made by `checkpoint`, read by nothing else. */
export interface EncounterCheckpoint {
  readonly entries: number;
  readonly state: unknown;
  readonly dice: SeededDiceState;
}

/**
 * One encounter being played: a ruleset, the setup it started from, the log, and the seeded
 * dice. The state is never edited in place: commands append events, undo and redo append log
 * entries, and the state is rebuilt from the effective history when that changes.
 */
export class Encounter<Setup, State, Command extends CommandBase, Event extends EventBase> {
  private current: State;
  private entries: LogEntry<Command, Event>[];
  private history: History<Command, Event>;
  private dice: SeededDice;

  private constructor(
    readonly ruleset: Ruleset<Setup, State, Command, Event>,
    readonly setup: Setup,
    private readonly initialDice: SeededDiceState,
    log: LogEntry<Command, Event>[],
  ) {
    this.entries = log;
    this.history = effectiveHistory(log);
    this.current = this.rebuild();
    this.dice = new SeededDice(this.history.applied.at(-1)?.diceAfter ?? initialDice);
  }

  /** Starts an encounter from a setup (validated by the ruleset) and a seed. */
  static create<Setup, State, Command extends CommandBase, Event extends EventBase>(
    ruleset: Ruleset<Setup, State, Command, Event>,
    setupInput: unknown,
    seed: number | string,
  ): Result<Encounter<Setup, State, Command, Event>> {
    const reserved = reservedNameIn(setupInput);
    if (reserved !== undefined) return err('encounter/reserved-name', reserved);
    const setup = ruleset.parseSetup(setupInput);
    if (!setup.ok) return setup;
    let dice: SeededDice;
    try {
      dice = seededDice(seed);
    } catch (error) {
      if (error instanceof DiceError) return err('encounter/bad-seed', error.message);
      throw error;
    }
    return ok(new Encounter(ruleset, setup.value, dice.state, []));
  }

  /**
   * Rebuilds a saved encounter; the result has the same state and continues the same dice.
   * Every logged command is decided again with its logged dice, and must give exactly its
   * logged events: a save edited by hand, or from a Moogle whose rules have changed since, is
   * refused instead of loading into a state the rules could never reach.
   */
  static load<Setup, State, Command extends CommandBase, Event extends EventBase>(
    ruleset: Ruleset<Setup, State, Command, Event>,
    saved: SavedEncounter,
  ): Result<Encounter<Setup, State, Command, Event>> {
    if (saved.ruleset !== ruleset.id) {
      return err(
        'save/wrong-ruleset',
        `the save is for ruleset '${saved.ruleset}', not '${ruleset.id}'`,
      );
    }
    const reserved = reservedNameIn(saved.setup);
    if (reserved !== undefined) return err('save/bad-setup', `the save's setup: ${reserved}`);
    const setup = ruleset.parseSetup(saved.setup);
    if (!setup.ok)
      return err('save/bad-setup', `the save's setup does not load: ${setup.error.message}`);
    try {
      new SeededDice(saved.initialDice);
    } catch (error) {
      if (error instanceof DiceError) return err('save/bad-dice', error.message);
      throw error;
    }
    const verified = verifyLog(
      ruleset,
      setup.value,
      saved.initialDice,
      saved.log as readonly LogEntry<Command, Event>[],
    );
    if (!verified.ok) return verified;
    const encounter = new Encounter(ruleset, setup.value, saved.initialDice, verified.value);
    const dice = encounter.dice.state.words;
    if (saved.dice.words.some((word, i) => word !== dice[i])) {
      return err('save/bad-dice', "the save's dice state does not match its log");
    }
    return ok(encounter);
  }

  get state(): State {
    return this.current;
  }

  /** A copy: the encounter's own log never changes under a caller, nor a caller's under it. */
  get log(): readonly LogEntry<Command, Event>[] {
    return [...this.entries];
  }

  /** How many entries the log holds: what `log.length` says, without copying the log. */
  get logLength(): number {
    return this.entries.length;
  }

  /** Entry `seq` (1 for the first), without copying the log; entries are never edited. */
  entryAt(seq: number): LogEntry<Command, Event> | undefined {
    return seq >= 1 ? this.entries[seq - 1] : undefined;
  }

  /** Entries `from + 1` to `to` (log numbers), without copying the rest of the log. */
  entriesBetween(from: number, to: number): readonly LogEntry<Command, Event>[] {
    return this.entries.slice(Math.max(0, from), Math.max(0, to));
  }

  /** The events in force, in order: what the state is built from. */
  get events(): readonly Event[] {
    return this.history.applied.flatMap((entry) => entry.events);
  }

  get undoable(): number {
    return this.history.applied.length;
  }

  /** The commands in force, oldest first, without copying the log: an undo takes the last. */
  get appliedCommands(): readonly CommandEntry<Command, Event>[] {
    return this.history.applied;
  }

  /** The commands taken back that a redo may put back: the last taken back last. */
  get undoneCommands(): readonly CommandEntry<Command, Event>[] {
    return this.history.undone;
  }

  get redoable(): number {
    return this.history.undone.length;
  }

  /** Where the seeded dice stream is now. */
  get diceState(): SeededDiceState {
    return this.dice.state;
  }

  legalActions(): readonly LegalAction<Command>[] {
    return this.ruleset.legalActions(this.current);
  }

  outcome(): Outcome {
    return this.ruleset.outcome(this.current);
  }

  /**
   * Validates and resolves a command. On success its events are logged and applied; on
   * failure nothing changes, not even the dice stream.
   */
  submit(input: unknown, options: SubmitOptions = {}): Result<readonly Event[]> {
    const checked = parseSubmitOptions(options);
    if (!checked.ok) return checked;
    const reserved = reservedNameIn(input);
    if (reserved !== undefined) return err('command/reserved-name', reserved);
    const command = this.ruleset.parseCommand(input);
    if (!command.ok) return command;
    const diceBefore = this.dice.state;
    const dice = new CommandDice(this.dice, options);
    let decided: Result<readonly Event[]>;
    try {
      decided = this.ruleset.decide(this.current, command.value, dice);
    } catch (error) {
      this.dice = new SeededDice(diceBefore);
      if (error instanceof DiceEntryError) {
        const { purpose, notation } = error;
        return err(error.code, error.message, { purpose, notation });
      }
      if (error instanceof DiceError) return err(error.code, error.message);
      throw error;
    }
    if (decided.ok) {
      const unused = dice.unusedEntries();
      if (unused.length > 0) {
        decided = err(
          'dice/entered-unused',
          `this command made no roll named ${unused.join(', ')}`,
        );
      }
    }
    if (!decided.ok) {
      this.dice = new SeededDice(diceBefore);
      return decided;
    }
    const entry: CommandEntry<Command, Event> = {
      seq: this.entries.length + 1,
      type: 'command',
      command: command.value,
      events: decided.value,
      diceBefore,
      diceAfter: this.dice.state,
    };
    this.entries.push(entry);
    // Appended in place (the arrays are this encounter's own): copying them made a long
    // session quadratic.
    const applied = this.history.applied as CommandEntry<Command, Event>[];
    applied.push(entry);
    this.history = { applied, undone: [] };
    for (const event of decided.value) this.current = this.ruleset.evolve(this.current, event);
    return ok(decided.value);
  }

  /**
   * Appends an entry logged elsewhere (another server process sharing the log), checked as a
   * save's entries are: numbered next, a command decided again from this state with its logged
   * dice to the same events, an undo or redo within what there is. Refused, changing nothing,
   * when it does not follow.
   */
  appendLogged(entry: LogEntry<Command, Event>): Result<LogEntry<Command, Event>> {
    const at = `log entry ${entry.seq}`;
    if (entry.seq !== this.entries.length + 1) {
      return err('save/inconsistent', `${at} does not follow entry ${this.entries.length}`);
    }
    if (entry.type !== 'command') {
      const moved = entry.type === 'undo' ? this.undo(entry.steps) : this.redo(entry.steps);
      if (!moved.ok) return err('save/inconsistent', `${at}: ${moved.error.message}`);
      return ok(this.entries.at(-1)!);
    }
    const checked = verifyCommandEntry(this.ruleset, this.current, this.dice.state, entry, at);
    if (!checked.ok) return checked;
    const verified = checked.value;
    this.entries.push(verified);
    const applied = this.history.applied as CommandEntry<Command, Event>[];
    applied.push(verified);
    this.history = { applied, undone: [] };
    for (const event of verified.events) this.current = this.ruleset.evolve(this.current, event);
    this.dice = new SeededDice(verified.diceAfter);
    return ok(verified);
  }

  /** Takes back the last `steps` commands: state and dice stream as they were before them. */
  undo(steps = 1): Result<number> {
    return this.travel('undo', steps, this.history.applied.length);
  }

  /** Puts back the last `steps` undone commands, with the events they had (no dice rolled again). */
  redo(steps = 1): Result<number> {
    return this.travel('redo', steps, this.history.undone.length);
  }

  private travel(type: 'undo' | 'redo', steps: number, available: number): Result<number> {
    if (!Number.isSafeInteger(steps) || steps < 1) {
      return err(`history/bad-steps`, `${type} takes a whole number of steps, 1 or more`);
    }
    if (steps > available) {
      const what = type === 'undo' ? 'undo' : 'redo';
      return err(
        `history/nothing-to-${what}`,
        `there ${available === 1 ? 'is' : 'are'} only ${available} to ${what}`,
      );
    }
    this.entries.push({ seq: this.entries.length + 1, type, steps });
    this.history = effectiveHistory(this.entries);
    this.current = this.rebuild();
    this.dice = new SeededDice(this.history.applied.at(-1)?.diceAfter ?? this.initialDice);
    return ok(steps);
  }

  /**
   * Where the encounter is now, kept for `restore`: cheap (a count, a reference to the
   * immutable state, the dice's four words), so it can be taken before every change.
   */
  checkpoint(): EncounterCheckpoint {
    return { entries: this.entries.length, state: this.current, dice: this.dice.state };
  }

  /**
   * Takes back every entry made since `checkpoint`: log, state and dice stream as they were.
   * For a change that could not be kept (a server whose database refused the entry), so the
   * encounter goes on as if it had never been made.
   */
  restore(checkpoint: EncounterCheckpoint): void {
    if (checkpoint.entries > this.entries.length) {
      throw new Error(
        `a checkpoint at entry ${checkpoint.entries} is not of this encounter's past (it has ${this.entries.length})`,
      );
    }
    this.entries.length = checkpoint.entries;
    // Rebuilt, not kept: `submit` appends to the history's arrays in place.
    this.history = effectiveHistory(this.entries);
    this.current = checkpoint.state as State;
    this.dice = new SeededDice(checkpoint.dice);
  }

  private rebuild(): State {
    let state = this.ruleset.initialState(this.setup);
    for (const entry of this.history.applied) {
      for (const event of entry.events) state = this.ruleset.evolve(state, event);
    }
    return state;
  }

  /** A deep copy, plain JSON: what later commands do to the encounter never reaches it. */
  save(): SavedEncounter {
    return structuredClone({
      format: SAVE_FORMAT,
      version: SAVE_VERSION,
      ruleset: this.ruleset.id,
      setup: this.setup,
      initialDice: this.initialDice,
      dice: this.dice.state,
      log: this.entries,
    });
  }
}

// Only the shape here: each face is checked against the die it fills, with a better message.
// Strict objects: `{ totl: 32 }` is refused, not read as faces or ignored.
const enteredRoll = z.union([
  z.array(z.number()).max(10_000),
  z.strictObject({ sum: z.number() }),
  z.strictObject({ total: z.number() }),
]);
const submitOptions = z.object({
  entered: z.record(z.string(), enteredRoll).optional(),
  enterAll: z.boolean().optional(),
  explain: z.boolean().optional(),
  optional: z.array(z.string()).optional(),
});

/** Submit options come from people too: `entered: 5` is refused, not ignored. */
function parseSubmitOptions(options: unknown): Result<SubmitOptions> {
  const parsed = submitOptions.safeParse(options);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0]!;
  // One path style everywhere: entered["hit:heket"][0], as content errors write it.
  const where =
    issue.path.length === 0
      ? 'options'
      : issue.path
          .map((p, i) =>
            typeof p === 'number'
              ? `[${p}]`
              : /^[A-Za-z_$][\w$]*$/.test(String(p))
                ? `${i === 0 ? '' : '.'}${String(p)}`
                : `[${JSON.stringify(String(p))}]`,
          )
          .join('');
  return err(
    'dice/bad-entry',
    `${where}: entered dice are the faces by roll, as { 'hit:heket': [2, 8] }, or one number marked { sum: 10 } or { total: 30 } (${issue.message})`,
  );
}
