import {
  DiceError,
  parseDice,
  SeededDice,
  type SeededDiceState,
  type Variables,
} from '../dice/index.js';
import {
  DiceEntryError,
  type DiceRoller,
  RecordingSource,
  ReplayDice,
  type RollNeeds,
  type RollRecord,
  recordedRolls,
} from './dice.js';
import type { CommandEntry, LogEntry } from './log.js';
import { reservedNameIn } from './reserved.js';
import { err, ok, type Result } from './result.js';
import type { CommandBase, EventBase, Ruleset } from './ruleset.js';

/**
 * Every how many applied commands a state is kept while a log is checked. An undo then costs at
 * most this many commands' events to rebuild, instead of the whole history, which made loading
 * quadratic in undo/redo entries; keeping every state instead would hold one per command.
 */
const CHECKPOINT_EVERY = 32;

function sameState(a: SeededDiceState, b: SeededDiceState): boolean {
  return a.words.every((word, i) => word === b.words[i]);
}

/**
 * ReplayDice checks that each logged roll adds up; this also checks where its faces came from.
 * A roll not entered at the table took its faces from the seeded stream, so rolling the same
 * notation again from the stream where the command found it must give exactly the logged
 * faces. Entered rolls and totals (`entered: true`, `totalOnly: true`) take nothing from it.
 */
class StreamCheckedDice implements DiceRoller {
  constructor(
    private readonly replay: ReplayDice,
    private readonly stream: SeededDice,
  ) {}

  roll(asked: string, notation: string, variables: Variables = {}, needs: RollNeeds = {}) {
    const record: RollRecord = this.replay.roll(asked, notation, variables, needs);
    if (record.entered === true) return record;
    if (record.totalOnly === true) {
      throw new DiceEntryError(
        'save/inconsistent',
        `the logged roll for ${record.purpose} is a total without faces, but not entered`,
        record.purpose,
        notation,
      );
    }
    const source = new RecordingSource(this.stream);
    parseDice(notation).total(source, variables);
    const faces = source.faces;
    if (faces.length !== record.dice.length || faces.some((face, i) => face !== record.dice[i])) {
      throw new DiceEntryError(
        'save/inconsistent',
        `the logged faces of ${record.purpose} are not what the seeded dice gave`,
        record.purpose,
        notation,
      );
    }
    return record;
  }

  get finished(): boolean {
    return this.replay.finished;
  }
}

/**
 * Decides every logged command again against the state of its time, with its logged dice, and
 * checks the events match; the seeded dice stream must run unbroken through the log (each
 * command starts where the last applied one ended, its seeded faces are the stream's, and it
 * ends where it says); undo and redo must stay within what there is to undo or redo.
 *
 * Linear in the log: undo and redo move along stacks, and the state is rebuilt only when a
 * command needs it, from the nearest checkpoint at or below the applied prefix.
 */
/**
 * One logged command, checked against the state and the dice stream it claims to follow: its
 * dice start where the stream is, the rules decide the same events from the same rolls (its
 * seeded faces are the stream's), and its dice end where those rolls leave the stream. The entry
 * as the ruleset reads it, or why it does not follow.
 */
export function verifyCommandEntry<State, Command extends CommandBase, Event extends EventBase>(
  ruleset: Ruleset<unknown, State, Command, Event>,
  before: State,
  diceNow: SeededDiceState,
  entry: CommandEntry<Command, Event>,
  at = `log entry ${entry.seq}`,
): Result<CommandEntry<Command, Event>> {
  if (!sameState(entry.diceBefore, diceNow)) {
    return err(
      'save/inconsistent',
      `${at}: its dice do not start where the previous command's ended`,
    );
  }
  const reserved = reservedNameIn(entry.command);
  if (reserved !== undefined) return err('save/inconsistent', `${at}: ${reserved}`);
  const command = ruleset.parseCommand(entry.command);
  if (!command.ok) return err('save/inconsistent', `${at}: ${command.error.message}`);
  const stream = new SeededDice(entry.diceBefore);
  const dice = new StreamCheckedDice(new ReplayDice(recordedRolls(entry.events)), stream);
  let decided: Result<readonly Event[]>;
  try {
    decided = ruleset.decide(before, command.value, dice);
  } catch (error) {
    if (error instanceof DiceEntryError || error instanceof DiceError) {
      return err('save/inconsistent', `${at}: ${error.message}`);
    }
    throw error;
  }
  if (!decided.ok)
    return err('save/inconsistent', `${at}: the command was refused: ${decided.error.message}`);
  if (!dice.finished || JSON.stringify(decided.value) !== JSON.stringify(entry.events)) {
    return err(
      'save/inconsistent',
      `${at}: its events are not what the command gives; the save was changed, or made by a different version of the rules`,
    );
  }
  if (!sameState(stream.state, entry.diceAfter)) {
    return err(
      'save/inconsistent',
      `${at}: its dice do not end where its seeded rolls leave the stream`,
    );
  }
  return ok({ ...entry, command: command.value, events: decided.value });
}

