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
}

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function err(
  code: string,
  message: string,
): { readonly ok: false; readonly error: EngineError } {
  return { ok: false, error: { code, message } };
}
