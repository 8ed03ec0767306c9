/**
 * Feng Shui action dice, the dice notation's `fs`: a positive d6 minus a negative d6, each
 * exploding on a six. A GM enters the faces in the order they fell: the positive die and its
 * explosions first, then the negative die's.
 */
export const ACTION_DICE = 'fs';

export interface ActionDiceReading {
  /** The positive die with its explosions, e.g. 6 + 6 + 3 = 15. */
  readonly positive: number;
  readonly negative: number;
  /** positive - negative: what is added to the Action Value. */
  readonly roll: number;
  /** Both dice came up six on the first throw: the Feng Shui sign of a critical failure. */
  readonly boxcars: boolean;
}

/**
 * Splits the faces of one action dice roll into its two dice. An exploding d6 keeps rolling
 * while it shows six, so the positive die is the leading run of sixes and one face more.
 */
export function readActionDice(faces: readonly number[]): ActionDiceReading {
  let i = 0;
  let positive = 0;
  while (i < faces.length && faces[i] === 6) positive += faces[i++]!;
  positive += faces[i] ?? 0;
  const negativeStart = i + 1;
  let negative = 0;
  for (let j = negativeStart; j < faces.length; j++) negative += faces[j]!;
  return {
    positive,
    negative,
    roll: positive - negative,
    boxcars: faces[0] === 6 && faces[negativeStart] === 6,
  };
}

export interface ActionCheck {
  readonly actionValue: number;
  readonly difficulty: number;
  readonly roll: number;
  /** Action Value + the action dice. */
  readonly result: number;
  /** "higher than or equal to the difficulty, the action succeeds" */
  readonly success: boolean;
  /** result - difficulty: on a physical hit, the extra damage of a well-placed blow. */
  readonly margin: number;
  readonly boxcars: boolean;
  /** Boxcars that count as a critical failure under the table's `boxcars` option. */
  readonly criticalFailure: boolean;
}

/**
 * How boxcars read: Feng Shui's own rule makes them a disaster only when the action fails
 * anyway (`failure-only`); some tables make every boxcars a critical failure (`always`).
 */
export type BoxcarsRule = 'failure-only' | 'always';

export function actionCheck(
  actionValue: number,
  difficulty: number,
  roll: number,
  boxcars: boolean,
  rule: BoxcarsRule = 'failure-only',
): ActionCheck {
  const result = actionValue + roll;
  const success = result >= difficulty && !(boxcars && rule === 'always');
  return {
    actionValue,
    difficulty,
    roll,
    result,
    success,
    margin: result - difficulty,
    boxcars,
    criticalFailure: boxcars && (rule === 'always' || result < difficulty),
  };
}

/**
 * The difficulty of an action on a willing target: "the caster simply needs to get any
 * positive result, after rolling. Even a 1 succeeds."
 */
export const WILLING_DIFFICULTY = 1;
