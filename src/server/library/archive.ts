import { strToU8, unzipSync, zipSync } from 'fflate';
import { err, ok, type Result } from '../../engine/index.js';
import { MAX_PACK_BYTES, MAX_PACK_FILES, type PackFile } from './operations.js';

/**
 * A content pack as one .zip (fflate): read in memory, never unpacked to a disk. Each entry is
 * inflated into a buffer of the size its header declares, never more, and the declared sizes
 * are added up before anything is inflated: a small archive cannot unpack to gigabytes. Entries
 * are counted as they are listed, so a directory that claims millions stops at once. A name
 * that climbs out (`../`) or is absolute is refused by name, as the pack's other checks refuse
 * it (operations.ts); folders, hidden files and a Mac's `__MACOSX/` are skipped.
 */

/** Thrown out of fflate's listing to stop it: the refusal is answered as a result. */
class Stop extends Error {
  constructor(readonly result: Result<never>) {
    super('stopped');
  }
}

export function readZip(archive: Uint8Array): Result<PackFile[]> {
  let listed = 0;
  let declared = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(archive, {
      filter: (file) => {
        if (++listed > 2 * MAX_PACK_FILES) {
          throw new Stop(
            err('content/too-large', `an archive holds at most ${MAX_PACK_FILES} files`),
          );
        }
        if (skipped(file.name)) return false;
        if (file.name.startsWith('/') || file.name.split('/').includes('..')) {
          throw new Stop(
            err(
              'content/bad-archive',
              `${file.name.slice(0, 200)}: refused: a path out of the archive`,
            ),
          );
        }
        // A stored entry is copied at its stored size, a deflated one inflated to its declared.
        declared += file.compression === 0 ? file.size : file.originalSize;
        if (declared > MAX_PACK_BYTES) {
          throw new Stop(
            err(
              'content/too-large',
              `the archive unpacks to more than ${MAX_PACK_BYTES / 1024 / 1024} MiB`,
            ),
          );
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof Stop) return error.result;
    return err('content/bad-archive', 'not a .zip archive, or a damaged one');
  }
  const files: PackFile[] = [];
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const [name, bytes] of Object.entries(entries)) {
    try {
      files.push({ name, text: utf8.decode(bytes) });
    } catch {
      return err('content/bad-archive', `${name.slice(0, 200)}: not UTF-8 text`);
    }
  }
  if (files.length > MAX_PACK_FILES) {
    return err('content/too-large', `an archive holds at most ${MAX_PACK_FILES} files`);
  }
  return ok(files);
}

function skipped(name: string): boolean {
  return (
    name.endsWith('/') ||
    name.split('/').some((part) => part.startsWith('.') && part !== '..') ||
    name.startsWith('__MACOSX/')
  );
}

/** Files as a .zip, each under its name; dated 1980 so the same library gives the same bytes. */
export function writeZip(files: readonly PackFile[]): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const file of files) entries[file.name] = strToU8(file.text);
  return zipSync(entries, { level: 6, mtime: new Date(1980, 0, 1) });
}
