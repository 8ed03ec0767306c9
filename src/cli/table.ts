import type { Command } from 'commander';
import { type BoundedRead, readBoundedText } from '../content/read-bounded.js';
import type { Store, TableRecord } from '../store/index.js';
import { DEFAULT_SQLITE_PATH } from '../store/open-defaults.js';
import { ExitStatus } from './input.js';
import type { Io } from './io.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './serve.js';
import { registerTableContent } from './table-content.js';

/** A table export is a database's worth of one campaign: bounded like a save. */
const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

interface StoreFlags {
  readonly db: string;
  readonly url: string;
}

const DEFAULT_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

/** The store and the table operations, loaded only when a table command runs. */
async function withStore<T>(flags: StoreFlags, run: (store: Store) => Promise<T>): Promise<T> {
  const { openStore } = await import('../store/index.js');
  const store = await openStore(flags.db);
  if (!store.ok) throw new ExitStatus(2, store.error.message);
  try {
    return await run(store.value);
  } finally {
    await store.value.close();
  }
}

async function tableNamed(store: Store, id: string): Promise<TableRecord> {
  const table = await store.getTable(id);
  if (table === undefined) throw new ExitStatus(2, `no table '${id}' in this store`);
  return table;
}

function link(flags: StoreFlags, token: string): string {
  return `${flags.url.replace(/\/+$/, '')}/t/${token}`;
}

function storeOptions(command: Command): Command {
  return command
    .option('--db <path|url>', 'a SQLite file, or a postgres:// URL', DEFAULT_SQLITE_PATH)
    .option('--url <url>', 'the address of `moogle serve`, for links', DEFAULT_URL);
}

/**
 * `moogle table ...`: what a GM (or whoever runs the server) does to a table from a terminal,
 * on the same store `moogle serve` uses, whether or not the server is running.
 */
export function registerTable(program: Command, io: Io): void {
  const table = program
    .command('table')
    .description('Create, list, invite to, back up and restore tables');

  storeOptions(
    table
      .command('new')
      .description('Create a table and print its secret GM link')
      .requiredOption('--system <id>', 'ffrpg, ffviii, zodiac or shining-force')
      .requiredOption('--name <name>', 'what the table is called')
      .option('--character <id...>', 'characters (content ids) to put on the roster'),
  ).action(async (flags: StoreFlags & { system: string; name: string; character?: string[] }) => {
    await withStore(flags, async (store) => {
      const { newTable } = await import('../server/lobby/operations.js');
      const created = await newTable(store, {
        system: flags.system,
        name: flags.name,
        ...(flags.character === undefined ? {} : { characters: flags.character }),
      });
      if (!created.ok) throw new ExitStatus(2, created.error.message);
      io.out(`Table ${created.value.table.id}: ${created.value.table.name} (${flags.system})`);
      io.out(`GM link (keep it secret; shown only now): ${link(flags, created.value.gm.token)}`);
    });
  });

  storeOptions(table.command('list').description('List the tables in the store')).action(
    async (flags: StoreFlags) => {
      await withStore(flags, async (store) => {
        for (const t of await store.listTables()) {
          io.out(`${t.id}  ${t.systemId.padEnd(13)} ${t.name}`);
        }
      });
    },
  );

  storeOptions(
    table
      .command('invite <table>')
      .description("Print a player's link (--character) or a read-only spectator link")
      .option('--character <id>', 'the roster character the link plays')
      .option('--gm', 'a further GM link'),
  ).action(async (id: string, flags: StoreFlags & { character?: string; gm?: boolean }) => {
    await withStore(flags, async (store) => {
      const t = await tableNamed(store, id);
      const role = flags.gm
        ? { role: 'gm' as const }
        : flags.character === undefined
          ? { role: 'spectator' as const }
          : { role: 'player' as const, characterId: flags.character };
      const { invite } = await import('../server/tables.js');
      const created = await invite(store, t, role);
      if (!created.ok) throw new ExitStatus(2, created.error.message);
      io.out(
        `${role.role} link (${created.value.info.tokenId}): ${link(flags, created.value.token)}`,
      );
    });
  });

  storeOptions(
    table
      .command('revoke <table> <invite>')
      .description('Revoke a link by the id `invite` printed'),
  ).action(async (id: string, tokenId: string, flags: StoreFlags) => {
    await withStore(flags, async (store) => {
      const t = await tableNamed(store, id);
      const { revokeLink } = await import('../server/lobby/operations.js');
      if (!(await revokeLink(store, t.id, tokenId))) {
        throw new ExitStatus(2, `no live link '${tokenId}' at table ${id}`);
      }
      io.out(`revoked ${tokenId}`);
    });
  });

  storeOptions(
    table
      .command('delete <table>')
      .description('Delete a table: its roster, encounters and logs; its links are revoked first'),
  ).action(async (id: string, flags: StoreFlags) => {
    await withStore(flags, async (store) => {
      const { deleteTable } = await import('../server/lobby/operations.js');
      const deleted = await deleteTable(store, id);
      if (!deleted.ok) throw new ExitStatus(2, deleted.error.message);
      io.out(`deleted table ${id} (${deleted.value.revoked} links revoked)`);
    });
  });

  storeOptions(
    table.command('recruit <table> <character>').description('Put a character on the roster'),
  ).action(async (id: string, character: string, flags: StoreFlags) => {
    await withStore(flags, async (store) => {
      const { recruit } = await import('../server/tables.js');
      const added = await recruit(store, await tableNamed(store, id), character);
      if (!added.ok) throw new ExitStatus(2, added.error.message);
      io.out(`${character} joins the roster`);
    });
  });

  storeOptions(
    table.command('export <table>').description('Write the whole table as JSON to stdout'),
  ).action(async (id: string, flags: StoreFlags) => {
    await withStore(flags, async (store) => {
      const exported = await store.exportTable(id);
      if (!exported.ok) throw new ExitStatus(2, exported.error.message);
      io.out(JSON.stringify(exported.value));
    });
  });

  storeOptions(
    table
      .command('import <file>')
      .description('Recreate an exported table (`-` reads stdin), with the same ids and links'),
  ).action(async (file: string, flags: StoreFlags) => {
    const text =
      file === '-' ? await readStdin(MAX_IMPORT_BYTES) : readBoundedText(file, MAX_IMPORT_BYTES);
    if (!text.ok) throw new ExitStatus(2, `cannot read ${file}: ${text.reason}`);
    let data: unknown;
    try {
      data = JSON.parse(text.text);
    } catch (error) {
      throw new ExitStatus(2, `${file} is not JSON: ${(error as Error).message}`);
    }
    await withStore(flags, async (store) => {
      const { importTable } = await import('../server/lobby/operations.js');
      const imported = await importTable(store, data);
      if (!imported.ok) throw new ExitStatus(2, imported.error.message);
      io.out(`Table ${imported.value.id}: ${imported.value.name} imported`);
    });
  });

  registerTableContent(table, io, {
    storeOptions,
    withTable: (flags, id, run) =>
      withStore(flags as StoreFlags, async (store) => run(store, await tableNamed(store, id))),
  });
}

/** Standard input, up to `maxBytes`: an import piped in is bounded like a file's. */
async function readStdin(maxBytes: number): Promise<BoundedRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return { ok: false, reason: `larger than ${maxBytes} bytes` };
    chunks.push(chunk);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
