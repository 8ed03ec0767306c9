import { afterAll, describe, expect, it } from 'vitest';
import type { LiveClient } from '../../src/server/live/encounter-host.js';
import type { ServerMessage } from '../../src/server/protocol.js';
import type { Store } from '../../src/store/index.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { example, hubOver, newTable, startEncounterOver, startServer } from './harness.js';

afterAll(stopFallbackPostgres);

/** The GM's socket as the host sees it, keeping what it is sent. */
function gmSocket(linkId: string): LiveClient & { readonly heard: ServerMessage[] } {
  const heard: ServerMessage[] = [];
  return {
    role: { role: 'gm' },
    linkId,
    heard,
    send(message) {
      heard.push(message);
    },
    sendText(text) {
      heard.push(JSON.parse(text) as ServerMessage);
    },
    close() {},
  };
}

/**
 * A store that stops answering while the server waits on it: each wait is bounded by the
 * driver's timeouts, but a submit queued behind another's wait would add them up. The submit is
 * answered within its own bound from its arrival, and one whose turn comes after that changes
 * nothing.
 */
describe('a submit while the store hangs', () => {
  it('is refused within its bound, queued behind a hello that waits, and is not applied later', async () => {
    const running = await startServer('sqlite');
    try {
      const { table, gmToken } = await newTable(running.store, 'ffrpg');
      const [gmLink] = await running.store.listTokens(table.id);
      const id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'), 'h');
      let open: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      // The real store, with the GM's rolls (read by a GM's hello) and link checks held.
      let hanging = true;
      const held =
        <T>(answer: () => Promise<T>) =>
        async (): Promise<T> => {
          if (hanging) await gate;
          return answer();
        };
      const store: Store = Object.create(running.store, {
        gmRolls: { value: (encounter: string) => held(() => running.store.gmRolls(encounter))() },
        tokenLive: { value: (link: string) => held(() => running.store.tokenLive(link))() },
      });
      const hub = hubOver(store, { submitAnswerMs: 300 });
      await hub.start();
      try {
        const host = await hub.host(id);
        if (!host.ok) throw new Error(host.error.message);
        const gm = gmSocket(gmLink!.tokenId);
        expect(host.value.attach(gm).ok).toBe(true);
        const first = host.value.statePayload({ role: 'gm' });
        const seq = host.value.lastSeq;
        void host.value.hello(gm, seq);
        const started = performance.now();
        const submitted = host.value.submit(gm, {
          type: 'submit',
          expect: seq + 1,
          key: 'behind-a-hello',
          action: { kind: 'command', command: first.actions[0]!.command },
        });
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const answers = gm.heard.filter((m) => m.type === 'refused' || m.type === 'accepted');
        expect(answers).toEqual([
          expect.objectContaining({
            type: 'refused',
            key: 'behind-a-hello',
            code: 'server/storage',
          }),
        ]);
        expect(performance.now() - started).toBeGreaterThanOrEqual(300);

        // The store answers again: the late submit's turn comes, and it does nothing.
        hanging = false;
        open();
        await submitted;
        expect(host.value.lastSeq).toBe(seq);
        expect(gm.heard.filter((m) => m.type === 'accepted' || m.type === 'entry')).toEqual([]);
        expect(gm.heard.filter((m) => m.type === 'refused')).toHaveLength(1);

        // And a submit now is taken as usual.
        await host.value.submit(gm, {
          type: 'submit',
          expect: seq + 1,
          key: 'after',
          action: { kind: 'command', command: first.actions[0]!.command },
        });
        expect(gm.heard.find((m) => m.type === 'accepted')).toMatchObject({ key: 'after' });
        expect(host.value.lastSeq).toBe(seq + 1);
      } finally {
        hub.close();
      }
    } finally {
      await running.stop();
      await running.location.dispose();
    }
  });
});
