import {
  DiceError,
  type DiceExpression,
  type DiceSource,
  EnteredDice,
  parseDice,
  type SeededDice,
  type Variables,
} from '../dice/index.js';
import { readEnteredTotal, singleFaceIsTotal, type TotalReading } from './entered-total.js';

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
   * True when only the total was entered and several rolls give it (`damage:heket=32` on
   * 2*STR+2d8): `dice` is then empty, and the total was checked against the roll's possible
   * values.
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

/** Faces a GM rolled at the table, keyed by the purpose of the roll they fill. */
export type EnteredRolls = Readonly<Record<string, readonly number[]>>;

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
    const faces = this.options.entered?.[purpose];
    if (faces === undefined) {
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
    return { ...rollEntered(purpose, notation, faces, variables, needs), entered: true };
  }

  /** Entered rolls the command never asked for: most likely a typo in the purpose. */
  unusedEntries(): string[] {
    return Object.keys(this.options.entered ?? {}).filter((purpose) => !this.used.has(purpose));
  }
}

/**
 * A roll from what was entered at the table: the faces, or one number that is its total (a
 * player announcing "32 damage"). A total that only one set of faces gives is recorded as those
 * faces; one that several give is recorded as a total alone, unless the rules read the faces.
 */
function rollEntered(
  purpose: string,
  notation: string,
  entered: readonly number[],
  variables: Variables,
  needs: RollNeeds,
  /** The numbers are faces whatever their count: a log's record of a roll keeps its faces. */
  facesOnly = false,
): Omit<RollRecord, 'entered'> {
  let faces = entered;
  const expression = parseDice(notation);
  if (
    !facesOnly &&
    entered.length === 1 &&
    !singleFaceIsTotal(expression, entered[0]!, variables)
  ) {
    const total = entered[0]!;
    const reading = readTotal(purpose, notation, expression, total, variables);
    if (reading.kind === 'faces') {
      faces = reading.faces;
    } else {
      if (needs.readsFaces) {
        throw new DiceEntryError(
          'dice/entered-too-few',
          `${purpose} (${notation}): the rules read each die, and several rolls give ${total}: enter the faces`,
          purpose,
          notation,
        );
      }
      return {
        purpose,
        notation,
        total,
        dice: [],
        text: `${notation} = ${total} (entered as a total)`,
        totalOnly: true,
      };
    }
  }
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
    const again = rollEntered(purpose, notation, record.dice, variables, needs, true);
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
