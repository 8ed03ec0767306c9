import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Every file the project writes goes through here. `writeSync` may write fewer bytes than it was
 * given (a file size limit, a full disk) and says so only in its return value: a caller that
 * ignores it keeps a truncated file and believes it whole.
 */

/** A write that stopped short: how far it got, and why. */
export class ShortWrite extends Error {
  override readonly name = 'ShortWrite';
  constructor(
    readonly written: number,
    readonly total: number,
    reason: string,
  ) {
    super(`wrote ${written} of ${total} bytes: ${reason}`);
  }
}

/**
 * Writes all of `data` at `fd`'s position, as many writes as it takes; throws `ShortWrite` when
 * the system refuses the rest (EFBIG, ENOSPC) or takes nothing, which would otherwise loop.
 */
export function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let written = 0;
  while (written < bytes.length) {
    let n: number;
    try {
      n = writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      throw new ShortWrite(written, bytes.length, (error as Error).message);
    }
    if (n <= 0) {
      throw new ShortWrite(written, bytes.length, 'the system took no more (a full disk?)');
    }
    written += n;
  }
}

/**
 * Writes a file so that it is never half-written: the text goes to a temporary file beside it,
 * every byte of it, is flushed to disk, and replaces the file by rename (atomic on one file
 * system). A write that fails (disk full, file size limit) removes the temporary file and leaves
 * the previous file as it was; its error says so.
 */
export function writeAtomically(path: string, text: string | Uint8Array): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'w', 0o644);
    writeAll(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temporary);
    } catch {
      // Nothing to clean up: the temporary file was never made.
    }
    const reason = (error as Error).message;
    throw new Error(
      existsSync(path) ? `${reason}; ${path} is unchanged` : `${reason}; ${path} was not written`,
      { cause: error },
    );
  }
  // The rename itself is durable only once the folder is flushed too.
  try {
    const folder = openSync(dirname(path), 'r');
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
  } catch {
    // Some file systems cannot flush a folder; the rename has still happened.
  }
}
