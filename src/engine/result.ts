/** What a command, a load or a check returns: a value, or an error a person can read. */
export type Result<T, E = EngineError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

/**
 * An error a user caused (a command that is not allowed now, dice that do not fit, a save file
 * that does not load): a stable code to branch on and a sentence to show. Never thrown.
 */
export interface EngineError {
  /** `area/what`, such as `action/not-your-turn` or `dice/entered-out-of-range`. */
  readonly code: string;
  readonly message: string;
  /**
   * For `dice/needs-entry` and the `dice/entered-*` errors: the roll in question and its
   * notation, so an interface can ask for exactly those dice.
   */
  readonly purpose?: string;
  readonly notation?: string;
  /**
   * The file (and path and line in it) that holds the mistake, when it is not the one the caller
   * was reading: a character sheet's error found while building an encounter from it.
   */
  readonly source?: { readonly file: string; readonly path: string; readonly line?: number };
}

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function err(
  code: string,
  message: string,
  roll?: { readonly purpose: string; readonly notation: string },
): { readonly ok: false; readonly error: EngineError } {
  return { ok: false, error: roll === undefined ? { code, message } : { code, message, ...roll } };
}