export function verifyLog<Setup, State, Command extends CommandBase, Event extends EventBase>(
  ruleset: Ruleset<Setup, State, Command, Event>,
  setup: Setup,
  initialDice: SeededDiceState,
  log: readonly LogEntry<Command, Event>[],
): Result<LogEntry<Command, Event>[]> {
  const verified: LogEntry<Command, Event>[] = [];
  let initial: State;
  try {
    initial = ruleset.initialState(setup);
  } catch (error) {
    return err('save/bad-setup', `the save's setup does not start: ${(error as Error).message}`);
  }
  const applied: CommandEntry<Command, Event>[] = [];
  const undone: CommandEntry<Command, Event>[] = [];
  // checkpoints[k] is the state after applied[0 .. k * CHECKPOINT_EVERY).
  const checkpoints: State[] = [initial];
  // `state` is the state after applied[0 .. stateLength); valid while that prefix is unchanged.
  let state = initial;
  let stateLength = 0;

  const stateNow = (): State => {
    if (stateLength === applied.length) return state;
    const k = Math.min(Math.floor(applied.length / CHECKPOINT_EVERY), checkpoints.length - 1);
    let s: State = checkpoints[k] as State;
    let at = k * CHECKPOINT_EVERY;
    // Continue from the state we have when it is a later point on the same prefix.
    if (stateLength > at && stateLength <= applied.length) {
      s = state;
      at = stateLength;
    }
    for (; at < applied.length; at++) {
      for (const event of applied[at]!.events) s = ruleset.evolve(s, event);
      if ((at + 1) % CHECKPOINT_EVERY === 0 && checkpoints.length === (at + 1) / CHECKPOINT_EVERY) {
        checkpoints.push(s);
      }
    }
    state = s;
    stateLength = applied.length;
    return s;
  };

  for (const entry of log) {
    const at = `log entry ${entry.seq}`;
    if (entry.type !== 'command') {
      const from = entry.type === 'undo' ? applied : undone;
      const to = entry.type === 'undo' ? undone : applied;
      if (entry.steps > from.length) {
        return err(
          'save/inconsistent',
          `${at} ${entry.type}s ${entry.steps} steps, but only ${from.length} can be`,
        );
      }
      for (let i = 0; i < entry.steps; i++) to.push(from.pop()!);
      // An undo shortens the prefix the current state was built on: it no longer applies.
      if (stateLength > applied.length) stateLength = -1;
      verified.push(entry);
      continue;
    }
    const expectedBefore = applied.at(-1)?.diceAfter ?? initialDice;
    const before = stateNow();
    const result = verifyCommandEntry(ruleset, before, expectedBefore, entry, at);
    if (!result.ok) return result;
    const checked = result.value;
    verified.push(checked);
    // A new command ends the redo branch and replaces whatever was built past this point.
    undone.length = 0;
    const position = applied.length;
    applied.push(checked);
    checkpoints.length = Math.min(checkpoints.length, Math.floor(position / CHECKPOINT_EVERY) + 1);
    let s = before;
    for (const event of checked.events) s = ruleset.evolve(s, event);
    state = s;
    stateLength = applied.length;
    if (
      stateLength % CHECKPOINT_EVERY === 0 &&
      checkpoints.length === stateLength / CHECKPOINT_EVERY
    ) {
      checkpoints.push(s);
    }
  }
  return ok(verified);
}
