import { afterAll, describe, expect, it } from 'vitest';
import type { StatePayload } from '../../src/server/protocol.js';
import { KINDS, stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  type Heard,
  http,
  newTable,
  startEncounterOver,
  useServer,
} from './harness.js';

afterAll(stopFallbackPostgres);

type State = Extract<Heard, { type: 'state' | 'entry' | 'changed' }>;
type Entry = Extract<Heard, { type: 'entry' }>;

/** Submits the GM's first offered action until `done` says stop; returns the last state. */
async function playUntil(
  gm: Client,
  from: StatePayload,
  done: (state: StatePayload) => boolean,
  limit = 60,
): Promise<StatePayload> {
  let state = from;
  for (let i = 0; i < limit && !done(state); i++) {
    const action = state.actions[0];
    if (action === undefined) break;
    const key = `play-${state.seq + 1}-${Math.random()}`;
    const answer = await gm.submit(state.seq + 1, key, {
      kind: 'command',
      command: action.command,
    });
    if (answer.type !== 'accepted') throw new Error(JSON.stringify(answer));
    state = await gm.until((m): m is State => m.type === 'entry' && m.seq === answer.seq);
  }
  return state;
}

const PARTY = new Set(['hiro', 'haze', 'mint']);

describe.each(KINDS)('the table server on %s', (kind) => {
  const running = useServer(kind);

  async function windCave(seed = 'test') {
    const { table, gmToken } = await newTable(running.store, 'ffrpg');
    const encounterId = await startEncounterOver(
      running.url,
      gmToken,
      example('ffrpg-wind-cave'),
      seed,
    );
    const player = async (characterId: string) => {
      const created = await running.store.createToken(table.id, { role: 'player', characterId });
      if (!created.ok) throw new Error(created.error.message);
      return created.value.token;
    };
    const spectator = await running.store.createToken(table.id, { role: 'spectator' });
    if (!spectator.ok) throw new Error(spectator.error.message);
    return { table, gmToken, encounterId, player, spectatorToken: spectator.value.token };
  }

  it('answers health and readiness', async () => {
    expect((await http(`${running.url}/healthz`, undefined, 'GET')).body).toEqual({
      status: 'ok',
    });
    expect((await http(`${running.url}/readyz`, undefined, 'GET')).body).toMatchObject({
      status: 'ready',
      store: kind,
    });
  });

  it('sends every accepted entry to every client in order, each with the state after it', async () => {
    const { gmToken, encounterId, spectatorToken } = await windCave();
    const { client: gm, state } = await Client.join(running.url, encounterId, gmToken);
    const { client: watcher } = await Client.join(running.url, encounterId, spectatorToken);
    const last = await playUntil(gm, state, (s) => s.seq >= 6);
    expect(last.seq).toBe(6);
    const seen: number[] = [];
    for (let seq = 1; seq <= 6; seq++) {
      const entry = await watcher.next('entry');
      seen.push(entry.entry.seq);
      expect(entry.seq).toBe(entry.entry.seq);
      expect(entry.actions).toEqual([]);
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    const stored = await running.store.entriesSince(encounterId, 0);
    expect(stored.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    gm.close();
    watcher.close();
  });

  it('refuses a stale submit with the current number and applies a retried one once', async () => {
    const { gmToken, encounterId } = await windCave();
    const { client: gm, state } = await Client.join(running.url, encounterId, gmToken);
    const command = state.actions[0]!.command;
    const first = await gm.submit(1, 'same-key', { kind: 'command', command });
    expect(first).toMatchObject({ type: 'accepted', seq: 1, duplicate: false });
    const retry = await gm.submit(1, 'same-key', { kind: 'command', command });
    expect(retry).toMatchObject({ type: 'accepted', seq: 1, duplicate: true });
    const stale = await gm.submit(1, 'other-key', { kind: 'undo', steps: 1 });
    expect(stale).toMatchObject({ type: 'refused', code: 'submit/stale', current: 1 });
    const ahead = await gm.submit(5, 'ahead-key', { kind: 'undo', steps: 1 });
    expect(ahead).toMatchObject({ type: 'refused', code: 'submit/stale', current: 1 });
    expect(await running.store.lastSeq(encounterId)).toBe(1);
    // A refusal by the rules changes nothing either, and says why.
    const bad = await gm.submit(2, 'bad', { kind: 'command', command: { type: 'attack' } });
    expect(bad).toMatchObject({ type: 'refused' });
    expect(await running.store.lastSeq(encounterId)).toBe(1);
    gm.close();
  });

  it('fills a reconnecting client with exactly the entries it missed', async () => {
    const { gmToken, encounterId, spectatorToken } = await windCave();
    const { client: gm, state } = await Client.join(running.url, encounterId, gmToken);
    const mid = await playUntil(gm, state, (s) => s.seq >= 2);
    const { client: late } = await Client.join(running.url, encounterId, spectatorToken, 0);
    late.close();
    await playUntil(gm, mid, (s) => s.seq >= 5);
    const { client: back, state: now } = await Client.join(
      running.url,
      encounterId,
      spectatorToken,
      2,
    );
    const batch = back.messages.find(
      (m): m is Extract<Heard, { type: 'entries' }> => m.type === 'entries',
    );
    expect(batch?.entries.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(now.seq).toBe(5);
    const { client: ahead } = await Client.join(running.url, encounterId, gmToken, 5);
    expect(ahead.messages.some((m) => m.type === 'entries')).toBe(false);
    const tooFar = await Client.connect(running.url, encounterId, gmToken);
    tooFar.send({ type: 'hello', since: 99 });
    expect(await tooFar.next('refused')).toMatchObject({ code: 'sync/ahead', current: 5 });
    for (const c of [gm, back, ahead, tooFar]) c.close();
  });

  it('lets a player act only for its own character on its turn, and enter only its own dice', async () => {
    const { gmToken, encounterId, player, spectatorToken, table } = await windCave('roles');
    const { client: gm, state: start } = await Client.join(running.url, encounterId, gmToken);
    const atParty = await playUntil(gm, start, (s) => PARTY.has(s.view.actor ?? ''));
    const actor = atParty.view.actor!;
    const other = [...PARTY].find((c) => c !== actor)!;
    const { client: mine, state: myState } = await Client.join(
      running.url,
      encounterId,
      await player(actor),
    );
    const { client: theirs, state: theirState } = await Client.join(
      running.url,
      encounterId,
      await player(other),
    );
    const { client: watcher } = await Client.join(running.url, encounterId, spectatorToken);
    expect(myState.actions.length).toBeGreaterThan(0);
    expect(myState.actions.every((a) => a.command.actor === actor)).toBe(true);
    expect(theirState.actions).toEqual([]);
    const attack = myState.actions.find((a) => a.command.type === 'attack')!;
    const next = atParty.seq + 1;

    const refusals = [
      [watcher, { kind: 'command', command: attack.command }, 'role/spectator'],
      [theirs, { kind: 'command', command: attack.command }, 'role/not-your-character'],
      [
        theirs,
        { kind: 'command', command: { ...attack.command, actor: other } },
        'role/not-your-turn',
      ],
      [mine, { kind: 'undo', steps: 1 }, 'role/gm-only'],
      [mine, { kind: 'gm', line: 'hp heket 1' }, 'role/gm-only'],
      [
        mine,
        { kind: 'command', command: { ...attack.command, target: actor } },
        'role/not-offered',
      ],
    ] as const;
    for (const [client, action, code] of refusals) {
      const answer = await client.submit(next, `refused-${code}`, action);
      expect(answer, code).toMatchObject({ type: 'refused', code });
    }
    const notMine = await mine.submit(
      next,
      'not-my-roll',
      { kind: 'command', command: attack.command },
      { [`initiative:${actor}`]: [5] },
    );
    expect(notMine).toMatchObject({ type: 'refused', code: 'role/not-your-roll' });
    for (const code of ['role/gm-only']) {
      mine.send({ type: 'reveal', combatant: 'heket', revealed: true });
      expect(await mine.next('refused')).toMatchObject({ code });
      mine.send({ type: 'roll', notation: 'd20' });
      expect(await mine.next('refused')).toMatchObject({ code });
    }
    expect(await running.store.lastSeq(encounterId)).toBe(atParty.seq);

    // Its own roll, entered from a physical die, is taken as rolled.
    const hit = attack.rolls.find((r) => r.purpose.startsWith('hit:'))!;
    const own = await mine.submit(
      next,
      'my-roll',
      { kind: 'command', command: attack.command },
      { [hit.purpose]: [1, 1] },
    );
    expect(own).toMatchObject({ type: 'accepted', seq: next });
    const entry = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === next);
    expect(entry.entry.lines.join('\n')).toContain('d% [10+1] = 11 (rolled at the table)');

    // A player cannot invite, and a revoked link opens nothing.
    const asPlayer = await http(`${running.url}/api/table/invites`, await player(actor), 'POST', {
      role: 'spectator',
    });
    expect(asPlayer.status).toBe(403);
    const revoked = await player(other);
    const id = revoked.split('.')[0]!;
    expect((await http(`${running.url}/api/table/invites/${id}`, gmToken, 'DELETE')).status).toBe(
      200,
    );
    expect((await http(`${running.url}/api/table`, revoked, 'GET')).status).toBe(401);
    const shut = await Client.connect(running.url, encounterId, revoked);
    expect(await shut.next('refused')).toMatchObject({ code: 'auth/invalid' });
    // Another table's GM does not see this table's encounter.
    const elsewhere = await newTable(running.store, 'ffrpg');
    const foreign = await Client.connect(running.url, encounterId, elsewhere.gmToken);
    expect(await foreign.next('refused')).toMatchObject({ code: 'encounter/not-found' });
    void table;
    for (const c of [gm, mine, theirs, watcher]) c.close();
  });

  it("lets a player answer an attack off its turn (FFVIII's dodge-or-take), not roll the attacker's dice", async () => {
    const { table, gmToken } = await newTable(running.store, 'ffviii');
    const encounterId = await startEncounterOver(
      running.url,
      gmToken,
      example('ffviii-iron-giant'),
      'dodge',
    );
    const token = await running.store.createToken(table.id, {
      role: 'player',
      characterId: 'ehlric',
    });
    if (!token.ok) throw new Error(token.error.message);
    const { client: gm, state } = await Client.join(running.url, encounterId, gmToken);
    const { client: ehlric } = await Client.join(running.url, encounterId, token.value.token);
    // The GM plays the Giant (and Ehlric, until the Giant swings at him).
    const asked = (s: StatePayload) =>
      s.actions.some((a) => a.command.type === 'dodge' && a.command.actor === 'ehlric');
    const prompt = await playUntil(gm, state, asked, 40);
    expect(asked(prompt)).toBe(true);
    const offered = await ehlric.until(
      (m): m is Entry => m.type === 'entry' && m.seq === prompt.seq,
    );
    const dodge = offered.actions.find((a) => a.command.type === 'dodge')!;
    expect(dodge.command.actor).toBe('ehlric');
    expect(offered.actions.some((a) => a.command.type === 'take-it')).toBe(true);
    const attackRoll = dodge.rolls[0]!.purpose;
    const notMine = await ehlric.submit(
      prompt.seq + 1,
      'their-roll',
      { kind: 'command', command: dodge.command },
      { [attackRoll]: [3, 2] },
    );
    expect(notMine).toMatchObject({ type: 'refused', code: 'role/not-your-roll' });
    const answered = await ehlric.submit(prompt.seq + 1, 'dodge', {
      kind: 'command',
      command: dodge.command,
    });
    expect(answered).toMatchObject({ type: 'accepted', seq: prompt.seq + 1 });
    gm.close();
    ehlric.close();
  });

  it('hides from players what the table would not see, until the GM reveals it', async () => {
    const { gmToken, encounterId, player } = await windCave('secrets');
    const { client: gm, state } = await Client.join(running.url, encounterId, gmToken);
    const { client: hiro, state: hiroState } = await Client.join(
      running.url,
      encounterId,
      await player('hiro'),
    );
    const heket = (s: StatePayload) => s.view.combatants.find((c) => c.id === 'heket')!;
    expect(heket(state)).toMatchObject({ hp: 200, maxHp: 200, hidden: false });
    expect(heket(hiroState)).toMatchObject({
      hp: null,
      maxHp: null,
      mp: null,
      band: 'unhurt',
      hidden: true,
    });
    expect(hiroState.view.combatants.find((c) => c.id === 'hiro')).toMatchObject({
      hp: 72,
      hidden: false,
    });

    const noted = await gm.submit(1, 'note', { kind: 'gm', line: 'note heket hiding a key' });
    expect(noted).toMatchObject({ type: 'accepted' });
    const hurt = await gm.submit(2, 'hurt', { kind: 'gm', line: 'damage heket 70' });
    expect(hurt).toMatchObject({ type: 'accepted' });
    const gmAfter = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === 2);
    const hiroNote = await hiro.until((m): m is Entry => m.type === 'entry' && m.seq === 1);
    const hiroHurt = await hiro.until((m): m is Entry => m.type === 'entry' && m.seq === 2);
    expect(heket(gmAfter).notes).toEqual(['hiding a key']);
    expect(heket(hiroHurt).notes).toEqual([]);
    expect(JSON.stringify(hiro.messages)).not.toContain('hiding a key');
    expect(hiroNote.entry).not.toHaveProperty('command');
    expect(heket(hiroHurt)).toMatchObject({ hp: null, band: 'wounded' });
    expect(gmAfter.entry.lines.join(' ')).toContain('130');
    expect(hiroHurt.entry.lines.join(' ')).not.toContain('130');
    expect(hiroHurt.entry.lines.join(' ')).toContain('?');
    expect(hiroHurt.entry).not.toHaveProperty('events');

    // A secret roll reaches the GM alone.
    gm.send({ type: 'roll', notation: '3d6', secret: true });
    expect(await gm.next('rolled')).toMatchObject({ notation: '3d6', secret: true });
    hiro.send({ type: 'ping' });
    await hiro.next('pong');
    expect(hiro.messages.some((m) => m.type === 'rolled')).toBe(false);

    gm.send({ type: 'reveal', combatant: 'heket', revealed: true });
    const shown = await hiro.until(
      (m): m is State => m.type === 'changed' && heket(m).hidden === false,
    );
    expect(heket(shown)).toMatchObject({ hp: 130, maxHp: 200 });
    expect((await running.store.getEncounter(encounterId))?.revealed).toEqual(['heket']);
    const gmSees = await gm.until((m): m is State => m.type === 'changed' && m.revealed.length > 0);
    expect(gmSees.revealed).toEqual(['heket']);
    expect(shown.revealed).toEqual([]);
    gm.send({ type: 'reveal', combatant: 'nobody', revealed: true });
    expect(await gm.next('refused')).toMatchObject({ code: 'reveal/unknown-combatant' });
    gm.close();
    hiro.close();
  });

  it('answers bad, oversized and too many messages without harm', async () => {
    const { gmToken, encounterId } = await windCave();
    const { client } = await Client.join(running.url, encounterId, gmToken);
    client.socket.send('not json');
    expect(await client.next('refused')).toMatchObject({ code: 'message/invalid' });
    client.send({ type: 'submit', expect: 1, key: '', action: { kind: 'undo' } });
    expect(await client.next('refused')).toMatchObject({ code: 'message/invalid' });
    client.send({ type: 'hello', since: -1 });
    expect(await client.next('refused')).toMatchObject({ code: 'message/invalid' });
    for (let i = 0; i < 60; i++) client.send({ type: 'ping' });
    expect(await client.next('refused')).toMatchObject({ code: 'message/too-fast' });
    const big = await Client.connect(running.url, encounterId, gmToken);
    big.socket.send('x'.repeat(70 * 1024));
    await expect(big.next('pong', 5000)).rejects.toThrow(/closed \(1009/);
    expect(await running.store.lastSeq(encounterId)).toBe(0);
    client.close();
  });

  it('starts encounters only from files that name no folders on the server', async () => {
    const { gmToken } = await newTable(running.store, 'ffrpg');
    const withFolder = `${example('ffrpg-wind-cave')}\ncontent: [../../etc]\n`;
    const refused = await http(`${running.url}/api/table/encounters`, gmToken, 'POST', {
      file: withFolder,
    });
    expect(refused.status).toBe(400);
    const wrongSystem = await http(`${running.url}/api/table/encounters`, gmToken, 'POST', {
      file: example('zodiac-keef-and-the-ogre'),
    });
    expect(wrongSystem.status).toBe(400);
    const broken = await http<{ error: { message: string } }>(
      `${running.url}/api/table/encounters`,
      gmToken,
      'POST',
      { file: 'format: 1\nruleset: ffrpg\nsides: []\n' },
    );
    expect(broken.status).toBe(400);
    expect(broken.body.error.message.length).toBeGreaterThan(0);
  });
});
