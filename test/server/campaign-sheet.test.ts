import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { http, newTable, ROOT, useServer } from './harness.js';

/**
 * The campaign page's character sheet over HTTP (docs/campaign.md, "The campaign page"): each
 * system's starter characters show their content entry's statistics and abilities, a player's
 * answer holds their own and no other character's, and lasting state that changes a sheet
 * (Shining Force's level gains) shows. Expected values are read from the content YAML.
 */

interface Line {
  readonly label: string;
  readonly value: string;
}
interface Sheet {
  readonly id: string;
  readonly name: string;
  readonly lines: Line[];
  readonly stats: Line[];
  readonly abilities: Line[];
}
type Yaml = Record<string, unknown> & { name: string };

function content(system: string, kind: string, id: string): Yaml {
  return parse(readFileSync(`${ROOT}content/${system}/${kind}/${id}.yaml`, 'utf8')) as Yaml;
}

function starters(system: string): string[] {
  return readdirSync(`${ROOT}content/${system}/characters`)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace(/\.yaml$/, ''))
    .sort();
}

function stat(sheet: Sheet, label: string): string | undefined {
  return sheet.stats.find((l) => l.label === label)?.value;
}

/** The rule texts' words for each system's figures, by the content's field. */
const LABELS: Record<string, Record<string, string>> = {
  ffrpg: { STR: 'STR', VIT: 'VIT', AGI: 'AGI', SPD: 'SPD', MAG: 'MAG', SPR: 'SPR' },
  ffrpgStats: {
    acc: 'ACC',
    macc: 'M. ACC',
    eva: 'EVA',
    meva: 'M. EVA',
    arm: 'ARM',
    marm: 'M. ARM',
  },
  ffviii: {
    speed: 'Speed',
    strength: 'Strength',
    reflexes: 'Reflexes',
    evade: 'Evade',
    willpower: 'Willpower',
    magic: 'Magic',
    perception: 'Perception',
    toughness: 'Toughness',
    spirit: 'Spirit',
    magicEvade: 'Magic Evade',
  },
  zodiac: {
    speed: 'Speed',
    accuracy: 'Accuracy',
    evade: 'Evade',
    critical: 'Critical',
    attackPower: 'Attack Power',
    strengthDice: 'Strength Dice',
    magicAccuracy: 'Magic Accuracy',
    resist: 'Resist',
    magicDice: 'Magic Dice',
    map: 'MAP',
  },
  'shining-force': {
    hp: 'HP',
    mp: 'MP',
    attack: 'Attack',
    defence: 'Defence',
    agility: 'Agility',
    luck: 'Luck',
    movement: 'Movement',
  },
};

/** What each system's sheet must show of a starter character: stats by label, abilities' names. */
function expected(system: string, id: string): { stats: Line[]; abilities: string[] } {
  const c = content(system, 'characters', id);
  const figures = (record: unknown, labels: Record<string, string>): Line[] =>
    Object.entries(record as Record<string, number>)
      .filter(([k]) => k !== 'hp' || system === 'shining-force')
      .filter(([k]) => k !== 'mp' || system === 'shining-force')
      .map(([k, v]) => ({ label: labels[k] ?? `unlabelled ${k}`, value: String(v) }));
  switch (system) {
    case 'ffrpg':
      return {
        stats: [
          { label: 'Job', value: content(system, 'jobs', c.job as string).name },
          ...figures(c.attributes, LABELS.ffrpg!),
          ...figures(c.stats, LABELS.ffrpgStats!),
          ...Object.entries(c.skills as Record<string, number>).map(([k, v]) => ({
            label: k,
            value: String(v),
          })),
        ],
        abilities: ((c.abilities as string[] | undefined) ?? []).map(
          (a) => content(system, 'abilities', a).name,
        ),
      };
    case 'ffviii':
      return {
        stats: figures(c.attributes, LABELS.ffviii!),
        abilities: [
          ...(c.guardianForces as { gf: string }[]).map(
            (g) => content(system, 'guardian-forces', g.gf).name,
          ),
          ...(c.powers as string[]).map((p) => content(system, 'powers', p).name),
          ...Object.keys(c.spellMatrix as object).map((s) => content(system, 'spells', s).name),
        ],
      };
    case 'zodiac':
      return {
        stats: figures(c.stats, LABELS.zodiac!),
        abilities: (c.techs as string[]).map((t) => content(system, 'techs', t).name),
      };
    default:
      return {
        stats: figures(c.stats, LABELS['shining-force']!),
        abilities: ((c.spells as string[] | undefined) ?? []).map(
          (s) => content(system, 'spells', s).name,
        ),
      };
  }
}

