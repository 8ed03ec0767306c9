/**
 * A content pack as the Library page reads the GM's picked files: YAML and JSON as their text,
 * one .zip sent whole for the server to open; what is not content, or too much, refused before
 * anything is sent.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MAX_PACK_FILES, packFiles } from '../../web/src/library/pack-files.js';

const yaml = (id: string) => strToU8(`format: 1\nkind: ffrpg/weapon\nid: ${id}\nname: ${id}\n`);

describe('a content pack from picked files', () => {
  it('keeps YAML and JSON files as their text, by name', () => {
    const read = packFiles([
      { name: 'dagger.yaml', bytes: yaml('dagger') },
      { name: 'axe.json', bytes: strToU8('{"format":1,"name":"Hache à deux mains"}') },
    ]);
    expect(read).toEqual({
      ok: true,
      pack: {
        files: [
          {
            name: 'dagger.yaml',
            text: 'format: 1\nkind: ffrpg/weapon\nid: dagger\nname: dagger\n',
          },
          { name: 'axe.json', text: '{"format":1,"name":"Hache à deux mains"}' },
        ],
      },
      what: '2 files',
    });
  });

  it('sends a .zip whole, in base64, for the server to open; and only alone', () => {
    const zip = zipSync({ 'weapons/dagger.yaml': yaml('dagger') });
    const read = packFiles([{ name: 'library.zip', bytes: zip }]);
    expect(read).toEqual({
      ok: true,
      pack: { archive: Buffer.from(zip).toString('base64') },
      what: 'library.zip',
    });
    const mixed = packFiles([
      { name: 'library.zip', bytes: zip },
      { name: 'dagger.yaml', bytes: yaml('dagger') },
    ]);
    expect(mixed).toMatchObject({ ok: false, message: expect.stringMatching(/alone/) });
  });

  it('refuses what is not content, and more files than a pack holds', () => {
    const notContent = packFiles([{ name: 'notes.txt', bytes: strToU8('hello') }]);
    expect(notContent).toMatchObject({ ok: false, message: expect.stringMatching(/notes\.txt/) });
    const many = Array.from({ length: MAX_PACK_FILES + 1 }, (_, i) => ({
      name: `w${i}.yaml`,
      bytes: yaml(`w${i}`),
    }));
    expect(packFiles(many)).toMatchObject({ ok: false, message: expect.stringMatching(/at most/) });
    expect(packFiles([])).toMatchObject({ ok: false });
  });
});
