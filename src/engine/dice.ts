import {
  DiceError,
  type DiceExpression,
  type DiceSource,
  EnteredDice,
  parseDice,
  type SeededDice,
  type Variables,
} from '../dice/index.js';
import { readEnteredSum, readEnteredTotal, type TotalReading } from './entered-total.js';

/**
 * A roll as an event records it: every die it used, so replay never rolls and a save can be
 * checked, and the one-line explanation for the table. `purpose` names the roll within its
 * command (`hit:heket`, `damage:heket`, `initiative:hiro`), which is also how a GM enters
 * physical dice for it.
 */
export interface RollRecord {
  readonly purpose: string;
  readonly notation: string;
  readonly total: number;
  /** The faces in the order the roll used them, each 1 to its die's sides. */
  readonly dice: readonly number[];
  /** `2*AGI + d12 = 2 * 10 + [10] = 30`. Empty when the command asked for no explanations. */
  readonly text: string;
  /** True when the faces were rolled at the table and entered. */
  readonly entered: boolean;
  /**
   * True when only a total (`{ total: 32 }` on 2*STR+2d8) or the dice's sum (`{ sum: 9 }`) was
   * entered and several rolls give it: `dice` is then empty, and the total was checked against
   * the roll's possible values. Saves from every version record it so.
   */
  readonly totalOnly?: true;
}

/** What a ruleset says about a roll when it asks for it. */
export interface RollNeeds {
  /**
   * The rules read each die, not just the total (Feng Shui's boxcars): a total entered at the
   * table is accepted only when one set of faces gives it.
   */
  readonly readsFaces?: boolean;
}

/**
 * How a command gets its dice: the ruleset asks, the engine answers. Purposes are unique within
 * a command: a repeated one is numbered (`damage:heket#2`).
 */
export interface DiceRoller {
  roll(purpose: string, notation: string, variables?: Variables, needs?: RollNeeds): RollRecord;
  /**
   * False when nobody will read explanations (a simulation): rulesets may then skip building
   * their own text (CoS formulas, damage breakdowns) too. Absent means true.
   */
  readonly explain?: boolean;
}

/**
 * One roll as it was made at the table:
 * - `[3, 5]`: the faces as the dice lie, in the order the roll uses them. Always faces,
 *   whatever their count: `[10]` on `2*AGI + d12` is the d12 showing 10, a total of 30;
 *   `[5]` on `2d8` is one die short.
 * - `{ sum: 9 }`: one number read off the dice without the roll's modifiers: a one-die roll's
 *   face (the same as `[10]`), two d8 showing 4 and 5 added by the table, a d%'s 28.
 * - `{ total: 32 }`: the total with the modifiers already added ("32 damage"); marked,
 *   because a bare number is never taken for one.
 * A sum or a total that only one set of faces gives is recorded as those faces; one that
 * several give, as a total alone (`totalOnly`), unless the rules read each die.
 */
export type EnteredRoll = readonly number[] | { readonly sum: number } | { readonly total: number };

/** Dice rolled at the table, keyed by the purpose of the roll they fill. */
export type EnteredRolls = Readonly<Record<string, EnteredRoll>>;

/** True when an entered roll is its faces (arrays always are). */
export function isEnteredFaces(entered: EnteredRoll): entered is readonly number[] {
  return Array.isArray(entered);
}

/**
 * Raised inside a command when entered dice do not fit, or when a roll must be entered and was
 * not. The engine turns it into a rejected command; rulesets never catch it.
 */
export class DiceEntryError extends Error {
  override readonly name = 'DiceEntryError';
  constructor(
    readonly code:
      | 'dice/entered-out-of-range'
      | 'dice/entered-too-few'
      | 'dice/entered-too-many'
      | 'dice/needs-entry'
      | 'save/inconsistent',
    message: string,
    /** The roll in question, so an interface can ask for exactly those dice. */
    readonly purpose: string,
    readonly notation: string,
  ) {
    super(message);
  }
}

export interface CommandDiceOptions {
  readonly entered?: EnteredRolls;
  /** Every roll must be entered: a roll without entered faces stops the command with 'dice/needs-entry'. */
  readonly enterAll?: boolean;
  /** Build the one-line explanation of each roll (a live table wants it; a simulation does not). */
  readonly explain?: boolean;
  /**
   * Purposes among `entered` the command may leave unused without a refusal: rolls entered
   * ahead of the command that rolls them (a player's Initiative held for the round), offered to
   * every command that may ask for them. Any other unused entry is still refused as a typo.
   */
  readonly optional?: readonly string[];
}

/** Numbers repeated purposes within one command. */
class Purposes {
  private readonly seen = new Map<string, number>();

  next(asked: string): string {
    const count = (this.seen.get(asked) ?? 0) + 1;
    this.seen.set(asked, count);
    return count === 1 ? asked : `${asked}#${count}`;
  }
}

