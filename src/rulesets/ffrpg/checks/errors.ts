/**
 * Every mistake a caller can make with a Task Check (a d% result that no pair of d10 can show, a
 * CoS that is not a whole number, an Opposed Task Check with one side) is a CheckError with a
 * stable code, as the dice engine's mistakes are DiceErrors: callers branch on the code, people
 * read the message.
 */
export type CheckErrorCode =
  | 'check/roll-out-of-range'
  | 'check/roll-needed'
  | 'check/bad-rating'
  | 'check/bad-modifier'
  | 'check/unknown-difficulty'
  | 'check/bad-cos'
  | 'check/bad-count'
  | 'check/too-many-rolls'
  | 'check/too-few-participants'
  | 'check/duplicate-participant';

export class CheckError extends Error {
  override readonly name = 'CheckError';
  readonly code: CheckErrorCode;

  constructor(code: CheckErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** What a parse returns instead of throwing, for input read from a person. */
export type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: CheckError };
