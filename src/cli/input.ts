import { DiceError, type Variables } from '../dice/index.js';

/** A mistake in what the user typed on the command line: exit status 2, message on stderr. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Ends a command with a given exit status after its output is printed: an interrupted `sim`
 * prints its partial result, then exits 130 (128 + SIGINT, as shells report it) so a script
 * does not take a partial result for a finished one.
 */
export class ExitStatus extends Error {
  override readonly name = 'ExitStatus';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Accumulates repeated `--var NAME=VALUE` options into one record. */
export function collectVariable(
  text: string,
  previous?: Record<string, number>,
): Record<string, number> {
  const match = /^([^=]*)=(.*)$/.exec(text);
  if (match === null) throw new UsageError(`--var expects NAME=VALUE, got '${text}'`);
  const name = match[1]!.trim();
  const raw = match[2]!.trim();
  if (!NAME.test(name))
    throw new UsageError(`--var: '${name}' is not a valid name (letters, digits, _)`);
  if (!/^-?\d{1,16}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`--var ${name}: '${raw}' is not a whole number`);
  }
  // Added in place: copying the record for each flag made 5,000 flags take 20 s. A record
  // without a prototype, so a variable named __proto__ is a variable like any other.
  const variables = previous ?? (Object.create(null) as Record<string, number>);
  variables[name] = Number(raw);
  return variables;
}

/** A flag's whole number within bounds (`-n`, `--workers`, `--budget`), or a usage error naming it. */
export function wholeFlag(text: string, flag: string, min: number, max: number): number {
  if (!/^\d{1,12}$/.test(text.trim()) || Number(text) < min || Number(text) > max) {
    throw new UsageError(
      `${flag} takes a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, got '${text}'`,
    );
  }
  return Number(text);
}

/** `--seed 42` is the number 42; any other text is hashed, so `--seed session-3` works too. */
export function parseSeed(text: string): number | string {
  if (/^\d{1,16}$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  if (text.length === 0 || text.length > 200)
    throw new UsageError('--seed must be 1 to 200 characters');
  return text;
}

export function variablesOf(options: { var?: Record<string, number> }): Variables {
  return options.var ?? {};
}

/** The text a user should see for an error they caused, or undefined for a programming error. */
export function describeUserError(error: unknown): string | undefined {
  if (error instanceof DiceError) return error.explain();
  if (error instanceof UsageError) return error.message;
  return undefined;
}
