import { afterAll, describe, expect, it } from 'vitest';
import type { StatePayload } from '../../src/server/protocol.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
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

type Entry = Extract<Heard, { type: 'entry' }>;
type Combatant = StatePayload['view']['combatants'][number];
type Roster = Record<string, Record<string, unknown>>;

interface Fight {
  readonly start: StatePayload;
  readonly end: StatePayload;
}

/**
 * Each system's example, its party, and what its text says lasts between fights: checked on
 * the roster the server wrote and on the second fight's first state.
 */
const SYSTEMS: readonly {
  readonly system: string;
  readonly example: string;
  readonly party: readonly string[];
  readonly check: (before: Roster, after: Roster, first: Fight, second: StatePayload) => void;
}[] = [
  {
    system: 'ffrpg',
    example: 'ffrpg-wind-cave',
    party: ['hiro', 'haze', 'mint'],
    check(before, after, first, second) {
      // The Heket's XP shared among the party; HP carried over (the default `hpAfterBattle`).
      for (const id of ['hiro', 'haze', 'mint']) {
        const end = byId(first.end, id);
        expect(after[id]!.hp).toBe(end.hp);
        expect(byId(second, id).hp).toBe(end.hp);
        if (!end.out) expect(after[id]!.xp as number).toBeGreaterThan(before[id]!.xp as number);
      }
    },
  },
  {
    system: 'ffviii',
    example: 'ffviii-iron-giant',
    party: ['ehlric'],
    check(_before, after, first, second) {
      const end = byId(first.end, 'ehlric');
      expect(after.ehlric?.hp).toBe(end.hp);
      expect(byId(second, 'ehlric').hp).toBe(end.hp);
      expect(end.hp).toBeLessThan(byId(first.start, 'ehlric').hp!);
    },
  },
  {
    system: 'zodiac',
    example: 'zodiac-keef-and-the-ogre',
    party: ['keef'],
    check(_before, after, first, second) {
      // HP and MP carry over: "the combat chapter restores nothing".
      const end = byId(first.end, 'keef');
      expect(after.keef?.hp).toBe(end.hp);
      expect(byId(second, 'keef').hp).toBe(end.hp);
      expect(byId(second, 'keef').hp).toBeLessThan(byId(first.start, 'keef').hp!);
    },
  },
  {
    system: 'shining-force',
    example: 'shining-force-gate',
    party: ['max', 'ken', 'hans', 'tao', 'lowe'],
    check(before, after, first, second) {
      // The defeated monsters' gold to the Force; HP restored after every battle; the stats
      // of any level gained (EXP goes to whoever lands a blow, so a GM's override gives none).
      expect((after['@party'] as { gold: number }).gold).toBeGreaterThan(0);
      for (const id of ['max', 'ken', 'hans', 'tao', 'lowe']) {
        const grew =
          ((after[id]!.gains as { hp: number }).hp ?? 0) -
          ((before[id]!.gains as { hp: number }).hp ?? 0);
        expect(byId(second, id).maxHp).toBe(byId(first.start, id).maxHp! + grew);
        expect(byId(second, id).hp).toBe(byId(second, id).maxHp);
      }
    },
  },
];

