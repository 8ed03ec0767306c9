import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/**
 * Writes a file so that it is never half-written: the text goes to a temporary file beside it,
 * is flushed to disk, and replaces the file by rename (atomic on one file system). A write that
 * fails (disk full, file size limit) leaves the previous file as it was.
 */
export function writeAtomically(path: string, text: string): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'w', 0o644);
    writeSync(fd, text);
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
    throw error;
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

/** Where autosaves go when `--autosave` names no file: MOOGLE_SAVES_DIR, or ./moogle-saves. */
export function savesFolder(env: NodeJS.ProcessEnv = process.env): string {
  return env.MOOGLE_SAVES_DIR !== undefined && env.MOOGLE_SAVES_DIR !== ''
    ? env.MOOGLE_SAVES_DIR
    : 'moogle-saves';
}

/**
 * A new autosave file for an encounter file, named for it and the time the battle started
 * (`wind-cave-2026-11-30-1532.json`), numbered past any that exist.
 */
export function newAutosavePath(
  encounterFile: string,
  now: Date,
  exists: (path: string) => boolean,
  folder = savesFolder(),
): string {
  mkdirSync(folder, { recursive: true });
  const stem = basename(encounterFile, extname(encounterFile)).replace(/[^A-Za-z0-9_-]+/g, '-');
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  for (let n = 1; ; n++) {
    const path = join(folder, `${stem}-${stamp}${n === 1 ? '' : `-${n}`}.json`);
    if (!exists(path)) return path;
  }
}
