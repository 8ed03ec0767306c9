/**
 * Field builders for kind schemas. Each one reports a failure as `expected <what>, got <value>`,
 * naming the whole rule (range, step) rather than the one check that failed, so an author
 * learns in one message what the field accepts.
 */
import { z } from 'zod';
import { DiceError, parseDice } from '../dice/index.js';
import { describeValue, expectedGot } from './errors.js';
import { ID_PATTERN } from './kind.js';

/** Zod error parameters that state the field's whole rule whichever check fails. */
function expecting(expected: string): { error: (issue: { readonly input?: unknown }) => string } {
  return { error: (issue) => expectedGot(expected, issue.input) };
}

/**
 * Dice notation (`2d6+3`, `2*AGI + d12`), parsed by the dice engine at load so a bad code is a
 * load error with its column. The data keeps the notation string, so it stays JSON; get the
 * parsed DiceExpression with `parseDice(notation)`, which caches, instead of parsing again.
 * Variables are resolved when rolled, not here.
 */
export function diceCode() {
  return z
    .string(expecting('dice notation, like "2d6+3"'))
    .superRefine((notation, context) => {
      try {
        parseDice(notation);
      } catch (error) {
        if (!(error instanceof DiceError)) throw error;
        const at = error.column === undefined ? '' : ` at column ${error.column}`;
        context.addIssue({
          code: 'custom',
          input: notation,
          message: `${describeValue(notation)} is not valid dice notation${at}: ${error.message}`,
        });
      }
    })
    .describe('Dice notation, e.g. "2d6+3" or "2*AGI + d12".');
}

/** The id of another entity; which kind it names is up to `ContentKind.references`. */
export function contentId() {
  const rule = expecting('an id (lowercase letters, digits and "-", like "fire-sword")');
  return z.string(rule).regex(ID_PATTERN, rule).describe('The id of another content entity.');
}

/** A whole number from `min` to `max` inclusive. */
export function intInRange(min: number, max: number) {
  const rule = expecting(`a whole number from ${min} to ${max}`);
  return z.int(rule).min(min, rule).max(max, rule);
}

export function nonNegativeInt() {
  const rule = expecting('a whole number, 0 or more');
  return z.int(rule).min(0, rule);
}

export interface PercentageOptions {
  /** Only multiples of this, e.g. 25 for resistances written as 0, 25, 50, 75, 100. */
  readonly step?: number;
  readonly min?: number;
  /** 100 unless given: some rates (an Accuracy, a CoS before its cap) run higher. */
  readonly max?: number;
}

/** A whole-number percentage, written without the `%`. */
export function percentage(options: PercentageOptions = {}) {
  const { step, min = 0, max = 100 } = options;
  const steps = step === undefined ? '' : ` in steps of ${step}`;
  const rule = expecting(`a whole percentage from ${min} to ${max}${steps}`);
  const schema = z.int(rule).min(min, rule).max(max, rule);
  return step === undefined ? schema : schema.multipleOf(step, rule);
}

/** The JSON Schema keyword naming the kind whose id a field holds; the web's forms offer its entries. */
export const REF_KEYWORD = 'x-moogle-ref';

/**
 * `schema`, noted as holding the id of a `kind` entity: validation is unchanged (the loader's
 * check is `ContentKind.references`), the JSON Schema says which kind, for editors and forms.
 */
export function refersTo<S extends z.ZodType>(kind: string, schema: S): S {
  return schema.meta({ [REF_KEYWORD]: kind });
}

/** The JSON Schema keyword marking an optional field that a new entry's form starts with. */
export const FORM_START_KEYWORD = 'x-moogle-form-start';

/**
 * `schema` (an optional field), shown in a new entry's form from the start rather than behind
 * its "+" button: the file may do without it, but the campaign rules want it (a Shining Force
 * member levels up in a class). Validation is unchanged.
 */
export function startsInForms<S extends z.ZodType>(schema: S): S {
  return schema.meta({ [FORM_START_KEYWORD]: true });
}

/**
 * `schema`, with the value a new entry's form starts it at (JSON Schema's `examples`), where the
 * least the schema allows would make a sheet that cannot play: a ZODIAC Speed of 0 never earns
 * the 8 Speed Points an action costs. Validation is unchanged.
 */
export function formStartsAt<S extends z.ZodType>(schema: S, value: z.infer<S>): S {
  return schema.meta({ examples: [value] });
}
