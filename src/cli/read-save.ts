import { readBoundedText } from '../content/read-bounded.js';
import { MAX_SAVE_BYTES } from '../engine/save.js';
import { UsageError } from './input.js';

/**
 * A save file's JSON, read with a byte cap while reading (never trusting stat, so /dev/zero or
 * a huge file is refused, not loaded into memory), or a UsageError with a one-line reason that
 * quotes none of the file. Its content is checked afterwards by loadEncounter.
 */
export function readSaveJson(file: string): unknown {
  const read = readBoundedText(file, MAX_SAVE_BYTES);
  if (!read.ok) throw new UsageError(`${file}: cannot read the save: ${read.reason}`);
  try {
    return JSON.parse(read.text);
  } catch {
    // V8's message quotes the file's first bytes: say only what is wrong.
    throw new UsageError(`${file}: cannot read the save: it is not JSON`);
  }
}
