import { gunzipSync, gzipSync } from 'node:zlib';
import { err, ok, type Result } from '../../engine/index.js';
import { MAX_PACK_BYTES, MAX_PACK_FILES, type PackFile } from './operations.js';

/**
 * A content pack as one .tar.gz: read in memory, never unpacked to a disk. The gzip stream is
 * stopped at MAX_PACK_BYTES (a small archive may unpack to gigabytes), the entries counted, and
 * only regular files kept: a link, a device or a name that climbs out is refused by name, as
 * the pack's other checks refuse it (operations.ts). Ustar with GNU long names, which `tar`
 * writes by default; pax headers are skipped (their long names too: the ustar name stands).
 */

const BLOCK = 512;

export function readTarGz(archive: Uint8Array): Result<PackFile[]> {
  let tar: Buffer;
  try {
    tar = gunzipSync(archive, { maxOutputLength: MAX_PACK_BYTES + 64 * BLOCK * MAX_PACK_FILES });
  } catch (error) {
    return error instanceof RangeError
      ? err(
          'content/too-large',
          `the archive unpacks to more than ${MAX_PACK_BYTES / 1024 / 1024} MiB`,
        )
      : err('content/bad-archive', 'not a .tar.gz archive: it does not unzip');
  }
  const files: PackFile[] = [];
  let longName: string | undefined;
  let offset = 0;
  let headers = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    if (++headers > 4 * MAX_PACK_FILES) {
      return err('content/too-large', `an archive holds at most ${MAX_PACK_FILES} files`);
    }
    if (!checksumMatches(header)) {
      return err('content/bad-archive', `not a tar archive: a damaged header at byte ${offset}`);
    }
    const size = octal(header.subarray(124, 136));
    if (size === undefined || offset + BLOCK + size > tar.length) {
      return err('content/bad-archive', `not a tar archive: a damaged size at byte ${offset}`);
    }
    const type = String.fromCharCode(header[156]!);
    const data = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    const prefix = text(header.subarray(345, 500));
    const ownName = text(header.subarray(0, 100));
    const name = longName ?? (prefix === '' ? ownName : `${prefix}/${ownName}`);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L') {
      longName = data.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    longName = undefined;
    if (type === 'x' || type === 'g' || type === '5') continue;
    const clean = name.replace(/^\.\//, '');
    if (type !== '0' && type !== '\0') {
      return err('content/bad-archive', `${clean}: refused: not a regular file`);
    }
    // Hidden files (a Mac's `._name`) are skipped, as the loader skips them in a folder.
    if (clean.split('/').some((part) => part.startsWith('.') && part !== '..')) continue;
    if (files.length >= MAX_PACK_FILES) {
      return err('content/too-large', `an archive holds at most ${MAX_PACK_FILES} files`);
    }
    files.push({ name: clean, text: data.toString('utf8') });
  }
  return ok(files);
}

/** Files as a .tar.gz, each a regular file under its name (long names as GNU writes them). */
export function writeTarGz(files: readonly PackFile[]): Buffer {
  const blocks: Buffer[] = [];
  const mtime = 0;
  const put = (name: string, type: string, data: Buffer): void => {
    const header = Buffer.alloc(BLOCK);
    header.write(name.slice(0, 100), 0, 'utf8');
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write(`${mtime.toString(8).padStart(11, '0')}\0`, 136);
    header.write('        ', 148);
    header.write(type, 156);
    header.write('ustar  \0', 257);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK));
  };
  for (const file of files) {
    const data = Buffer.from(file.text, 'utf8');
    if (Buffer.byteLength(file.name) > 99) {
      put('././@LongLink', 'L', Buffer.from(`${file.name}\0`, 'utf8'));
    }
    put(file.name, '0', data);
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(blocks));
}

function checksumMatches(header: Buffer): boolean {
  const stored = octal(header.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  return stored === sum;
}

function octal(field: Buffer): number | undefined {
  const digits = text(field).trim();
  if (!/^[0-7]+$/.test(digits)) return digits === '' ? 0 : undefined;
  return Number.parseInt(digits, 8);
}

function text(field: Buffer): string {
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}
