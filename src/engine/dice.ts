import {
  DiceError,
  EnteredDice,
  parseDice,
  type SeededDice,
  type Variables,
} from '../dice/index.js';

/**
 * A roll as an event records it: enough to show the table what happened and to replay without
 * rolling again. `purpose` names the roll within its command (`hit:heket`, `damage:heket`,
 * `initiative:hiro`), which is also how a GM enters physical dice for it.
 */
export interface RollRecord {
  readonly purpose: string;
  readonly notation: string;
  readonly total: number;
  /** The one-line explanation: `2*AGI + d12 = 2 * 10 + [10] = 30`. Empty when not explained. */
  readonly text: string;
  /** True when the faces were rolled at the table and entered. */
  readonly entered: boolean;
}

/**
 * How a command gets its dice: the ruleset asks, the engine answers. Purposes are unique within
 * a command: a repeated one is numbered (`damage:heket#2`).
 */
export interface DiceRoller {
  roll(purpose: string, notation: string, variables?: Variables): RollRecord;
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
      | 'dice/needs-entry',
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

/**
 * The dice of one command: entered faces where the GM gave them, the encounter's seeded stream
 * everywhere else.
 */
export class CommandDice implements DiceRoller {
  private readonly used = new Set<string>();
  private readonly asked = new Map<string, number>();

  constructor(
    private readonly seeded: SeededDice,
    private readonly options: CommandDiceOptions = {},
  ) {}

  roll(asked: string, notation: string, variables: Variables = {}): RollRecord {
    // A second roll for the same purpose in one command (a charge coming due after an attack
    // on the same target) is 'damage:heket#2', so each roll can be entered on its own.
    const seen = (this.asked.get(asked) ?? 0) + 1;
    this.asked.set(asked, seen);
    const purpose = seen === 1 ? asked : `${asked}#${seen}`;
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
      if (this.options.explain === false) {
        return {
          purpose,
          notation,
          total: expression.total(this.seeded, variables),
          text: '',
          entered: false,
        };
      }
      const result = expression.roll({ dice: this.seeded, variables });
      return { purpose, notation, total: result.total, text: result.text, entered: false };
    }
    this.used.add(purpose);
    const dice = new EnteredDice(faces);
    try {
      const result = expression.roll({ dice, variables });
      if (dice.remaining > 0) {
        throw new DiceEntryError(
          'dice/entered-too-many',
          `${purpose} (${notation}) uses fewer dice than the ${faces.length} entered`,
          purpose,
          notation,
        );
      }
      return { purpose, notation, total: result.total, text: result.text, entered: true };
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

  /** Entered rolls the command never asked for: most likely a typo in the purpose. */
  unusedEntries(): string[] {
    return Object.keys(this.options.entered ?? {}).filter((purpose) => !this.used.has(purpose));
  }
}
