import { afterAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/store/index.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import { example, http, newTable, useServer } from './harness.js';

afterAll(stopFallbackPostgres);

interface Refusal {
  error: { code: string; message: string };
}
type Body = Record<string, unknown>;
type State = Record<string, JsonValue>;

/**
 * A table's library keeps what its roster's lasting state names: an item a character carries
 * or has equipped, a class, a spell in stock, rounds in a gun, a lasting status, the party's
 * level table. Before, the library let each go, and the roster named content that was gone:
 * the next fight was refused as a bad encounter file (`Max carries 'healing-seed', which the
 * content does not hold`), and the store would not buy it back (`Max has no 'healing-seed' to
 * sell`), so nothing but making the entry again let the character fight.
 */
describe.each(['sqlite', 'postgres'] as const)(
  "the library keeps what the roster's lasting state names (%s)",
  (kind) => {
    const running = useServer(kind);

    /** A GM at a new table of the system, the characters on its roster. */
    async function gmOf(system: string, characters: readonly string[]) {
      const { table, gmToken } = await newTable(running.store, system, characters);
      const entry = (path: string) =>
        `${running.url}/api/tables/${table.id}/content/${system}/${path}`;
      const call = <T = Body>(path: string, method: string, body?: unknown) =>
        http<T>(`${running.url}${path}`, gmToken, method, body);
      const gm = {
        token: gmToken,
        read: (path: string) => http<{ version: number; body: Body }>(entry(path), gmToken, 'GET'),
        put: async (path: string, body: Body) => {
          const put = await http(entry(path), gmToken, 'PUT', { body });
          expect(put.status, JSON.stringify(put.body)).toBe(200);
        },
        edit: async (path: string, change: (body: Body) => Body) => {
          const read = await gm.read(path);
          const put = await http(entry(path), gmToken, 'PUT', {
            body: change(read.body.body),
            expectedVersion: read.body.version,
          });
          expect(put.status, JSON.stringify(put.body)).toBe(200);
        },
        importPack: (files: readonly { name: string; text: string }[]) =>
          http(`${running.url}/api/tables/${table.id}/content/import`, gmToken, 'POST', { files }),
        remove: (path: string) => http<Refusal>(entry(path), gmToken, 'DELETE'),
        service: async (service: Body) => {
          const done = await call('/api/table/services', 'POST', service);
          expect(done.status, JSON.stringify(done.body)).toBe(200);
        },
        roster: async (): Promise<Record<string, State>> => {
          const read = await call<{ roster: { character: string; state: State }[] }>(
            '/api/table',
            'GET',
          );
          return Object.fromEntries(read.body.roster.map((r) => [r.character, r.state]));
        },
        campaign: () => call('/api/table/campaign', 'GET'),
        encounter: (file: string) => call('/api/table/encounters', 'POST', { file, seed: 's' }),
        /** The roster as a fight leaves it, written as a fight's rewards are. */
        afterAFight: async (change: (roster: Record<string, State>) => Record<string, State>) => {
          const rows = await running.store.getRoster(table.id);
          const before = rows.map((r) => ({ characterId: r.characterId, state: r.state }));
          const after = change(
            Object.fromEntries(before.map((r) => [r.characterId, r.state as State])),
          );
          const changed = await running.store.changeRoster(
            table.id,
            { kind: 'after-battle', report: ['A fight, stood in for.'], by: 'test', before },
            Object.entries(after).map(([characterId, state]) => ({ characterId, state })),
          );
          if (!changed.ok) throw new Error(changed.error.message);
        },
        /**
         * The delete is refused (409, `library/in-use`) with this message, and changes nothing:
         * the entry is still there at the version it had, the roster as it was.
         */
        refused: async (path: string, message: string) => {
          const roster = await gm.roster();
          const read = await gm.read(path);
          expect(read.status).toBe(200);
          const refused = await gm.remove(path);
          expect(refused.status).toBe(409);
          expect(refused.body.error).toEqual({ code: 'library/in-use', message });
          expect(await gm.read(path)).toEqual(read);
          expect(await gm.roster()).toEqual(roster);
        },
        /** The delete goes through: nothing names the entry any more. */
        deleted: async (path: string) => {
          const deleted = await gm.remove(path);
          expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
          expect((await gm.read(path)).status).toBe(404);
        },
      };
      return gm;
    }

    it('Shining Force: an item carried or equipped and the class, until sold', async () => {
      const gm = await gmOf('shining-force', ['max']);
      await gm.put('item/healing-seed', {
        name: 'Healing Seed',
        type: 'item',
        price: 5,
        consumable: true,
        use: { range: 'range-0-1', aim: 'ally', heal: 5 },
      });
      await gm.service({ type: 'sell', character: 'max', item: 'medical-herb' });
      await gm.service({ type: 'buy', character: 'max', item: 'healing-seed' });
      await gm.refused(
        'item/healing-seed',
        "item 'healing-seed' is used by the roster's character 'max' (carried): change those first",
      );
      // Max's sheet names another weapon and class now: only his lasting state names these.
      await gm.edit('character/max', (body) => ({
        ...body,
        weapon: 'steel-sword',
        class: 'knight',
      }));
      await gm.refused(
        'item/short-sword',
        "item 'short-sword' is used by the roster's character 'max' (equipped): change those first",
      );
      await gm.refused(
        'class/swordsman',
        "class 'swordsman' is used by the roster's character 'max' (class): change those first",
      );
      // A pack adds and replaces entries, and never removes one: what the roster holds stays.
      const healingSeed = [
        'format: 1',
        'kind: shining-force/item',
        'id: healing-seed',
        'name: Healing Seed',
        'type: item',
        'price: 8',
        'consumable: true',
        'use: { range: range-0-1, aim: ally, heal: 8 }',
      ].join('\n');
      expect(await gm.importPack([{ name: 'items/healing-seed.yaml', text: healingSeed }])).toEqual(
        { status: 200, body: { added: 0, changed: 1, unchanged: 0 } },
      );
      expect((await gm.campaign()).status).toBe(200);

      await gm.service({ type: 'sell', character: 'max', item: 'healing-seed' });
      await gm.deleted('item/healing-seed');
      // Undoing the sale would hand Max an item the library no longer holds: refused, nothing
      // changed, until the item is in the library again.
      const before = await gm.roster();
      const undo = await http<Refusal>(
        `${running.url}/api/table/campaign-log/undo`,
        gm.token,
        'POST',
        {},
      );
      expect(undo.status).toBe(409);
      expect(undo.body.error).toMatchObject({ code: 'campaign/undo-missing-content' });
      expect(undo.body.error.message).toContain("item 'healing-seed', held by 'max' (carried)");
      expect(await gm.roster()).toEqual(before);
      expect((await gm.encounter(example('shining-force-gate'))).status).toBe(201);
      await gm.service({ type: 'sell', character: 'max', item: 'short-sword' });
      await gm.deleted('item/short-sword');
      expect((await gm.roster()).max?.items).toEqual([]);
    });

    it("FFVIII: an item left, a spell in stock, a gun's rounds; a spent item names nothing", async () => {
      const gm = await gmOf('ffviii', ['ehlric']);
      // The GM keeps Ehlric's Potions on the roster now, not on his sheet.
      await gm.edit('character/ehlric', (body) => ({ ...body, items: {} }));
      await gm.refused(
        'item/potion',
        "item 'potion' is used by the roster's character 'ehlric' (items): change those first",
      );
      await gm.afterAFight((roster) => ({
        ...roster,
        ehlric: {
          ...roster.ehlric!,
          hp: 5,
          spellMatrix: { thunder: 3, cure: 2, fire: 1 },
          ammo: { revolver: 0 },
        },
      }));
      await gm.refused(
        'spell/fire',
        "spell 'fire' is used by the roster's character 'ehlric' (Spell Matrix): change those first",
      );
      await gm.refused(
        'weapon/revolver',
        "weapon 'revolver' is used by the roster's character 'ehlric' (rounds in its gun): change those first",
      );

      await gm.service({ type: 'use-item', character: 'ehlric', item: 'potion' });
      await gm.service({ type: 'use-item', character: 'ehlric', item: 'potion' });
      expect((await gm.roster()).ehlric?.items).toEqual({ potion: 0 });
      await gm.deleted('item/potion');
      // The spent Potion does not keep the next fight from starting, nor the campaign page.
      expect((await gm.encounter(example('ffviii-iron-giant'))).status).toBe(201);
      expect((await gm.campaign()).status).toBe(200);
    });

    it('ZODIAC: an item left in the pack, until used up', async () => {
      const gm = await gmOf('zodiac', ['merlin']);
      await gm.edit('character/merlin', (body) => ({ ...body, items: { 'phoenix-down': 1 } }));
      await gm.refused(
        'item/ether',
        "item 'ether' is used by the roster's character 'merlin' (items): change those first",
      );
      await gm.afterAFight((roster) => ({ ...roster, merlin: { ...roster.merlin!, mp: 0 } }));
      await gm.service({ type: 'use-item', character: 'merlin', item: 'ether', target: 'merlin' });
      await gm.deleted('item/ether');
      const file = example('zodiac-keef-and-the-ogre').replace(
        'character: keef',
        'character: merlin',
      );
      expect((await gm.encounter(file)).status).toBe(201);
    });

    it("FFRPG: a lasting Status Condition, until treated, and the party's level table", async () => {
      const gm = await gmOf('ffrpg', ['hiro']);
      await gm.afterAFight((roster) => ({
        ...roster,
        hiro: { ...roster.hiro!, statuses: ['poison'] },
        '@party': { ...roster['@party']!, levelTable: 'standard' },
      }));
      await gm.refused(
        'status/poison',
        "status 'poison' is used by the roster's character 'hiro' (lasting status): change those first",
      );
      await gm.refused(
        'level-table/standard',
        "level table 'standard' is used by the roster's party (level table): change those first",
      );
      await gm.service({ type: 'rest' });
      await gm.deleted('status/poison');
      expect((await gm.encounter(example('ffrpg-wind-cave'))).status).toBe(201);
      await gm.afterAFight((roster) => ({
        ...roster,
        '@party': { ...roster['@party']!, levelTable: null },
      }));
      await gm.deleted('level-table/standard');
    });
  },
);
