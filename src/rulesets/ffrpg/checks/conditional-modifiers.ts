import { CheckError, type Checked } from './errors.js';

/** Table 1-1: Conditional Modifiers, easiest first, as the rule text prints it. */
export const CONDITIONAL_MODIFIERS = [
  { difficulty: 'Elementary', modifier: 80 },
  { difficulty: 'Easy', modifier: 40 },
  { difficulty: 'Average', modifier: 20 },
  { difficulty: 'Problematic', modifier: 0 },
  { difficulty: 'Challenging', modifier: -20 },
  { difficulty: 'Formidable', modifier: -40 },
  { difficulty: 'Heroic', modifier: -60 },
  { difficulty: 'Impossible', modifier: -80 },
] as const;

export type TaskDifficulty = (typeof CONDITIONAL_MODIFIERS)[number]['difficulty'];

/** "a Conditional Modifier ranging from +80 to -80" */
export const MAX_CONDITIONAL_MODIFIER = 80;
export const MIN_CONDITIONAL_MODIFIER = -80;

/** The Conditional Modifier of a Task Difficulty named in any case (`heroic`), or undefined. */
export function conditionalModifierOf(difficulty: string): number | undefined {
  const wanted = difficulty.trim().toLowerCase();
  return CONDITIONAL_MODIFIERS.find((row) => row.difficulty.toLowerCase() === wanted)?.modifier;
}

/** The Task Difficulty Table 1-1 gives exactly this modifier, if any (+20 is Average, +30 none). */
export function taskDifficultyOf(modifier: number): TaskDifficulty | undefined {
  return CONDITIONAL_MODIFIERS.find((row) => row.modifier === modifier)?.difficulty;
}

/**
 * True for any whole number from -80 to +80: the table names steps of 20, but a GM weighing
 * "the basic difficulty of the task as well as the circumstances" may land between them.
 */
export function isConditionalModifier(modifier: number): boolean {
  return (
    Number.isInteger(modifier) &&
    modifier >= MIN_CONDITIONAL_MODIFIER &&
    modifier <= MAX_CONDITIONAL_MODIFIER
  );
}

/**
 * Reads a Conditional Modifier as a GM gives it: a Task Difficulty from Table 1-1 (`Heroic`,
 * `easy`) or a whole number from -80 to +80 (`-20`, `+40`, `35`).
 */
export function parseConditionalModifier(input: string | number): Checked<number> {
  if (typeof input === 'string') {
    const text = input.trim();
    if (/^[+-]?\d{1,16}$/.test(text)) return parseConditionalModifier(Number(text));
    const named = conditionalModifierOf(text);
    if (named !== undefined) return { ok: true, value: named };
    const names = CONDITIONAL_MODIFIERS.map((row) => row.difficulty).join(', ');
    return {
      ok: false,
      error: new CheckError(
        'check/unknown-difficulty',
        `'${input}' is neither a number nor a Task Difficulty of Table 1-1 (${names})`,
      ),
    };
  }
  // `-0` typed at a prompt is Problematic, not a signed zero that prints oddly.
  if (isConditionalModifier(input)) return { ok: true, value: input === 0 ? 0 : input };
  return {
    ok: false,
    error: new CheckError(
      'check/bad-modifier',
      `a Conditional Modifier is a whole number from -80 to +80, got ${input}`,
    ),
  };
}
