import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../src/server/protocol.js';
import { KINDS, stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  newTable,
  type Running,
  startEncounterOver,
  startServer,
} from './harness.js';

afterAll(stopFallbackPostgres);

/**
 * A GM's rolls outside the log, over real sockets on each database: kept with the fight, where
 * the log stood, given back to the GM after reconnecting, and never sent to a player or a
 * spectator, then or later.
 */
describe.each(KINDS)('GM rolls kept with the fight on %s', (kind) => {
  let running: Running;

  beforeAll(async () => {
    running = await startServer(kind);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    await running?.location.dispose();
  });

  it('keeps a secret roll for the GM alone, after reconnecting too', async () => {
    const { table, gmToken } = await newTable(running.store, 'ffrpg', ['hiro']);
    const encounterId = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'));
    const hiroLink = await running.store.createToken(table.id, {
      role: 'player',
      characterId: 'hiro',
    });
    const spectatorLink = await running.store.createToken(table.id, { role: 'spectator' });
    if (!hiroLink.ok || !spectatorLink.ok) throw new Error('no links');

    const { client: gm } = await Client.join(running.url, encounterId, gmToken);
    // Before the first roll, the GM's hello says there are none.
    expect(await gm.next('gm-rolls')).toEqual({ type: 'gm-rolls', rolls: [] });
    const { client: hiro } = await Client.join(running.url, encounterId, hiroLink.value.token);
    gm.send({ type: 'roll', notation: '1d20+4', label: 'Heket notices', secret: true });
    const rolled = await gm.next('rolled');
    expect(rolled).toMatchObject({ notation: '1d20+4', label: 'Heket notices', secret: true });
    expect(rolled.afterSeq).toBe(0);
    const begun = await gm.submit(1, 'begin', {
      kind: 'command',
      command: { type: 'begin-round' },
    });
    expect(begun).toMatchObject({ type: 'accepted' });
    gm.send({ type: 'roll', notation: 'd6', secret: false });
    expect(await gm.next('rolled')).toMatchObject({ notation: 'd6', afterSeq: 1 });
    gm.close();

    // Another GM screen, or this one reconnecting: the rolls come back, in order, in place.
    const { client: again } = await Client.join(running.url, encounterId, gmToken);
    const kept = await again.next('gm-rolls');
    expect(kept.rolls.map((r) => [r.notation, r.afterSeq, r.secret])).toEqual([
      ['1d20+4', 0, true],
      ['d6', 1, false],
    ]);
    expect(kept.rolls[0]).toMatchObject({ total: rolled.total, text: rolled.text });
    again.close();

    // The player's and a spectator's screens never hear of them, live or on a hello.
    const { client: watcher } = await Client.join(
      running.url,
      encounterId,
      spectatorLink.value.token,
    );
    for (const screen of [hiro, watcher]) {
      screen.send({ type: 'ping' });
      await screen.next('pong');
      const heard = (m: ServerMessage) => m.type === 'rolled' || m.type === 'gm-rolls';
      expect(screen.messages.some(heard)).toBe(false);
      expect(JSON.stringify(screen.messages)).not.toContain('Heket notices');
      screen.close();
    }
  });
});
