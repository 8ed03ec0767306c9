import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryAppended, HeldRollRecord, Store } from '../../src/store/index.js';
import { freshLocation, KINDS, type Location, open, stopFallbackPostgres } from './fixtures.js';

afterAll(stopFallbackPostgres);

const DICE = { algorithm: 'xoshiro128**', words: [1, 2, 3, 4] } as const;

/**
 * Players' rolls held ahead of the command that rolls them (docs/store.md): one per purpose,
 * replaced when entered again, let go of by purpose, heard of by every store on the database as
 * the encounter changing (number 0), and gone with their table.
 */
describe.each(KINDS)('held rolls on %s', (kind) => {
  let location: Location;
  let store: Store;
  /** Another store on the same database: another process, as far as notices go. */
  let other: Store;

  beforeAll(async () => {
    location = await freshLocation(kind);
    store = await open(location.location);
    other = await open(location.location);
  });
  afterAll(async () => {
    await other?.close();
    await store?.close();
    await location?.dispose();
  });

  async function newEncounter(): Promise<{ tableId: string; encounterId: string }> {
    const table = await store.createTable({ systemId: 'ffrpg', name: 'Wind Cave' });
    if (!table.ok) throw new Error(table.error.message);
    const encounter = await store.createEncounter({
      tableId: table.value.id,
      name: 'fight',
      ruleset: 'ffrpg',
      setup: { any: 'setup' },
      initialDice: DICE,
    });
    if (!encounter.ok) throw new Error(encounter.error.message);
    return { tableId: table.value.id, encounterId: encounter.value.id };
  }

  const held = (purpose: string, roll: HeldRollRecord['roll'], afterSeq = 0): HeldRollRecord => ({
    purpose,
    roller: purpose.slice(purpose.indexOf(':') + 1),
    roll,
    afterSeq,
    at: '2026-12-02T02:00:00.000Z',
  });

  it('holds one roll a purpose, replaces it, and lets go of it', async () => {
    const { encounterId } = await newEncounter();
    const heard: EntryAppended[] = [];
    const unsubscribe = await other.subscribe(encounterId, { appended: (c) => heard.push(c) });
    expect(await store.heldRolls(encounterId)).toEqual([]);
    expect(await store.holdRoll(encounterId, held('initiative:hiro', [3]))).toEqual({
      ok: true,
      value: true,
    });
    expect(await store.holdRoll(encounterId, held('initiative:haze', { total: 14 }))).toMatchObject(
      { ok: true },
    );
    // Entered again: the one held is replaced, not added to.
    await store.holdRoll(encounterId, held('initiative:hiro', [10], 2));
    expect(await other.heldRolls(encounterId)).toEqual([
      held('initiative:haze', { total: 14 }),
      held('initiative:hiro', [10], 2),
    ]);
    await store.dropHeldRolls(encounterId, ['initiative:hiro', 'initiative:nobody']);
    expect(await other.heldRolls(encounterId)).toEqual([held('initiative:haze', { total: 14 })]);
    // Every change is heard on the other store as the encounter changing, never as an entry.
    for (let i = 0; i < 50 && heard.length < 4; i++) await new Promise((r) => setTimeout(r, 50));
    expect(heard.length).toBeGreaterThanOrEqual(4);
    expect(heard.every((c) => c.encounterId === encounterId && c.seq === 0)).toBe(true);
    unsubscribe();
  });

  it('moves held rolls with an entry, in its transaction: spent by a command, held again by its undo', async () => {
    const { encounterId } = await newEncounter();
    const undo = (seq: number) => ({ seq, type: 'undo' as const, steps: 1 });
    await store.holdRoll(encounterId, held('initiative:hiro', [10]));
    await store.holdRoll(encounterId, held('initiative:haze', { total: 14 }));
    // Entry 1 spends Hiro's (and names a purpose nobody held).
    const spend = (seq: number) => ({
      held: { spend: [{ seq, purposes: ['initiative:hiro', 'initiative:nobody'] }] },
    });
    expect(await store.appendEntry(encounterId, 1, 'k1', undo(1), spend(1))).toEqual({
      ok: true,
      seq: 1,
    });
    expect(await other.heldRolls(encounterId)).toEqual([held('initiative:haze', { total: 14 })]);
    // An append that loses (the number taken) moves nothing.
    expect(
      await store.appendEntry(encounterId, 1, 'k1b', undo(1), { held: { restore: [1] } }),
    ).toMatchObject({ ok: false, code: 'stale' });
    expect(await other.heldRolls(encounterId)).toEqual([held('initiative:haze', { total: 14 })]);
    // Entered since, for later: the undo of entry 1 puts back what was held before it.
    await store.holdRoll(encounterId, held('initiative:hiro', [2], 1));
    await store.appendEntry(encounterId, 2, 'k2', undo(2), { held: { restore: [1] } });
    expect(await other.heldRolls(encounterId)).toEqual([
      held('initiative:haze', { total: 14 }),
      { ...held('initiative:hiro', [10]), afterSeq: 2 },
    ]);
    // Redone (spent again by entry 1), undone again: held again, once.
    await store.appendEntry(encounterId, 3, 'k3', undo(3), spend(1));
    expect((await store.heldRolls(encounterId)).map((h) => h.purpose)).toEqual(['initiative:haze']);
    await store.appendEntry(encounterId, 4, 'k4', undo(4), { held: { restore: [1] } });
    expect(await store.heldRolls(encounterId)).toEqual([
      held('initiative:haze', { total: 14 }),
      { ...held('initiative:hiro', [10]), afterSeq: 4 },
    ]);
    // Two commands undone at once that both spent a purpose: the earlier's roll is held, the
    // later's kept for its redo.
    await store.appendEntry(encounterId, 5, 'k5', undo(5), spend(5));
    await store.holdRoll(encounterId, held('initiative:hiro', [7], 5));
    await store.appendEntry(encounterId, 6, 'k6', undo(6), spend(6));
    await store.appendEntry(encounterId, 7, 'k7', undo(7), { held: { restore: [5, 6] } });
    expect(
      (await store.heldRolls(encounterId)).find((h) => h.purpose === 'initiative:hiro'),
    ).toEqual({ ...held('initiative:hiro', [10]), afterSeq: 7 });
    await store.appendEntry(encounterId, 8, 'k8', undo(8), spend(5));
    await store.appendEntry(encounterId, 9, 'k9', undo(9), { held: { restore: [6] } });
    expect(
      (await store.heldRolls(encounterId)).find((h) => h.purpose === 'initiative:hiro'),
    ).toEqual({ ...held('initiative:hiro', [7], 5), afterSeq: 9 });
  });

  it('refuses a roll for an encounter that is not there, and drops them with the table', async () => {
    expect(await store.holdRoll('no-such', held('sp:keef', [3]))).toMatchObject({
      ok: false,
      error: { code: 'encounter/not-found' },
    });
    const { tableId, encounterId } = await newEncounter();
    await store.holdRoll(encounterId, held('sp:keef', [3]));
    expect(await store.deleteTable(tableId)).toBe(true);
    expect(await store.heldRolls(encounterId)).toEqual([]);
  });

  it('lets go of them when the fight ends, finished or abandoned: no entry, so no undo, follows', async () => {
    const finished = await newEncounter();
    await store.holdRoll(finished.encounterId, held('initiative:hiro', [7]));
    expect(await store.finishEncounter(finished.encounterId, [])).toMatchObject({ ok: true });
    expect(await store.heldRolls(finished.encounterId)).toEqual([]);
    const abandoned = await newEncounter();
    await store.holdRoll(abandoned.encounterId, held('initiative:hiro', [7]));
    expect(await store.setEncounterStatus(abandoned.encounterId, 'abandoned')).toMatchObject({
      ok: true,
    });
    expect(await store.heldRolls(abandoned.encounterId)).toEqual([]);
  });
});