describe('the campaign sheet: statistics and abilities', () => {
  const running = useServer('sqlite');

  async function gmSheets(gmToken: string): Promise<Sheet[]> {
    const answer = await http<{ characters: Sheet[] }>(
      `${running.url}/api/table/campaign`,
      gmToken,
      'GET',
    );
    expect(answer.status).toBe(200);
    return answer.body.characters;
  }

  it.each(['ffrpg', 'ffviii', 'zodiac', 'shining-force'])(
    '%s: every starter character shows its entry, to the GM and to its own player only',
    async (system) => {
      const ids = starters(system);
      const { gmToken } = await newTable(running.store, system, ids);
      const sheets = await gmSheets(gmToken);
      expect(sheets.map((s) => s.id).sort()).toEqual(ids);
      for (const id of ids) {
        const sheet = sheets.find((s) => s.id === id)!;
        const want = expected(system, id);
        for (const line of want.stats)
          expect(sheet.stats, `${id} ${line.label}`).toContainEqual(line);
        expect(sheet.abilities.map((a) => a.label)).toEqual(want.abilities);
        for (const a of sheet.abilities) expect(a.value).not.toBe('');
      }

      for (const id of ids) {
        const invite = await http<{ token: string }>(
          `${running.url}/api/table/invites`,
          gmToken,
          'POST',
          { role: 'player', character: id },
        );
        expect(invite.status).toBe(201);
        const player = await http<{ sheet: Sheet; party: Record<string, unknown>[] }>(
          `${running.url}/api/table/campaign`,
          invite.body.token,
          'GET',
        );
        expect(player.status).toBe(200);
        expect(player.body.sheet).toEqual(sheets.find((s) => s.id === id));
        for (const member of player.body.party)
          expect(Object.keys(member).sort()).toEqual(['down', 'id', 'name']);
        // No other character's ability, nor a statistic line, reaches this player.
        const sent = JSON.stringify(player.body);
        const own = new Set(player.body.sheet.abilities.map((a) => a.value));
        for (const other of sheets.filter((s) => s.id !== id))
          for (const a of other.abilities)
            if (!own.has(a.value)) expect(sent).not.toContain(JSON.stringify(a.value));
        expect(sent.match(/"stats"/g)).toHaveLength(1);
      }
    },
  );

  it('Shining Force: the levels gained and a promotion show on the sheet', async () => {
    const { table, gmToken } = await newTable(running.store, 'shining-force', ['tao']);
    const tao = content('shining-force', 'characters', 'tao');
    const base = tao.stats as Record<string, number>;
    const before = (await running.store.getRoster(table.id)).find((r) => r.characterId === 'tao');
    const state = before!.state as Record<string, unknown>;
    const put = await running.store.putRosterEntry(table.id, 'tao', {
      ...state,
      class: 'wizard',
      level: 3,
      gains: { hp: 4, mp: 5, attack: 1, defence: 2, agility: 0 },
    });
    expect(put.ok).toBe(true);
    const sheet = (await gmSheets(gmToken)).find((s) => s.id === 'tao')!;
    expect(sheet.lines).toContainEqual({ label: 'Level', value: '3' });
    expect(sheet.lines).toContainEqual({
      label: 'Class',
      value: content('shining-force', 'classes', 'wizard').name,
    });
    expect(stat(sheet, 'HP')).toBe(String(base.hp! + 4));
    expect(stat(sheet, 'MP')).toBe(String(base.mp! + 5));
    expect(stat(sheet, 'Attack')).toBe(String(base.attack! + 1));
    expect(stat(sheet, 'Defence')).toBe(String(base.defence! + 2));
    expect(stat(sheet, 'Agility')).toBe(String(base.agility));
    expect(stat(sheet, 'Weapon')).toContain(
      content('shining-force', 'items', tao.weapon as string).name,
    );
  });

  it('FFVIII: the Spell Matrix as the roster holds it', async () => {
    const { table, gmToken } = await newTable(running.store, 'ffviii', ['ehlric']);
    const before = (await running.store.getRoster(table.id)).find(
      (r) => r.characterId === 'ehlric',
    );
    const state = before!.state as Record<string, unknown>;
    await running.store.putRosterEntry(table.id, 'ehlric', {
      ...state,
      spellMatrix: { thunder: 5 },
    });
    const sheet = (await gmSheets(gmToken)).find((s) => s.id === 'ehlric')!;
    const thunder = content('ffviii', 'spells', 'thunder').name;
    const cure = content('ffviii', 'spells', 'cure').name;
    expect(sheet.abilities.find((a) => a.label === thunder)?.value).toMatch(/5 in stock/);
    expect(sheet.abilities.map((a) => a.label)).not.toContain(cure);
  });
});
