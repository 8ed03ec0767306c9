/**
 * The files a GM picks for a content pack, as the import route takes them: YAML and JSON files
 * as they are, a .zip opened in the browser into the YAML and JSON files it holds. Bounded, so
 * a huge or hostile archive is refused here before anything is sent.
 */
import { strFromU8, unzipSync } from 'fflate';

/** As the import route bounds a pack (docs/server.md). */
export const MAX_PACK_FILES = 2000;
export const MAX_PACK_BYTES = 8 * 1024 * 1024;

export interface PackFile {
  readonly name: string;
  readonly text: string;
}

const CONTENT_FILE = /\.(ya?ml|json)$/i;

export type PackRead =
  | {
      readonly ok: true;
      /** What the import route takes: the files, or a .tar.gz's bytes (base64) it opens itself. */
      readonly pack: { readonly files: readonly PackFile[] } | { readonly archive: string };
      /** How many files, or the archive's name, for the page to say what it sent. */
      readonly what: string;
    }
  | { readonly ok: false; readonly message: string };

const TAR_GZ = /\.(tar\.gz|tgz)$/i;

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

/**
 * Reads picked files (name and bytes) into a pack: YAML and JSON as they are, a .zip opened
 * here, a .tar.gz (what the library's export writes) sent whole for the server to open.
 */
export function packFiles(picked: readonly { name: string; bytes: Uint8Array }[]): PackRead {
  const tar = picked.find((p) => TAR_GZ.test(p.name));
  if (tar !== undefined) {
    if (picked.length > 1) return { ok: false, message: `${tar.name}: upload an archive alone` };
    if (tar.bytes.length > MAX_PACK_BYTES) {
      return {
        ok: false,
        message: `${tar.name}: a pack is at most ${MAX_PACK_BYTES / 1024 / 1024} MB`,
      };
    }
    return { ok: true, pack: { archive: base64(tar.bytes) }, what: tar.name };
  }
  const files: PackFile[] = [];
  let total = 0;
  const add = (name: string, bytes: Uint8Array): string | undefined => {
    total += bytes.length;
    if (total > MAX_PACK_BYTES) {
      return `a pack holds at most ${MAX_PACK_BYTES / 1024 / 1024} MB of content files`;
    }
    if (files.length >= MAX_PACK_FILES) return `a pack holds at most ${MAX_PACK_FILES} files`;
    files.push({ name, text: strFromU8(bytes) });
    return undefined;
  };
  for (const { name, bytes } of picked) {
    if (/\.zip$/i.test(name)) {
      let entries: Record<string, Uint8Array>;
      let seen = 0;
      try {
        entries = unzipSync(bytes, {
          // Only content files are inflated, and no more of them than a pack may hold.
          filter: (f) =>
            CONTENT_FILE.test(f.name) &&
            !f.name.split('/').some((part) => part.startsWith('.')) &&
            f.originalSize <= MAX_PACK_BYTES &&
            ++seen <= MAX_PACK_FILES + 1,
        });
      } catch (error) {
        return {
          ok: false,
          message: `${name}: not a readable zip archive (${error instanceof Error ? error.message : String(error)})`,
        };
      }
      const inside = Object.keys(entries).sort();
      if (inside.length === 0) return { ok: false, message: `${name}: holds no YAML or JSON file` };
      for (const path of inside) {
        const refused = add(`${name}/${path}`, entries[path]!);
        if (refused !== undefined) return { ok: false, message: refused };
      }
    } else if (CONTENT_FILE.test(name)) {
      const refused = add(name, bytes);
      if (refused !== undefined) return { ok: false, message: refused };
    } else {
      return {
        ok: false,
        message: `${name}: a pack holds .yaml, .yml or .json files, or a .zip or .tar.gz of them`,
      };
    }
  }
  if (files.length === 0) return { ok: false, message: 'pick at least one file' };
  return {
    ok: true,
    pack: { files },
    what: files.length === 1 ? 'one file' : `${files.length} files`,
  };
}
