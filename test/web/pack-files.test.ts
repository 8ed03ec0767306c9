/**
 * A content pack as the Library page reads the GM's picked files: YAML and JSON as they are, a
 * .zip opened in the browser, a .tar.gz sent whole; what is not content, or too much, refused
 * before anything is sent.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MAX_PACK_FILES, packFiles } from '../../web/src/library/pack-files.js';

const yaml = (id: string) => strToU8(`format: 1\nkind: ffrpg/weapon\nid: ${id}\nname: ${id}\n`);

describe('a content pack from picked files', () => {
  it('keeps YAML and JSON files as they are, by name', () => {
    const read = packFiles([
      { name: 'dagger.yaml', bytes: yaml('dagger') },
      { name: 'axe.json', bytes: strToU8('{"format":1}') },
    ]);
    expect(read).toEqual({
      ok: true,
      pack: {
        files: [
          {
            name: 'dagger.yaml',
            text: 'format: 1\nkind: ffrpg/weapon\nid: dagger\nname: dagger\n',
          },
          { name: 'axe.json', text: '{"format":1}' },
        ],
      },
      what: '2 files',
    });
  });

  it('opens a .zip into its content files, named inside the archive, leaving the rest out', () => {
    const zip = zipSync({
      'weapons/dagger.yaml': yaml('dagger'),
      'weapons/sword.yml': yaml('sword'),
      'README.md': strToU8('# not content'),
      '.hidden/secret.yaml': yaml('secret'),
    });
    const read = packFiles([{ name: 'pack.zip', bytes: zip }]);
    if (!read.ok) throw new Error(read.message);
    if (!('files' in read.pack)) throw new Error('a zip is read into files');
    expect(read.pack.files.map((f) => f.name)).toEqual([
      'pack.zip/weapons/dagger.yaml',
      'pack.zip/weapons/sword.yml',
    ]);
  });

  it('sends a .tar.gz whole, for the server to open, and only alone', () => {
    const bytes = new Uint8Array([31, 139, 8, 0, 1, 2, 3]);
    const read = packFiles([{ name: 'library.tar.gz', bytes }]);
    expect(read).toEqual({
      ok: true,
      pack: { archive: Buffer.from(bytes).toString('base64') },
      what: 'library.tar.gz',
    });
    const mixed = packFiles([
      { name: 'library.tar.gz', bytes },
      { name: 'dagger.yaml', bytes: yaml('dagger') },
    ]);
    expect(mixed.ok).toBe(false);
  });

  it('refuses what is not content, a broken archive, and more files than a pack holds', () => {
    const notContent = packFiles([{ name: 'notes.txt', bytes: strToU8('hello') }]);
    expect(notContent).toMatchObject({ ok: false, message: expect.stringMatching(/notes\.txt/) });
    const broken = packFiles([{ name: 'pack.zip', bytes: strToU8('not a zip') }]);
    expect(broken).toMatchObject({ ok: false, message: expect.stringMatching(/pack\.zip/) });
    const many = Array.from({ length: MAX_PACK_FILES + 1 }, (_, i) => ({
      name: `w${i}.yaml`,
      bytes: yaml(`w${i}`),
    }));
    expect(packFiles(many)).toMatchObject({ ok: false, message: expect.stringMatching(/at most/) });
  });
});
