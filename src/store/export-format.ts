import { z } from 'zod';
import { err, ok, parseSavedEncounter, type Result } from '../engine/index.js';
import type { TableExport } from './types.js';

/**
 * The shape of an exported table, checked before any of it is written. Entries are checked
 * with the engine's own save schema (the log of a save is the same shape), so an import can
 * never hold a row the engine would refuse to load by its form; the rules are checked when the
 * engine loads the encounter.
 */
const word = z.number().int().min(0).max(0xffffffff);
const diceState = z.object({
  algorithm: z.literal('xoshiro128**'),
  words: z.tuple([word, word, word, word]),
});
const id = z.string().min(1).max(200);
const time = z.string().min(1).max(40);
const json: z.ZodType<unknown> = z.unknown();

const tableExport = z.object({
  format: z.literal('moogle-table'),
  version: z.literal(1),
  table: z.object({ id, systemId: id, name: z.string().min(1).max(200), createdAt: time }),
  roster: z.array(z.object({ characterId: id, state: json, updatedAt: time })),
  encounters: z.array(
    z.object({
      id,
      name: z.string().min(1).max(200),
      ruleset: id,
      setup: json,
      initialDice: diceState,
      status: z.enum(['active', 'finished', 'abandoned']),
      createdAt: time,
      revealed: z.array(id).max(1000).optional(),
      entries: z.array(
        z.object({
          seq: z.number().int().min(1),
          idempotencyKey: z.string().min(1).max(200),
          entry: z.looseObject({ seq: z.number(), type: z.string() }),
          appendedAt: time,
        }),
      ),
      gmRolls: z
        .array(
          z.object({
            notation: z.string().min(1).max(200),
            label: z.string().max(200).optional(),
            secret: z.boolean(),
            total: z.number(),
            text: z.string().max(4096),
            afterSeq: z.number().int().min(0),
            at: time,
          }),
        )
        .max(10_000)
        .optional(),
    }),
  ),
  library: z
    .object({
      entries: z
        .array(
          z.object({
            kind: id,
            id,
            version: z.number().int().min(1),
            body: json,
            deleted: z.literal(true).optional(),
            updatedAt: time,
          }),
        )
        .max(100_000),
    })
    .optional(),
  tokens: z.array(
    z
      .discriminatedUnion('role', [
        z.object({ role: z.literal('gm') }),
        z.object({ role: z.literal('player'), characterId: id }),
        z.object({ role: z.literal('spectator') }),
      ])
      .and(
        z.object({
          tokenId: id,
          hash: z.string().regex(/^[0-9a-f]{64}$/),
          createdAt: time,
          revokedAt: time.nullable(),
        }),
      ),
  ),
});

export function parseTableExport(input: unknown): Result<TableExport> {
  const parsed = tableExport.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    return err(
      'import/malformed',
      `not a Moogle table export: ${path || 'the file'}: ${issue.message}`,
    );
  }
  // Entries are only `{seq, type}` to zod; their full shape is checked just below with the
  // engine's save schema before the value is used as a TableExport.
  const data = parsed.data as unknown as TableExport;
  const named = new Set<string>();
  for (const entry of data.library?.entries ?? []) {
    const key = `${entry.kind}\u0000${entry.id}`;
    if (named.has(key)) {
      return err('import/malformed', `library: ${entry.kind} '${entry.id}' appears twice`);
    }
    named.add(key);
    if (entry.deleted !== true && (entry.body === null || entry.body === undefined)) {
      return err('import/malformed', `library: ${entry.kind} '${entry.id}' has no body`);
    }
  }
  for (const encounter of data.encounters) {
    // The log as a save holds it: same numbering rule and entry shapes.
    const saved = parseSavedEncounter({
      format: 'moogle-encounter',
      version: 1,
      ruleset: encounter.ruleset,
      setup: encounter.setup,
      initialDice: encounter.initialDice,
      dice: encounter.initialDice,
      log: encounter.entries.map((row) => row.entry),
    });
    if (!saved.ok) {
      return err('import/malformed', `encounter ${encounter.id}: ${saved.error.message}`);
    }
    if (encounter.entries.some((row, i) => row.seq !== i + 1)) {
      return err(
        'import/malformed',
        `encounter ${encounter.id}: rows must be numbered 1, 2, 3, ...`,
      );
    }
    const keys = new Set(encounter.entries.map((row) => row.idempotencyKey));
    if (keys.size !== encounter.entries.length) {
      return err('import/malformed', `encounter ${encounter.id}: an idempotency key appears twice`);
    }
  }
  return ok(data);
}
