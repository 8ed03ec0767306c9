import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invite } from '../../src/server/tables.js';
import { duelEncounter } from '../../web/src/library/duel.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { http, newTable, type Running, startServer, type TableFixture } from './harness.js';

afterAll(stopFallbackPostgres);

interface Preview {
  numbers: { label: string; value: string }[];
  odds: string[];
}
interface Refusal {
  error: { code: string; message: string; issues?: { file: string; path: unknown[] }[] };
}

/**
 * The Library form's preview over real sockets: a draft character the table's library does not
 * hold yet, played against a foe from it; nothing saved, the GM's alone, refusals at the field.
 */
describe.each(['sqlite', 'postgres'] as const)('previewing a draft over HTTP (%s)', (store) => {
  let running: Running;
  let fixture: TableFixture;
  let player: string;
  const url = () => `${running.url}/api/tables/${fixture.table.id}/content`;
  const duel = duelEncounter(
    'ffrpg',
    { sheet: 'character', id: 'new-knight', name: 'New Knight' },
    { sheet: 'monster', id: 'heket', name: 'Heket' },
  );
  const draft = {
    name: 'New Knight',
    attributes: { STR: 12, VIT: 10, AGI: 8, SPD: 8, MAG: 4, SPR: 4 },
    skills: { Swords: 40 },
    stats: { hp: 123, acc: 70 },
    weapon: 'broadsword',
  };

  beforeAll(async () => {
    running = await startServer(store);
    fixture = await newTable(running.store, 'ffrpg', ['hiro']);
    const made = await invite(running.store, fixture.table, {
      role: 'player',
      characterId: 'hiro',
    });
    if (!made.ok) throw new Error(made.error.message);
    player = made.value.token;
  });
  afterAll(async () => {
    await running.stop();
    await running.location.dispose();
  });

  it('shows what the rules make of the draft, its weapon read from the library, and saves nothing', async () => {
    const got = await http<Preview>(`${url()}/preview`, fixture.gmToken, 'POST', {
      kind: 'ffrpg/character',
      id: 'new-knight',
      body: draft,
      encounter: duel,
    });
    expect(got.status).toBe(200);
    expect(got.body.numbers).toContainEqual({ label: 'Max HP', value: '123' });
    expect(got.body.odds.some((line) => /Broadsword/.test(line) && /Heket/.test(line))).toBe(true);
    const listed = await http<{ entries: { id: string }[] }>(url(), fixture.gmToken, 'GET');
    expect(listed.body.entries.some((e) => e.id === 'new-knight')).toBe(false);
  });

  it('names the missing weapon, and a wrong field at its path', async () => {
    const missing = await http<Refusal>(`${url()}/preview`, fixture.gmToken, 'POST', {
      kind: 'ffrpg/character',
      id: 'new-knight',
      body: { ...draft, weapon: 'masamune' },
      encounter: duel,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/masamune/);
    const wrong = await http<Refusal>(`${url()}/preview`, fixture.gmToken, 'POST', {
      kind: 'ffrpg/character',
      id: 'new-knight',
      body: { ...draft, stats: { hp: -5 } },
      encounter: duel,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.issues?.map((i) => i.path)).toContainEqual(['stats', 'hp']);
  });

  it("is the GM's: a player's link is refused, and a crowd is not a duel", async () => {
    const asPlayer = await http<Refusal>(`${url()}/preview`, player, 'POST', {
      kind: 'ffrpg/character',
      id: 'new-knight',
      body: draft,
      encounter: duel,
    });
    expect(asPlayer.status).toBe(403);
    const sides = (duel as { sides: { combatants: unknown[] }[] }).sides;
    const crowd = {
      ...duel,
      sides: [
        sides[0],
        {
          ...sides[1],
          combatants: [{ monster: 'heket' }, { monster: 'heket', id: 'heket-2', name: 'Heket 2' }],
        },
      ],
    };
    const refused = await http<Refusal>(`${url()}/preview`, fixture.gmToken, 'POST', {
      kind: 'ffrpg/character',
      id: 'new-knight',
      body: draft,
      encounter: crowd,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/at most 2 combatants/);
  });
});