/** Passes faces through from another source and keeps a copy of each. */
export class RecordingSource implements DiceSource {
  readonly faces: number[] = [];
  constructor(private readonly inner: DiceSource) {}
  roll(sides: number): number {
    const face = this.inner.roll(sides);
    this.faces.push(face);
    return face;
  }
}

/**
 * The dice of one command: entered faces where the GM gave them, the encounter's seeded stream
 * everywhere else.
 */
export class CommandDice implements DiceRoller {
  private readonly used = new Set<string>();
  private readonly purposes = new Purposes();

  constructor(
    private readonly seeded: SeededDice,
    private readonly options: CommandDiceOptions = {},
  ) {}

  get explain(): boolean {
    return this.options.explain !== false;
  }

  roll(
    asked: string,
    notation: string,
    variables: Variables = {},
    needs: RollNeeds = {},
  ): RollRecord {
    const purpose = this.purposes.next(asked);
    const expression = parseDice(notation);
    const entered = this.options.entered?.[purpose];
    if (entered === undefined) {
      if (this.options.enterAll) {
        throw new DiceEntryError(
          'dice/needs-entry',
          `enter the dice for ${purpose} (${notation})`,
          purpose,
          notation,
        );
      }
      const source = new RecordingSource(this.seeded);
      if (this.options.explain === false) {
        const total = expression.total(source, variables);
        return { purpose, notation, total, dice: source.faces, text: '', entered: false };
      }
      const result = expression.roll({ dice: source, variables });
      return {
        purpose,
        notation,
        total: result.total,
        dice: source.faces,
        text: result.text,
        entered: false,
      };
    }
    this.used.add(purpose);
    return { ...rollEntered(purpose, notation, entered, variables, needs), entered: true };
  }

  /** Entered rolls the command never asked for: most likely a typo in the purpose. */
  unusedEntries(): string[] {
    const optional = new Set(this.options.optional ?? []);
    return Object.keys(this.options.entered ?? {}).filter(
      (purpose) => !this.used.has(purpose) && !optional.has(purpose),
    );
  }
}

/**
 * Why an entry cannot be its roll, as a command asking for the roll would refuse it (the faces
 * out of range, too few, a total no faces give); undefined when it fits. For an entry checked
 * ahead of the command that will roll it: a player's Initiative held for the round.
 */
export function enteredMisfit(
  purpose: string,
  notation: string,
  entered: EnteredRoll,
  variables: Variables = {},
): { readonly code: string; readonly message: string } | undefined {
  try {
    rollEntered(purpose, notation, entered, variables, {});
    return undefined;
  } catch (error) {
    if (error instanceof DiceEntryError || error instanceof DiceError)
      return { code: error.code, message: error.message };
    throw error;
  }
}

/**
 * A roll from what was entered at the table: its faces, the sum its dice show, or its marked
 * total. A sum or total that only one set of faces gives is recorded as those faces; one that
 * several give is recorded as a total alone, unless the rules read the faces.
 */
function rollEntered(
  purpose: string,
  notation: string,
  entered: EnteredRoll,
  variables: Variables,
  needs: RollNeeds,
): Omit<RollRecord, 'entered'> {
  if (isEnteredFaces(entered)) return rollFaces(purpose, notation, entered, variables);
  const expression = parseDice(notation);
  let total: number;
  /** What was entered, as the record's text and a refusal say it. */
  let entry: string;
  if ('total' in entered) {
    total = entered.total;
    entry = 'a total';
    const reading = readTotal(purpose, notation, expression, total, variables);
    if (reading.kind === 'faces') return rollFaces(purpose, notation, reading.faces, variables);
  } else {
    const reading = readSum(purpose, notation, expression, entered.sum, variables);
    if (reading.kind === 'faces') return rollFaces(purpose, notation, reading.faces, variables);
    total = reading.total;
    entry = `dice showing ${entered.sum}`;
  }
  if (needs.readsFaces) {
    throw new DiceEntryError(
      'dice/entered-too-few',
      `${purpose} (${notation}): the rules read each die, and several rolls ${'total' in entered ? `give ${total}` : `show ${entered.sum}`}: enter the faces`,
      purpose,
      notation,
    );
  }
  return {
    purpose,
    notation,
    total,
    dice: [],
    text: `${notation} = ${total} (entered as ${entry})`,
    totalOnly: true,
  };
}

/** A roll from its faces, each checked against the die it fills, all of them used. */
function rollFaces(
  purpose: string,
  notation: string,
  faces: readonly number[],
  variables: Variables,
): Omit<RollRecord, 'entered'> {
  const dice = new EnteredDice(faces);
  try {
    const result = parseDice(notation).roll({ dice, variables });
    if (dice.remaining > 0) {
      throw new DiceEntryError(
        'dice/entered-too-many',
        `${purpose} (${notation}) uses fewer dice than the ${faces.length} entered`,
        purpose,
        notation,
      );
    }
    return { purpose, notation, total: result.total, dice: [...dice.used], text: result.text };
  } catch (error) {
    if (error instanceof DiceError && error.code.startsWith('dice/entered-')) {
      throw new DiceEntryError(
        error.code as DiceEntryError['code'],
        `${purpose} (${notation}): ${error.message}`,
        purpose,
        notation,
      );
    }
    throw error;
  }
}

