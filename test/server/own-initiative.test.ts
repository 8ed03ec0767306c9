import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedRolls } from '../../src/engine/index.js';
import type { StatePayload } from '../../src/server/protocol.js';
import { KINDS, stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  type Heard,
  newTable,
  type Running,
  startEncounterOver,
  startServer,
} from './harness.js';

/**
 * A player enters its own character's Initiative (Speed Points, turn order) on its phone ahead
 * of the GM's command that rolls it, when the encounter's option lets it: the server holds it
 * with the encounter (a reconnect, another process, see it), the GM's screen shows it as
 * entered, and the GM's command uses it, the log carrying it as rolled at the table. Over real
 * sockets, on each database.
 */

afterAll(stopFallbackPostgres);

type Entry = Extract<Heard, { type: 'entry' }>;
type Refused = Extract<Heard, { type: 'refused' }>;
/** The present changed without an entry (a roll held or let go): a patch, followed. */
type State = Extract<Heard, { type: 'changed' }>;

interface Case {
  readonly system: string;
  readonly example: string;
  /** The rule text's words for it. */
  readonly quote: string;
  readonly option: string;
  /** The roll's purpose, less the combatant: `initiative`, `sp`, `turn-order`. */
  readonly kind: string;
  /** The option's value when the encounter file does not set it. */
  readonly byDefault: boolean;
  readonly me: string;
  /** Someone else's roll of the same kind: another player's character, or a monster. */
  readonly theirs: string;
  /** The GM's command that rolls it. */
  readonly begin: { readonly type: string };
  readonly face: number;
  /** What the roll gives, read off the GM's view after the command. */
  readonly result: (state: StatePayload, entry: Entry) => number | undefined;
  readonly expected: number;
}

const clockOf = (state: StatePayload, id: string, key: string): number | undefined => {
  const value = state.view.combatants.find((c) => c.id === id)?.clock[key];
  return typeof value === 'number' ? value : undefined;
};

const CASES: readonly Case[] = [
  {
    system: 'ffrpg',
    example: 'ffrpg-wind-cave',
    quote: 'Rob: (rolling) Woo! 15.',
    option: 'playersRollInitiative',
    kind: 'initiative',
    byDefault: true,
    me: 'hiro',
    theirs: 'initiative:haze',
    begin: { type: 'begin-round' },
    // Hiro's SPD is 5: Rob's 15 is a d10 of 10 (docs/rulings.md, Attribute Ratings).
    face: 10,
    result: (state) => clockOf(state, 'hiro', 'initiative'),
    expected: 15,
  },
  {
    system: 'ffviii',
    example: 'ffviii-iron-giant',
    quote:
      "Fnord rolls the initiative dice and gets a 8. He adds this to Ehlric's Speed of 8 for a total of 16.",
    option: 'playersRollInitiative',
    kind: 'initiative',
    byDefault: true,
    me: 'ehlric',
    theirs: 'initiative:iron-giant',
    begin: { type: 'begin-round' },
    face: 8,
    result: (state) => clockOf(state, 'ehlric', 'initiative'),
    expected: 16,
  },
  {
    system: 'zodiac',
    example: 'zodiac-keef-and-the-ogre',
    quote: 'they each roll 1d8. Keef gets a 3 ... they begin combat with 23 Speed Points',
    option: 'playersRollSpeedPoints',
    kind: 'sp',
    byDefault: true,
    me: 'keef',
    theirs: 'sp:ogre',
    begin: { type: 'begin-battle' },
    face: 3,
    result: (state) => clockOf(state, 'keef', 'sp'),
    expected: 23,
  },
  {
    system: 'shining-force',
    example: 'shining-force-gate',
    quote: 'Attacking actions are determined by the Game Master rolling',
    option: 'playersRollTurnOrder',
    kind: 'turn-order',
    byDefault: false,
    me: 'max',
    theirs: 'turn-order:ken',
    begin: { type: 'begin-battle' },
    // d101: 101 takes Max's Agility at 150%, and puts him first.
    face: 101,
    result: (_state, entry) => {
      const began = entry.entry.events?.find(
        (e) => (e as { type?: string }).type === 'round-began',
      ) as { order: string[] } | undefined;
      return began?.order.indexOf('max');
    },
    expected: 0,
  },
];

