import { afterAll, describe, expect, it } from 'vitest';
import type { StatePayload } from '../../src/server/protocol.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { Client, example, type Heard, newTable, startEncounterOver, useServer } from './harness.js';

/**
 * A submit's `dice` over a real socket, as the engine reads them: arrays are faces, `{ sum }`
 * what the dice show, `{ total }` a marked total; anything else is not this protocol.
 */

afterAll(stopFallbackPostgres);

type Entry = Extract<Heard, { type: 'entry' }>;

describe('dice entered over the socket: faces are faces', () => {
  const running = useServer('sqlite');

  it('"Rob: (rolling) 10. 30 Physical damage": [10] on 2 x AGI + d12 is the d12, 28 on d% one number', async () => {
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const encounterId = await startEncounterOver(
      running.url,
      gmToken,
      example('ffrpg-wind-cave'),
      'faces',
    );
    const { client: gm, state: first } = await Client.join(running.url, encounterId, gmToken);
    let state: StatePayload = first;
    const accepted = async (
      key: string,
      command: { type: string } & Record<string, unknown>,
      dice: Parameters<Client['submit']>[3],
    ): Promise<Entry> => {
      const answer = await gm.submit(state.seq + 1, key, { kind: 'command', command }, dice);
      if (answer.type !== 'accepted') throw new Error(JSON.stringify(answer));
      const entry = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === answer.seq);
      state = entry;
      return entry;
    };

    // "Rob: (rolling) Woo! 15." marked as a total; the others' d10s as they lie.
    const round = await accepted(
      'round',
      { type: 'begin-round' },
      {
        'initiative:hiro': { total: 15 },
        'initiative:haze': [6],
        'initiative:mint': { sum: 4 },
        'initiative:heket': [6],
      },
    );
    expect(round.entry.lines.join('\n')).toContain('Hiro 15, Haze 14, Mint 12, Heket 12');

    const attack = { type: 'attack', actor: 'hiro', target: 'heket' };
    // A total typed as a face: no d12 shows 30, and nothing changes.
    const refused = await gm.submit(
      state.seq + 1,
      'thirty',
      { kind: 'command', command: attack },
      { 'hit:heket': [2, 8], 'damage:heket': [30] },
    );
    expect(refused).toMatchObject({
      type: 'refused',
      code: 'dice/entered-out-of-range',
      message: expect.stringContaining('damage:heket (2*AGI + d12): entered die 1 is 30'),
    });
    // Not this protocol: a misspelt mark, a bare number.
    for (const dice of [{ 'damage:heket': { totl: 30 } }, { 'damage:heket': 30 }]) {
      gm.send({
        type: 'submit',
        expect: state.seq + 1,
        key: 'bad',
        action: { kind: 'command', command: attack },
        dice,
      });
      expect(await gm.next('refused')).toMatchObject({ code: 'message/invalid' });
    }

    const shot = await accepted('shot', attack, { 'hit:heket': { sum: 28 }, 'damage:heket': [10] });
    const lines = shot.entry.lines.join('\n');
    expect(lines).toContain('[20+8] = 28');
    expect(lines).toContain('2 * 10 + [10] = 30');
    gm.close();
  });
});