/** Reads `{ sum }`: the faces it stands for, or the one total all its rolls give; else refused. */
function readSum(
  purpose: string,
  notation: string,
  expression: DiceExpression,
  sum: number,
  variables: Variables,
):
  | { readonly kind: 'faces'; readonly faces: readonly number[] }
  | { readonly kind: 'total'; readonly total: number } {
  const reading = readEnteredSum(expression, sum, variables);
  if (reading.kind === 'impossible') {
    throw new DiceEntryError(
      'dice/entered-out-of-range',
      `${purpose} (${notation}): ${sum} is not what its dice can show (${reading.min} to ${reading.max})`,
      purpose,
      notation,
    );
  }
  if (reading.kind === 'ambiguous' || reading.kind === 'unlisted') {
    const why =
      reading.kind === 'ambiguous'
        ? `dice showing ${sum} can give different totals`
        : `too many rolls show ${sum} to tell its total`;
    throw new DiceEntryError(
      'dice/entered-too-few',
      `${purpose} (${notation}): ${why}: enter the faces, or the total as total:N`,
      purpose,
      notation,
    );
  }
  return reading;
}

function readTotal(
  purpose: string,
  notation: string,
  expression: DiceExpression,
  total: number,
  variables: Variables,
): Exclude<TotalReading, { kind: 'impossible' }> {
  let reading: TotalReading;
  try {
    reading = readEnteredTotal(expression, total, variables);
  } catch (error) {
    if (!(error instanceof DiceError)) throw error;
    throw new DiceEntryError(
      'dice/entered-out-of-range',
      `${purpose} (${notation}): a total cannot be checked here (${error.message}): enter the faces`,
      purpose,
      notation,
    );
  }
  if (reading.kind === 'impossible') {
    throw new DiceEntryError(
      'dice/entered-out-of-range',
      `${purpose} (${notation}): ${total} is not a total this roll can give (${reading.min} to ${reading.max})`,
      purpose,
      notation,
    );
  }
  return reading;
}

/**
 * Hands a command the rolls a log recorded for it, in order, after checking each: same
 * purpose, same notation, and the recorded faces give the recorded total. Deciding a logged
 * command again with these must give exactly the logged events, or the log was changed.
 */
export class ReplayDice implements DiceRoller {
  private readonly byPurpose = new Map<string, RollRecord>();
  private readonly purposes = new Purposes();

  constructor(records: readonly RollRecord[]) {
    for (const record of records) this.byPurpose.set(record.purpose, record);
  }

  roll(
    asked: string,
    notation: string,
    variables: Variables = {},
    needs: RollNeeds = {},
  ): RollRecord {
    const purpose = this.purposes.next(asked);
    const record = this.byPurpose.get(purpose);
    if (record === undefined || record.notation !== notation) {
      throw new DiceEntryError(
        'save/inconsistent',
        `the log has no roll for ${purpose} (${notation})`,
        purpose,
        notation,
      );
    }
    this.byPurpose.delete(purpose);
    if (record.totalOnly === true) {
      // Only a total that several rolls give is kept without faces; anything else was changed.
      const reading = readTotal(purpose, notation, parseDice(notation), record.total, variables);
      if (reading.kind !== 'total' || needs.readsFaces || record.dice.length > 0) {
        throw new DiceEntryError(
          'save/inconsistent',
          `the logged total for ${purpose} should have been recorded with its faces`,
          purpose,
          notation,
        );
      }
      return record;
    }
    // A log's record of a roll keeps its faces: they are read as faces whatever their count.
    const again = rollFaces(purpose, notation, record.dice, variables);
    if (again.total !== record.total || (record.text !== '' && again.text !== record.text)) {
      throw new DiceEntryError(
        'save/inconsistent',
        `the logged roll for ${purpose} does not add up`,
        purpose,
        notation,
      );
    }
    return record;
  }

  /** True when the command used every logged roll. */
  get finished(): boolean {
    return this.byPurpose.size === 0;
  }
}

/** Every RollRecord inside a command's events, in order: they are plain data of a known shape. */
export function recordedRolls(events: readonly unknown[]): RollRecord[] {
  const found: RollRecord[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === 'object') {
      const v = value as Record<string, unknown>;
      if (
        typeof v.purpose === 'string' &&
        typeof v.notation === 'string' &&
        Array.isArray(v.dice) &&
        typeof v.total === 'number'
      ) {
        found.push(v as unknown as RollRecord);
        return;
      }
      for (const key of Object.keys(v)) visit(v[key]);
    }
  };
  visit(events);
  return found;
}
