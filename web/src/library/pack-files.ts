/**
 * The files a GM picks for a content pack, as the import route takes them: YAML and JSON files
 * as their text, or one .zip of them (what the library's export writes) sent whole, for the
 * server to open with its own bounds. What is not content, or too much, is refused here before
 * anything is sent.
 */

/** As the import route bounds a pack (docs/server.md). */
export const MAX_PACK_FILES = 2000;
export const MAX_PACK_BYTES = 8 * 1024 * 1024;

export interface PackFile {
  readonly name: string;
  readonly text: string;
}

const CONTENT_FILE = /\.(ya?ml|json)$/i;
const ARCHIVE = /\.zip$/i;

export type PackRead =
  | {
      readonly ok: true;
      /** What the import route takes: the files, or a .zip's bytes in base64. */
      readonly pack: { readonly files: readonly PackFile[] } | { readonly archive: string };
      /** How many files, or the archive's name, for the page to say what it sent. */
      readonly what: string;
    }
  | { readonly ok: false; readonly message: string };

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

const MB = MAX_PACK_BYTES / 1024 / 1024;

/** Reads picked files (name and bytes) into a pack. */
export function packFiles(picked: readonly { name: string; bytes: Uint8Array }[]): PackRead {
  const archive = picked.find((p) => ARCHIVE.test(p.name));
  if (archive !== undefined) {
    if (picked.length > 1)
      return { ok: false, message: `${archive.name}: upload an archive alone` };
    if (archive.bytes.length > MAX_PACK_BYTES) {
      return { ok: false, message: `${archive.name}: a pack is at most ${MB} MB` };
    }
    return { ok: true, pack: { archive: base64(archive.bytes) }, what: archive.name };
  }
  if (picked.length === 0) return { ok: false, message: 'pick at least one file' };
  if (picked.length > MAX_PACK_FILES) {
    return { ok: false, message: `a pack holds at most ${MAX_PACK_FILES} files` };
  }
  const files: PackFile[] = [];
  let total = 0;
  const decoder = new TextDecoder();
  for (const { name, bytes } of picked) {
    if (!CONTENT_FILE.test(name)) {
      return {
        ok: false,
        message: `${name}: a pack holds .yaml, .yml or .json files, or one .zip of them`,
      };
    }
    total += bytes.length;
    if (total > MAX_PACK_BYTES) return { ok: false, message: `a pack is at most ${MB} MB` };
    files.push({ name, text: decoder.decode(bytes) });
  }
  return {
    ok: true,
    pack: { files },
    what: files.length === 1 ? 'one file' : `${files.length} files`,
  };
}
