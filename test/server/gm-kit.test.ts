import { afterAll, describe, expect, it } from 'vitest';
import type { GmKit, StatePayload } from '../../src/server/protocol.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { Client, example, http, newTable, startEncounterOver, useServer } from './harness.js';

afterAll(stopFallbackPostgres);

/**
 * What the GM's touch controls are built from: the system's statuses with their timers, its
 * clock, and the sheets `gm add` takes, from the server (GET /api/encounters/:id/gm-kit), the
 * GM's alone; and a touch sent as the GM command itself, one entry, refused to a player.
 */
const CASES = [
  {
    system: 'ffrpg',
    example: 'ffrpg-wind-cave',
    status: 'poison',
    clock: 'initiative',
    add: 'heket',
    player: 'hiro',
  },
  {
    system: 'ffviii',
    example: 'ffviii-iron-giant',
    status: null,
    clock: 'shot',
    add: 'iron-giant',
    player: 'ehlric',
  },
  {
    system: 'zodiac',
    example: 'zodiac-keef-and-the-ogre',
    status: 'death-sentence',
    clock: 'sp',
    add: 'harpy',
    player: 'keef',
  },
  {
    system: 'shining-force',
    example: 'shining-force-gate',
    status: 'sleep',
    clock: 'turn',
    add: 'giant-bat',
    player: 'max',
  },
] as const;

describe.each(CASES)('the GM kit of $system', (c) => {
  const running = useServer('sqlite');

  it('lists the system’s statuses, its clock and the sheets gm add takes, to the GM alone', async () => {
    const { table, gmToken } = await newTable(running.store, c.system, [c.player]);
    const id = await startEncounterOver(running.url, gmToken, example(c.example));
    const kit = await http<GmKit>(`${running.url}/api/encounters/${id}/gm-kit`, gmToken, 'GET');
    expect(kit.status).toBe(200);
    const { menu, newcomers } = kit.body;
    expect(menu.clock.key).toBe(c.clock);
    if (c.status === null) {
      // FFVIII's text names no statuses: any name is taken.
      expect(menu.freeStatuses).toBe(true);
    } else {
      expect(menu.freeStatuses).toBe(false);
      expect(menu.statuses.map((s) => s.id)).toContain(c.status);
    }
    expect(newcomers.map((n) => n.id)).toContain(c.add);
    expect(newcomers.every((n) => n.kind === 'character' || n.kind === 'monster')).toBe(true);

    // Every sheet listed is one `gm add` takes.
    const gm = (await Client.join(running.url, id, gmToken)).client;
    for (const [i, n] of newcomers.entries()) {
      const side = n.kind === 'monster' ? 'last' : 'first';
      const state = await http<StatePayload>(`${running.url}/api/encounters/${id}`, gmToken, 'GET');
      const sides = state.body.view.sides;
      const sideId = side === 'last' ? sides.at(-1)!.id : sides[0]!.id;
      const answer = await gm.submit(i + 1, `add-${i}`, {
        kind: 'gm',
        line: `add ${n.id} to ${sideId} as "Newcomer ${i}"`,
      });
      expect(answer, `${n.kind} ${n.id}`).toMatchObject({ type: 'accepted' });
    }

    const token = await running.store.createToken(table.id, {
      role: 'player',
      characterId: c.player,
    });
    if (!token.ok) throw new Error(token.error.message);
    const refused = await http(
      `${running.url}/api/encounters/${id}/gm-kit`,
      token.value.token,
      'GET',
    );
    expect(refused.status).toBe(403);
  });

  it('takes a touch as the GM command itself: one entry for the GM, refused to a player', async () => {
    const { table, gmToken } = await newTable(running.store, c.system, [c.player]);
    const id = await startEncounterOver(running.url, gmToken, example(c.example));
    const token = await running.store.createToken(table.id, {
      role: 'player',
      characterId: c.player,
    });
    if (!token.ok) throw new Error(token.error.message);
    const command = { type: 'gm-set', target: c.player, resource: 'hp', value: -1, relative: true };
    const player = (await Client.join(running.url, id, token.value.token)).client;
    const no = await player.submit(1, 'p1', { kind: 'command', command });
    expect(no.type).toBe('refused');
    const gm = (await Client.join(running.url, id, gmToken)).client;
    const yes = await gm.submit(1, 'g1', { kind: 'command', command });
    expect(yes).toMatchObject({ type: 'accepted', seq: 1 });
    expect(await running.store.entriesSince(id, 0)).toHaveLength(1);
  });
});