function byId(state: StatePayload, id: string): Combatant {
  const found = state.view.combatants.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no ${id} in ${state.view.combatants.map((c) => c.id)}`);
  return found;
}

async function rosterOf(url: string, token: string): Promise<Roster> {
  const table = await http<{ roster: { character: string; state: Record<string, unknown> }[] }>(
    `${url}/api/table`,
    token,
    'GET',
  );
  return Object.fromEntries(table.body.roster.map((r) => [r.character, r.state]));
}

/**
 * A short fight as a GM runs one: a few real actions, a party member hurt by the GM, then the
 * GM drops the enemies (a GM override, logged like any command) so the party wins.
 */
async function playToVictory(
  gm: Client,
  start: StatePayload,
  party: readonly string[],
): Promise<StatePayload> {
  let state = start;
  const submit = async (action: Parameters<Client['submit']>[2]): Promise<void> => {
    const answer = await gm.submit(state.seq + 1, `k${state.seq + 1}`, action);
    if (answer.type !== 'accepted') throw new Error(JSON.stringify(answer));
    state = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === answer.seq);
  };
  for (let i = 0; i < 4 && !state.outcome.over; i++) {
    const action = state.actions.find((a) => a.command.type === 'attack') ?? state.actions[0];
    if (action === undefined) break;
    await submit({ kind: 'command', command: action.command });
  }
  if (!state.outcome.over) await submit({ kind: 'gm', line: `hp ${party[0]} -5` });
  for (const c of state.view.combatants) {
    if (!party.includes(c.id) && !c.out && !state.outcome.over) {
      await submit({ kind: 'gm', line: `hp ${c.id} 0` });
    }
  }
  // FFRPG's countdown notices the fallen when it next moves.
  for (let i = 0; i < 10 && !state.outcome.over && state.actions[0]; i++) {
    await submit({ kind: 'command', command: state.actions[0].command });
  }
  expect(state.outcome).toMatchObject({ over: true });
  return state;
}

describe('a roster carried across two fights through the table server', () => {
  const running = useServer('sqlite');

  it.each(SYSTEMS)('$system: the second fight starts from what the first left', async (spec) => {
    const { gmToken } = await newTable(running.store, spec.system, spec.party);
    const before = await rosterOf(running.url, gmToken);
    expect(Object.keys(before).sort()).toEqual(['@party', ...spec.party].sort());

    const first = await startEncounterOver(running.url, gmToken, example(spec.example), 'one');
    const { client: gm, state: start } = await Client.join(running.url, first, gmToken);
    const notOver = await http(`${running.url}/api/encounters/${first}/finish`, gmToken, 'POST');
    expect(notOver.status).toBe(409);
    const end = await playToVictory(gm, start, spec.party);
    const finished = await http<{ status: string; report: string[] }>(
      `${running.url}/api/encounters/${first}/finish`,
      gmToken,
      'POST',
    );
    expect(finished.status).toBe(200);
    expect(finished.body.report.length).toBeGreaterThan(0);
    const closed = await gm.next('changed');
    expect(closed.status).toBe('finished');
    // Applied once: finishing again, or playing on, is refused.
    expect(
      (await http(`${running.url}/api/encounters/${first}/finish`, gmToken, 'POST')).status,
    ).toBe(409);
    const late = await gm.submit(end.seq + 1, 'late', { kind: 'undo', steps: 1 });
    expect(late).toMatchObject({ type: 'refused', code: 'encounter/closed' });
    gm.close();

    const after = await rosterOf(running.url, gmToken);

    expect(after).not.toEqual(before);
    const second = await startEncounterOver(running.url, gmToken, example(spec.example), 'two');
    const { client: gm2, state: next } = await Client.join(running.url, second, gmToken);
    spec.check(before, after, { start, end }, next);
    gm2.close();
  });

  it('applies a service between fights to the roster, and refuses one the rules refuse', async () => {
    const { gmToken } = await newTable(running.store, 'zodiac', ['keef']);
    const first = await startEncounterOver(
      running.url,
      gmToken,
      example('zodiac-keef-and-the-ogre'),
    );
    const { client: gm, state } = await Client.join(running.url, first, gmToken);
    await playToVictory(gm, state, ['keef']);
    gm.close();
    await http(`${running.url}/api/encounters/${first}/finish`, gmToken, 'POST');
    const hurt = (await rosterOf(running.url, gmToken)).keef!.hp as number;
    expect(hurt).toBeLessThan(420);
    const rested = await http<{ report: string[] }>(
      `${running.url}/api/table/services`,
      gmToken,
      'POST',
      {
        type: 'rest',
      },
    );
    expect(rested.status).toBe(200);
    expect((await rosterOf(running.url, gmToken)).keef!.hp).toBe(420);
    const again = await http(`${running.url}/api/table/services`, gmToken, 'POST', {
      type: 'rest',
    });
    expect(again.status).toBe(400);
    const unknown = await http(`${running.url}/api/table/services`, gmToken, 'POST', {
      type: 'nap',
    });
    expect(unknown.status).toBe(400);
    const { table } = await newTable(running.store, 'zodiac');
    const asPlayer = await running.store.createToken(table.id, { role: 'spectator' });
    const forbidden = await http(
      `${running.url}/api/table/services`,
      asPlayer.ok ? asPlayer.value.token : '',
      'POST',
      { type: 'rest' },
    );
    expect(forbidden.status).toBe(403);
  });
});
