import { afterAll, describe, expect, it } from 'vitest';
import type { SeenEntry } from '../../src/server/protocol.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { Client, example, type Heard, newTable, startEncounterOver, useServer } from './harness.js';

afterAll(stopFallbackPostgres);

type Entry = Extract<Heard, { type: 'entry' }>;

function entriesOf(client: Client): SeenEntry[] {
  return client.messages.flatMap((m) =>
    m.type === 'entry' ? [m.entry] : m.type === 'entries' ? m.entries : [],
  );
}

/**
 * An undo's entry names what it took back, for every role as that role saw it: a figure hidden
 * from the players stays hidden in the undo's line too, and a later catch-up reads the same.
 */
describe('undo and redo entries name what they moved', () => {
  const running = useServer('sqlite');

  it("names the undone GM change to the GM with its figure, to a player with '?'", async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg');
    const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'));
    const token = await running.store.createToken(table.id, {
      role: 'player',
      characterId: 'hiro',
    });
    if (!token.ok) throw new Error(token.error.message);
    const gm = (await Client.join(running.url, id, gmToken)).client;
    const player = (await Client.join(running.url, id, token.value.token)).client;
    const steps: Parameters<Client['submit']>[2][] = [
      { kind: 'gm', line: 'hp heket 37' },
      { kind: 'undo', steps: 1 },
      { kind: 'redo', steps: 1 },
      { kind: 'undo', steps: 1 },
    ];
    for (const [i, action] of steps.entries()) {
      const answer = await gm.submit(i + 1, `s${i}`, action);
      expect(answer.type).toBe('accepted');
    }
    for (const client of [gm, player]) {
      await client.until((m): m is Entry => m.type === 'entry' && m.seq === 4);
    }
    const gmSees = entriesOf(gm);
    const playerSees = entriesOf(player);
    expect(gmSees[0]!.lines).toEqual(['GM: Heket now has 37 HP']);
    expect(gmSees.slice(1).map((e) => [e.moved, e.lines])).toEqual([
      [[1], ['Undid #1: GM: Heket now has 37 HP']],
      [[1], ['Redid #1: GM: Heket now has 37 HP']],
      [[1], ['Undid #1: GM: Heket now has 37 HP']],
    ]);
    expect(playerSees.slice(1).map((e) => e.lines)).toEqual([
      ['Undid #1: GM: Heket now has ? HP'],
      ['Redid #1: GM: Heket now has ? HP'],
      ['Undid #1: GM: Heket now has ? HP'],
    ]);
    // A later catch-up, from the cached renderings, reads the same.
    const late = (await Client.join(running.url, id, token.value.token)).client;
    expect(entriesOf(late)).toEqual(playerSees);
    for (const c of [gm, player, late]) c.close();
  });
});
