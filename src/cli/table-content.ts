import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Command } from 'commander';
import { CONTENT_EXTENSIONS } from '../content/loader.js';
import { MAX_FILE_BYTES } from '../content/parse.js';
import { fsReason, readBoundedText } from '../content/read-bounded.js';
import { writeAtomically } from '../files/write-all.js';
import type { PackFile } from '../server/library/operations.js';
import type { Store, TableRecord } from '../store/index.js';
import { ExitStatus } from './input.js';
import type { Io } from './io.js';

/** What `moogle table content` needs of table.ts: the store and the table, opened its way. */
export interface TableAccess {
  readonly withTable: <T>(
    flags: object,
    id: string,
    run: (store: Store, table: TableRecord) => Promise<T>,
  ) => Promise<T>;
  readonly storeOptions: (command: Command) => Command;
}

/**
 * `moogle table content list|import|export <table>`: a table's content library from a
 * terminal, through the same operations as the server's routes (src/server/library).
 */
export function registerTableContent(table: Command, io: Io, access: TableAccess): void {
  const content = table
    .command('content')
    .description("A table's content library: list it, import a content pack, export it");

  access
    .storeOptions(
      content.command('list <table>').description('List the library: kind, id, version'),
    )
    .action(async (id: string, flags: object) => {
      await access.withTable(flags, id, async (store, t) => {
        const { listLibrary } = await import('../server/library/operations.js');
        const listing = await listLibrary(store, t);
        if (!listing.ok) throw new ExitStatus(2, listing.error.message);
        for (const e of listing.value.entries) {
          io.out(`${e.kind.padEnd(28)} ${e.id.padEnd(24)} v${e.version}  ${e.name}`);
        }
      });
    });

  access
    .storeOptions(
      content
        .command('import <table> <sources...>')
        .description(
          'Import content files (.yaml, .yml, .json), folders of them or a .zip: all or nothing',
        ),
    )
    .action(async (id: string, sources: string[], flags: object) => {
      const files = await readPack(sources);
      await access.withTable(flags, id, async (store, t) => {
        const { importPack } = await import('../server/library/operations.js');
        const { SERVER_LIMITS } = await import('../server/limits.js');
        const { describeIssue } = await import('../server/library/library.js');
        const imported = await importPack(store, t, files, SERVER_LIMITS);
        if (!imported.ok) {
          const issues = imported.error.issues ?? [];
          const lines = issues.length === 0 ? [imported.error.message] : issues.map(describeIssue);
          throw new ExitStatus(2, `nothing imported:\n${lines.slice(0, 50).join('\n')}`);
        }
        const { added, changed, unchanged } = imported.value;
        io.out(`imported: ${added} added, ${changed} changed, ${unchanged} unchanged`);
      });
    });

  access
    .storeOptions(
      content
        .command('export <table> <target>')
        .description(
          'Write the library as content files into a folder (moogle battle --content reads it), or a .zip',
        ),
    )
    .action(async (id: string, target: string, flags: object) => {
      await access.withTable(flags, id, async (store, t) => {
        const { exportPack } = await import('../server/library/operations.js');
        const pack = await exportPack(store, t);
        if (!pack.ok) throw new ExitStatus(2, pack.error.message);
        if (target.toLowerCase().endsWith('.zip')) {
          const { writeZip } = await import('../server/library/archive.js');
          mkdirSync(dirname(target), { recursive: true });
          writeAtomically(target, writeZip(pack.value.files));
        } else {
          for (const file of pack.value.files) {
            const path = join(target, ...file.name.split('/'));
            mkdirSync(dirname(path), { recursive: true });
            writeAtomically(path, file.text);
          }
        }
        io.out(`${pack.value.files.length} files written to ${target}`);
      });
    });
}

const MAX_ARCHIVE_BYTES = 8 * 1024 * 1024;
const MAX_FILES = 2000;

/** The files named: content files, folders walked for them, and .zip archives read. */
async function readPack(sources: readonly string[]): Promise<PackFile[]> {
  const files: PackFile[] = [];
  const fail = (source: string, reason: string): never => {
    throw new ExitStatus(2, `${source}: ${reason}`);
  };
  for (const source of sources) {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(source);
    } catch (error) {
      return fail(source, `cannot read: ${fsReason(error)}`);
    }
    if (source.toLowerCase().endsWith('.zip')) {
      if (stat.size > MAX_ARCHIVE_BYTES) return fail(source, 'the archive is over 8 MiB');
      const { readZip } = await import('../server/library/archive.js');
      const unpacked = readZip(readFileSync(source));
      if (!unpacked.ok) return fail(source, unpacked.error.message);
      files.push(...unpacked.value);
    } else if (stat.isDirectory()) {
      for (const path of walk(source)) {
        if (files.length >= MAX_FILES) return fail(source, `more than ${MAX_FILES} files`);
        const read = readBoundedText(path, MAX_FILE_BYTES);
        if (!read.ok) return fail(path, read.reason);
        files.push({ name: relative(source, path).split(sep).join('/'), text: read.text });
      }
    } else {
      const read = readBoundedText(source, MAX_FILE_BYTES);
      if (!read.ok) return fail(source, read.reason);
      files.push({ name: source.split(sep).pop() ?? source, text: read.text });
    }
  }
  return files;
}

/** Content files under a folder, sorted; names starting with '.' and symbolic links skipped. */
function walk(folder: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number): void => {
    if (depth > 16 || found.length > MAX_FILES) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path, depth + 1);
      else if (
        entry.isFile() &&
        CONTENT_EXTENSIONS.some((ext) => entry.name.toLowerCase().endsWith(ext))
      ) {
        found.push(path);
      }
    }
  };
  visit(folder, 0);
  return found.sort();
}
