/**
 * Reading a file a user named, without trusting it: only regular files, never more than a cap
 * of bytes. The cap is enforced while reading, not from `stat`: /dev/zero and /proc files say
 * they are empty, and a file can grow between the check and the read.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type BoundedRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string };

const CHUNK = 64 * 1024;

/** `1 MiB`, `512 KiB`: how limits read in messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * The UTF-8 text of a regular file of at most `maxBytes` bytes, or a short reason why not
 * (never any of the file's bytes). FIFOs, devices, sockets and directories are refused without
 * reading; the file is opened non-blocking so that opening a FIFO cannot wait for a writer.
 */
export function readBoundedText(path: string, maxBytes: number): BoundedRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { ok: false, reason: fsReason(error) };
  }
  try {
    // fstat of the open descriptor: the file checked is the file read.
    if (!fstatSync(fd).isFile()) {
      return { ok: false, reason: 'not a regular file (a device, pipe, socket or directory)' };
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // One byte past the cap tells a file of exactly maxBytes from a larger one.
      const want = Math.min(CHUNK, maxBytes + 1 - total);
      if (want <= 0) break;
      const chunk = Buffer.allocUnsafe(want);
      const got = readSync(fd, chunk, 0, want, null);
      if (got === 0) break;
      chunks.push(got === want ? chunk : chunk.subarray(0, got));
      total += got;
    }
    if (total > maxBytes) {
      return { ok: false, reason: `the file is over the ${formatBytes(maxBytes)} limit` };
    }
    try {
      return {
        ok: true,
        text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)),
      };
    } catch {
      return { ok: false, reason: 'the file is not UTF-8 text' };
    }
  } catch (error) {
    return { ok: false, reason: fsReason(error) };
  } finally {
    closeSync(fd);
  }
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  EAGAIN: 'not a regular file (nothing to read yet)',
  ENXIO: 'not a regular file',
};

/** A file system error as a short reason: the code's meaning, not a message with paths in it. */
export function fsReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return FS_REASONS[code] ?? `cannot read (${code})`;
  return 'cannot read';
}