/** The encounter file with the option set (`undefined`: as the file has it, the default). */
function withOption(c: Case, on: boolean | undefined): string {
  const file = example(c.example);
  if (on === undefined) return file;
  const line = `  ${c.option}: ${on}\n`;
  return /^options:\n/m.test(file)
    ? file.replace(/^options:\n/m, `options:\n${line}`)
    : `${file.trimEnd()}\noptions:\n${line}`;
}

const purposeOf = (c: Case): string => `${c.kind}:${c.me}`;

describe.each(KINDS)('players enter their own order rolls on %s', (kind) => {
  let running: Running;
  /** A second server on the same database: another process, as far as the encounter knows. */
  let other: Running;

  beforeAll(async () => {
    running = await startServer(kind);
    other = await startServer(kind, running.location);
  }, 60_000);

  afterAll(async () => {
    await other?.stop();
    await running?.stop();
    await running?.location.dispose();
  });

  async function setUp(c: Case, on: boolean | undefined) {
    const { table, gmToken } = await newTable(running.store, c.system);
    const encounterId = await startEncounterOver(running.url, gmToken, withOption(c, on), 'own');
    const link = await running.store.createToken(table.id, {
      role: 'player',
      characterId: c.me,
    });
    if (!link.ok) throw new Error(link.error.message);
    return { encounterId, gmToken, playerToken: link.value.token };
  }

  const hold = async (client: Client, purpose: string, roll: unknown) => {
    client.send({ type: 'hold', purpose, roll });
  };

  const refusal = (client: Client) => client.until((m): m is Refused => m.type === 'refused');

  it.each(CASES)(
    '$system: with $option off, a player cannot hold its roll, and is told why',
    async (c) => {
      const { encounterId, playerToken } = await setUp(c, c.byDefault ? false : undefined);
      const { client: player, state } = await Client.join(running.url, encounterId, playerToken);
      expect(state.orderRolls).toBeUndefined();
      await hold(player, purposeOf(c), [c.face]);
      const refused = await refusal(player);
      expect(refused).toMatchObject({ code: 'hold/off', purpose: purposeOf(c) });
      expect(refused.message).toContain(c.option);
      expect(await running.store.heldRolls(encounterId)).toEqual([]);
      player.close();
    },
  );

  it.each(CASES)(
    '$system: "$quote": held on the phone, used by the GM\'s command, entered at the table',
    async (c) => {
      const purpose = purposeOf(c);
      const { encounterId, gmToken, playerToken } = await setUp(c, c.byDefault ? undefined : true);
      const { client: gm, state: gmFirst } = await Client.join(running.url, encounterId, gmToken);
      const mine = await Client.join(running.url, encounterId, playerToken);
      let player = mine.client;
      // The phone is offered its own slot, and only its own.
      expect(mine.state.orderRolls?.slots.map((s) => s.purpose)).toEqual([purpose]);
      expect(mine.state.orderRolls?.held).toEqual([]);
      expect(gmFirst.orderRolls?.slots.some((s) => s.purpose === purpose)).toBe(true);

      // Another's roll, a roll out of range, and a GM's hold: refused, nothing held.
      await hold(player, c.theirs, [1]);
      expect(await refusal(player)).toMatchObject({
        code: 'role/not-your-roll',
        purpose: c.theirs,
      });
      await hold(player, purpose, [999]);
      expect(await refusal(player)).toMatchObject({
        code: 'dice/entered-out-of-range',
        purpose,
      });
      await hold(gm, purpose, [c.face]);
      expect(await refusal(gm)).toMatchObject({ code: 'role/players-hold' });
      expect(await running.store.heldRolls(encounterId)).toEqual([]);

      // A first roll, then the one that stands: the player may change it until the GM begins.
      await hold(player, purpose, [1]);
      await hold(player, purpose, [c.face]);
      const heldBy = (m: Heard): m is State =>
        m.type === 'changed' &&
        JSON.stringify(m.orderRolls?.held.find((h) => h.purpose === purpose)?.roll) ===
          JSON.stringify([c.face]);
      await player.until(heldBy);
      const gmSees = await gm.until(heldBy);
      expect(gmSees.orderRolls?.held).toEqual([
        expect.objectContaining({ purpose, roller: c.me, roll: [c.face] }),
      ]);

      // Reconnecting, on the other process: the roll is still held.
      player.close();
      const again = await Client.join(other.url, encounterId, playerToken);
      player = again.client;
      expect(again.state.orderRolls?.held).toEqual([
        expect.objectContaining({ purpose, roll: [c.face] }),
      ]);
      // Taken back, then entered again.
      await hold(player, purpose, null);
      await player.until(
        (m): m is State => m.type === 'changed' && m.orderRolls?.held.length === 0,
      );
      expect(await running.store.heldRolls(encounterId)).toEqual([]);
      await hold(player, purpose, [c.face]);
      await gm.until(heldBy);

      // The GM begins, on the first process: the log carries the player's die, entered.
      const begun = await gm.submit(gmFirst.seq + 1, 'begin', {
        kind: 'command',
        command: c.begin,
      });
      expect(begun).toMatchObject({ type: 'accepted' });
      const entry = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === 1);
      const roll = recordedRolls(entry.entry.events ?? []).find((r) => r.purpose === purpose);
      expect(roll).toMatchObject({ entered: true, dice: [c.face] });
      expect(entry.entry.lines.join('\n')).toContain('rolled at the table');
      expect(c.result(entry, entry)).toBe(c.expected);
      // Spent: let go of, in the store and on every screen.
      expect(entry.orderRolls?.held ?? []).toEqual([]);
      const seen = await player.until((m): m is Entry => m.type === 'entry' && m.seq === 1);
      expect(seen.orderRolls?.held ?? []).toEqual([]);
      expect(
        (await running.store.heldRolls(encounterId)).filter((h) => h.purpose === purpose),
      ).toEqual([]);
      gm.close();
      player.close();
    },
  );

  it.each(CASES)(
    '$system: undoing the command that spent a held roll holds it again; redoing it spends it again',
    async (c) => {
      const purpose = purposeOf(c);
      const { encounterId, gmToken, playerToken } = await setUp(c, c.byDefault ? undefined : true);
      const { client: gm } = await Client.join(running.url, encounterId, gmToken);
      // The phone is on the other process: it hears the undo through the store.
      const { client: player } = await Client.join(other.url, encounterId, playerToken);
      const mine = (held: readonly { purpose: string }[] | undefined) =>
        (held ?? []).filter((h) => h.purpose === purpose);
      const storedMine = async () => mine(await running.store.heldRolls(encounterId));
      let seq = 0;
      const gmDoes = async (
        action: Parameters<Client['submit']>[2],
        dice?: Parameters<Client['submit']>[3],
      ): Promise<Entry> => {
        seq += 1;
        const answer = await gm.submit(seq, `gm-${seq}`, action, dice);
        if (answer.type !== 'accepted') throw new Error(JSON.stringify(answer));
        const at = seq;
        return gm.until((m): m is Entry => m.type === 'entry' && m.seq === at);
      };
      const facesIn = (entry: Entry) =>
        recordedRolls(entry.entry.events ?? []).find((r) => r.purpose === purpose);

      await hold(player, purpose, [c.face]);
      await gm.until(
        (m): m is State => m.type === 'changed' && mine(m.orderRolls?.held).length === 1,
      );
      const first = await gmDoes({ kind: 'command', command: c.begin });
      expect(facesIn(first)).toMatchObject({ entered: true, dice: [c.face] });
      expect(await storedMine()).toEqual([]);

      // Undone: the player's die is held again, as entered, on every screen and in the store.
      const undone = await gmDoes({ kind: 'undo', steps: 1 });
      const heldAgain = [expect.objectContaining({ purpose, roller: c.me, roll: [c.face] })];
      expect(undone.orderRolls?.held).toEqual(heldAgain);
      expect(await storedMine()).toEqual(heldAgain);
      const phone = await player.until(
        (m): m is Entry => m.type === 'entry' && m.seq === undone.seq,
      );
      if (mine(phone.orderRolls?.held).length === 0)
        await player.until(
          (m): m is State => m.type === 'changed' && mine(m.orderRolls?.held).length === 1,
        );

      // Begun again: the same die, entered, not the dice's nor the players' to enter again.
      const again = await gmDoes({ kind: 'command', command: c.begin });
      expect(facesIn(again)).toEqual(facesIn(first));
      expect(c.result(again, again)).toBe(c.expected);
      expect(again.orderRolls?.held ?? []).toEqual([]);
      expect(await storedMine()).toEqual([]);

      // Undone and redone: spent again, held nowhere, not twice.
      expect((await gmDoes({ kind: 'undo', steps: 1 })).orderRolls?.held).toEqual(heldAgain);
      const redone = await gmDoes({ kind: 'redo', steps: 1 });
      expect(facesIn(redone)).toBeUndefined();
      expect(redone.orderRolls?.held ?? []).toEqual([]);
      expect(await storedMine()).toEqual([]);

      // Undoing a command that spent no held roll holds nothing.
      const next = again.actions.find(
        (a) => a.group === undefined && !a.rolls.some((r) => r.purpose.startsWith(`${c.kind}:`)),
      );
      expect(next).toBeDefined();
      await gmDoes({ kind: 'command', command: next!.command });
      const unrelated = await gmDoes({ kind: 'undo', steps: 1 });
      expect(unrelated.orderRolls?.held ?? []).toEqual([]);
      expect(await storedMine()).toEqual([]);

      // The begin undone once more: held again. Taken back by the player, the dice roll it;
      // that begin undone holds nothing, the roll not the player's.
      expect((await gmDoes({ kind: 'undo', steps: 1 })).orderRolls?.held).toEqual(heldAgain);
      await hold(player, purpose, null);
      await gm.until(
        (m): m is State => m.type === 'changed' && mine(m.orderRolls?.held).length === 0,
      );
      expect(facesIn(await gmDoes({ kind: 'command', command: c.begin }))).toMatchObject({
        entered: false,
      });
      const diced = await gmDoes({ kind: 'undo', steps: 1 });
      expect(diced.orderRolls?.held ?? []).toEqual([]);
      expect(await storedMine()).toEqual([]);
      gm.close();
      player.close();
    },
  );

  it('shining-force: a turn-order die held mid-battle goes into whatever command ends the round', async () => {
    const c = CASES.find((x) => x.system === 'shining-force')!;
    const purpose = purposeOf(c);
    const { encounterId, gmToken, playerToken } = await setUp(c, true);
    const { client: gm, state: first } = await Client.join(running.url, encounterId, gmToken);
    const { client: player } = await Client.join(running.url, encounterId, playerToken);
    let state: StatePayload = first;
    const play = async (command: Record<string, unknown>): Promise<Entry> => {
      const seq = state.seq + 1;
      const answer = await gm.submit(seq, `gm-${seq}`, {
        kind: 'command',
        command: command as { type: string },
      });
      if (answer.type !== 'accepted') throw new Error(JSON.stringify(answer));
      const entry = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === seq);
      state = entry;
      return entry;
    };
    await play(c.begin);
    // Held in round 1, for round 2: the GM's skips pass every turn until one ends the round.
    await hold(player, purpose, [c.face]);
    await gm.until((m): m is State => m.type === 'changed' && m.orderRolls?.held.length === 1);
    let ending: Entry | undefined;
    for (let i = 0; i < 40 && ending === undefined; i++) {
      const actor = state.view.actor;
      if (actor === null) throw new Error(`no one to skip: ${state.view.timing}`);
      const entry = await play({ type: 'gm-skip', target: actor });
      const rolls = recordedRolls(entry.entry.events ?? []);
      if (rolls.some((r) => r.purpose.startsWith('turn-order:'))) ending = entry;
    }
    expect(ending).toBeDefined();
    const roll = recordedRolls(ending!.entry.events ?? []).find((r) => r.purpose === purpose);
    expect(roll).toMatchObject({ entered: true, dice: [c.face] });
    // The others' dice came from the server, as ever.
    const others = recordedRolls(ending!.entry.events ?? []).filter(
      (r) => r.purpose.startsWith('turn-order:') && r.purpose !== purpose,
    );
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((r) => r.entered === false)).toBe(true);
    expect(await running.store.heldRolls(encounterId)).toEqual([]);
    gm.close();
    player.close();
  });
});
