import { err, ok, type Result } from '../../engine/index.js';
import type { JsonValue } from '../../rulesets/campaign.js';
import { systemById } from '../../rulesets/index.js';
import type { CreatedToken, Store, TableRecord } from '../../store/index.js';
import { describeIssue, libraryFrom } from '../library/library.js';
import { createTable, missingFromLibrary, recruit, starterLibrary } from '../tables.js';

/**
 * What the owner does to tables (the lobby API and `moogle table ...` alike, so both do exactly
 * the same): make a table with its roster, revoke a link, delete a table.
 */

export interface NewTableRequest {
  readonly system: string;
  readonly name: string;
  readonly characters?: readonly string[];
}

/**
 * A table, its GM link and its first characters. The characters are checked against the
 * system's content first, so a request naming one that does not exist makes no table; only a
 * store failing midway can leave a table with part of its roster.
 */
export async function newTable(
  store: Store,
  request: NewTableRequest,
): Promise<Result<{ table: TableRecord; gm: CreatedToken }>> {
  const system = systemById(request.system);
  const characters = request.characters ?? [];
  if (system !== undefined && characters.length > 0) {
    const library = starterLibrary(system);
    if (!library.ok) return library;
    const seen = new Set<string>();
    for (const character of characters) {
      if (seen.has(character)) return err('roster/exists', `${character}: named twice`);
      seen.add(character);
      const recruited = character.startsWith('@')
        ? err('roster/bad-id', 'a character id never starts with @')
        : system.campaign.recruit(library.value, character);
      if (!recruited.ok) {
        return err(recruited.error.code, `${character}: ${recruited.error.message}`);
      }
    }
  }
  const created = await createTable(store, request.system, request.name);
  if (!created.ok) return created;
  for (const character of request.characters ?? []) {
    const added = await recruit(store, created.value.table, character);
    if (!added.ok) {
      return err(added.error.code, `${character}: ${added.error.message}`);
    }
  }
  return created;
}

/**
 * Revokes a live link of the table; false when the table has no such live link. Its sockets,
 * in every process on the database, hear it and close (`Hub.revoke`).
 */
export async function revokeLink(store: Store, tableId: string, tokenId: string): Promise<boolean> {
  const mine = (await store.listTokens(tableId)).some(
    (t) => t.tokenId === tokenId && t.revokedAt === null,
  );
  return mine && (await store.revokeToken(tokenId));
}

/**
 * Deletes a table and all it holds. Its live links are revoked first, so every socket on them,
 * in every process, is told `auth/revoked` and closed, as a revocation does; then the rows go.
 * Resolves with the number of links revoked, or `table/not-found`.
 */
export async function deleteTable(store: Store, id: string): Promise<Result<{ revoked: number }>> {
  if ((await store.getTable(id)) === undefined) {
    return err('table/not-found', `no table ${id}`);
  }
  let revoked = 0;
  for (const link of await store.listTokens(id)) {
    if (link.revokedAt === null && (await store.revokeToken(link.tokenId))) revoked++;
  }
  if (!(await store.deleteTable(id))) return err('table/not-found', `no table ${id}`);
  return ok({ revoked });
}

/**
 * Recreates an exported table (`Store.importTable`), its content library checked first as the
 * library's own writes are: an export edited by hand cannot bring in an entry the rules would
 * refuse. An export from before tables had libraries is seeded when first used.
 */
export async function importTable(store: Store, data: unknown): Promise<Result<TableRecord>> {
  const shape = data as {
    table?: { systemId?: unknown };
    library?: { entries?: unknown };
  } | null;
  const entries = shape?.library?.entries;
  if (Array.isArray(entries)) {
    const system = systemById(String(shape?.table?.systemId));
    if (system !== undefined) {
      const live = entries.filter(
        (e): e is { kind: string; id: string; body: unknown } =>
          typeof e === 'object' && e !== null && (e as { deleted?: unknown }).deleted !== true,
      );
      const checked = libraryFrom(
        system,
        live.map((e) => ({ kind: String(e.kind), id: String(e.id), body: e.body })),
      );
      if (!checked.ok) {
        const first = checked.error.issues?.[0];
        return err(
          'import/malformed',
          `library: ${first === undefined ? checked.error.message : describeIssue(first)}`,
        );
      }
      // The roster as the library it comes with: a character must not hold what it lacks.
      const roster = (data as { roster?: unknown }).roster;
      if (Array.isArray(roster)) {
        const rows = roster.filter(
          (r): r is { characterId: string; state: JsonValue } =>
            typeof r === 'object' && r !== null && typeof r.characterId === 'string',
        );
        const missing = missingFromLibrary(system, checked.value, rows);
        if (!missing.ok) return err('import/malformed', `roster: ${missing.error.message}`);
        if (missing.value.length > 0) {
          return err(
            'import/malformed',
            `roster: it names what the library does not hold: ${missing.value.slice(0, 10).join('; ')}`,
          );
        }
      }
    }
  }
  return store.importTable(data);
}
