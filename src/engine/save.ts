import { z } from 'zod';
import { Encounter, SAVE_FORMAT, SAVE_VERSION, type SavedEncounter } from './encounter.js';
import type { LogEntry } from './log.js';
import { err, ok, type Result } from './result.js';
import type { AnyRuleset, CommandBase, EventBase } from './ruleset.js';

/**
 * The largest save file read. A long fight with every undo kept is a few MiB; the cap bounds the
 * memory a hostile file (or /dev/zero) can take before anything is checked.
 */
export const MAX_SAVE_BYTES = 32 * 1024 * 1024;

const word = z.number().int().min(0).max(0xffffffff);
const diceState = z.object({
  algorithm: z.literal('xoshiro128**'),
  words: z.tuple([word, word, word, word]),
});
const typed = z.looseObject({ type: z.string() });
const seq = z.number().int().min(1);

const logEntry = z.discriminatedUnion('type', [
  z.object({
    seq,
    type: z.literal('command'),
    command: typed,
    events: z.array(typed),
    diceBefore: diceState,
    diceAfter: diceState,
  }),
  z.object({ seq, type: z.literal('undo'), steps: z.number().int().min(1) }),
  z.object({ seq, type: z.literal('redo'), steps: z.number().int().min(1) }),
]);

const savedEncounter = z.object({
  format: z.literal(SAVE_FORMAT),
  version: z.number().int(),
  ruleset: z.string(),
  setup: z.unknown(),
  initialDice: diceState,
  dice: diceState,
  log: z.array(logEntry),
});

/** Checks the shape of a save file (parsed JSON) before any of it is trusted. */
export function parseSavedEncounter(input: unknown): Result<SavedEncounter> {
  const version = (input as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version !== SAVE_VERSION) {
    return err(
      'save/unsupported-version',
      `save format version ${version} is not supported; this Moogle reads version ${SAVE_VERSION}`,
    );
  }
  const parsed = savedEncounter.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('');
    return err(
      'save/malformed',
      `not a Moogle encounter save: ${path.replace(/^\./, '') || 'the file'}: ${issue.message}`,
    );
  }
  const data = parsed.data;
  const seqs = data.log.map((entry) => entry.seq);
  if (seqs.some((s, i) => s !== i + 1)) {
    return err(
      'save/malformed',
      'not a Moogle encounter save: log entries must be numbered 1, 2, 3, ...',
    );
  }
  return ok({ ...data, version: SAVE_VERSION, log: data.log as LogEntry[] });
}

/** An encounter whose ruleset is known only at run time, as one loaded from a file is. */
export type AnyEncounter = Encounter<unknown, unknown, CommandBase, EventBase>;

/** Loads a save with whichever of `rulesets` it names. */
export function loadEncounter(
  input: unknown,
  rulesets: readonly AnyRuleset[],
): Result<AnyEncounter> {
  const saved = parseSavedEncounter(input);
  if (!saved.ok) return saved;
  const ruleset = rulesets.find((r) => r.id === saved.value.ruleset);
  if (ruleset === undefined) {
    const known = rulesets.map((r) => r.id).join(', ');
    return err(
      'save/unknown-ruleset',
      `the save is for ruleset '${saved.value.ruleset}', which is not one of: ${known}`,
    );
  }
  return Encounter.load(ruleset, saved.value);
}
