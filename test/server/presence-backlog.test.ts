import { afterAll, describe, expect, it } from 'vitest';
import type { LiveClient } from '../../src/server/live/encounter-host.js';
import type { PresenceNotice, Store } from '../../src/store/index.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { example, hubOver, newTable, startEncounterOver, startServer } from './harness.js';

afterAll(stopFallbackPostgres);

/** A socket as the host sees one, that drops what it is sent. */
function socket(linkId: string): LiveClient {
  return {
    role: { role: 'spectator' },
    linkId,
    send() {},
    sendText() {},
    close() {},
  };
}

/**
 * The real store, its presence notices held at a gate until `open()` and then recorded in
 * `sent`; `asked()` counts the notices handed to it.
 */
function heldPresence(real: Store) {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const sent: PresenceNotice[] = [];
  let asked = 0;
  const store: Store = Object.create(real, {
    publishPresence: {
      value: async (notice: PresenceNotice) => {
        asked++;
        await gate;
        sent.push(notice);
      },
    },
  });
  return { store, sent, open: () => open(), asked: () => asked };
}

describe('presence notices while the store does not take them', () => {
  it('keeps at most 256 waiting, then says it all again once the store answers', async () => {
    const running = await startServer('sqlite');
    try {
      const { gmToken } = await newTable(running.store, 'ffrpg');
      const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'), 'b');
      // The real store, its presence notices held at a gate and recorded.
      const { store, sent, open, asked } = heldPresence(running.store);
      const hub = hubOver(store);
      await hub.start();
      try {
        const host = await hub.host(id);
        if (!host.ok) throw new Error(host.error.message);
        const staying = socket('staying-link');
        expect(host.value.attach(staying).ok).toBe(true);
        // A link coming and going a thousand times while nothing gets through.
        const flapping = socket('flapping-link');
        for (let i = 0; i < 1000; i++) {
          expect(host.value.attach(flapping).ok).toBe(true);
          host.value.detach(flapping);
        }
        await new Promise((resolve) => setImmediate(resolve));
        // The one in flight, and what waits behind it.
        expect(asked()).toBeLessThanOrEqual(1);
        open();
        await expect.poll(() => sent.at(-1)?.kind === 'link' && sent.length > 3).toBe(true);
        await hub.settledPresence();
        // The queue, the one in flight, `gone`, and the link told again: in the encounter and
        // at its table.
        expect(sent.length).toBeLessThanOrEqual(256 + 4);
        // Then: this process is gone, and here again with exactly what it holds.
        const gone = sent.findIndex((n) => n.kind === 'gone');
        expect(gone).toBeGreaterThan(0);
        const again = {
          kind: 'link',
          process: hub.process,
          link: 'staying-link',
          role: 'spectator',
          sockets: 1,
        };
        expect(sent.slice(gone + 1)).toHaveLength(2);
        expect(sent.slice(gone + 1)).toEqual(
          expect.arrayContaining([
            { ...again, encounterId: id },
            { ...again, encounterId: `table:${host.value.tableId}` },
          ]),
        );
      } finally {
        hub.close();
      }
    } finally {
      await running.stop();
    }
  });

  it('says everything again once, even when this process holds more links than the backlog', async () => {
    const running = await startServer('sqlite');
    try {
      const { gmToken } = await newTable(running.store, 'ffrpg');
      const ids: string[] = [];
      for (let e = 0; e < 10; e++) {
        ids.push(
          await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'), `b${e}`),
        );
      }
      const { store, sent, open } = heldPresence(running.store);
      const hub = hubOver(store);
      await hub.start();
      try {
        // 10 encounters x 30 spectators' links (what the seats leave them): 300 links here, and
        // their table's 300, while nothing gets through, so notices are dropped.
        for (const id of ids) {
          const host = await hub.host(id);
          if (!host.ok) throw new Error(host.error.message);
          for (let i = 0; i < 30; i++) {
            expect(host.value.attach(socket(`${id}-${i}`)).ok).toBe(true);
          }
        }
        open();
        // Said again once: one `gone`, then every link; and then the queue stays quiet.
        await expect.poll(() => sent.filter((n) => n.kind === 'gone').length).toBe(1);
        // Bounded: said again and again, the queue would never settle.
        await Promise.race([
          hub.settledPresence(),
          new Promise((_, reject) =>
            setTimeout(
              () => reject(new Error('presence never settled: said again, and again')),
              10_000,
            ),
          ),
        ]);
        const told = sent.length;
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(sent.length).toBe(told);
        expect(sent.filter((n) => n.kind === 'gone')).toHaveLength(1);
        const after = sent.slice(sent.findIndex((n) => n.kind === 'gone') + 1);
        expect(
          new Set(after.map((n) => (n.kind === 'link' ? `${n.encounterId}/${n.link}` : n.kind)))
            .size,
        ).toBe(600);
      } finally {
        hub.close();
      }
    } finally {
      await running.stop();
    }
  });
});
