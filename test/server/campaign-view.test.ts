import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ContentLibrary, type LibraryEntry, loadContent } from '../../src/content/index.js';
import type { JsonValue } from '../../src/rulesets/campaign.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import type { AnySystem } from '../../src/rulesets/system.js';
import {
  type CampaignCharacter,
  describeCharacter,
  describeRoster,
} from '../../src/server/campaign-view.js';
import { ROOT } from './harness.js';

/**
 * The campaign page's progress lines, worked out by the view itself: FFRPG's XP to the next
 * Level off the campaign's level table, and where a Shining Force class stands on promotion.
 * The FFRPG table's figures are read from its content file (the Playguide gives no table, only
 * Levels 1 to 99); Shining Force's levels are the rule text's.
 */

function systemOf(id: string): AnySystem {
  const system = SYSTEMS.find((s) => s.ruleset.id === id);
  if (system === undefined) throw new Error(`no system ${id}`);
  return system;
}

function starter(id: string): ContentLibrary {
  const loaded = loadContent([`${ROOT}content/${id}`], systemOf(id).kinds);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.library;
}

/** The library with more entries (a second level table, a class of the GM's). */
function withEntries(library: ContentLibrary, ...more: Record<string, unknown>[]): ContentLibrary {
  const json = library.toJSON();
  const added = more.map(
    (entity) => ({ file: `${String(entity.id)}.yaml`, entity }) as unknown as LibraryEntry,
  );
  return new ContentLibrary(json.kinds, [...json.entries, ...added]);
}

function line(c: CampaignCharacter, label: string): string | undefined {
  return c.lines.find((l) => l.label === label)?.value;
}

const ffrpg = systemOf('ffrpg');
const ffrpgLibrary = starter('ffrpg');
const standard = (
  parse(readFileSync(`${ROOT}content/ffrpg/level-tables/standard.yaml`, 'utf8')) as {
    levels: { level: number; xp: number }[];
  }
).levels;
const threshold = (level: number) => standard.find((r) => r.level === level)!.xp;

function hiro(level: number, xp: number): JsonValue {
  return { level, xp, gil: 0, hp: 10, mp: 5, statuses: [] };
}

const PARTY = { gil: 0, items: {}, levelTable: 'standard', hpAfterBattle: 'carried' };

describe("FFRPG: XP to the next Level, off the campaign's level table", () => {
  it('"new FFRPG characters begin the game at Level 1": with 0 XP, the whole of Level 2\'s threshold to go', () => {
    const c = describeCharacter(ffrpg, ffrpgLibrary, 'hiro', hiro(1, 0), PARTY);
    expect(line(c, 'XP')).toBe('0');
    expect(line(c, 'XP to the next Level')).toBe(`${threshold(2)} (Level 2 at ${threshold(2)} XP)`);
  });

  it('part of the way: the threshold less the XP the character has', () => {
    const xp = threshold(2) + 20;
    const c = describeCharacter(ffrpg, ffrpgLibrary, 'hiro', hiro(2, xp), PARTY);
    expect(line(c, 'XP to the next Level')).toBe(
      `${threshold(3) - xp} (Level 3 at ${threshold(3)} XP)`,
    );
  });

  it('"can advance up to Level 99": at Level 99 there is no next Level, and the page says so', () => {
    const c = describeCharacter(ffrpg, ffrpgLibrary, 'hiro', hiro(99, threshold(99)), PARTY);
    expect(line(c, 'XP to the next Level')).toBe('none: Level 99 is the highest');
  });

  it('a table that stops short: its last Level is the top, said so', () => {
    const short = withEntries(ffrpgLibrary, {
      format: 1,
      kind: 'ffrpg/level-table',
      id: 'short',
      levels: [
        { level: 1, xp: 0 },
        { level: 2, xp: 100 },
        { level: 3, xp: 300 },
      ],
    });
    const party = { ...PARTY, levelTable: 'short' };
    const at2 = describeCharacter(ffrpg, short, 'hiro', hiro(2, 150), party);
    expect(line(at2, 'XP to the next Level')).toBe('150 (Level 3 at 300 XP)');
    const at3 = describeCharacter(ffrpg, short, 'hiro', hiro(3, 400), party);
    expect(line(at3, 'XP to the next Level')).toBe('none: the level table ends at Level 3');
  });

  it("a party that names no table reads the library's only one; with two, it says none is named", () => {
    const party = { ...PARTY, levelTable: null };
    const only = describeCharacter(ffrpg, ffrpgLibrary, 'hiro', hiro(1, 100), party);
    expect(line(only, 'XP to the next Level')).toBe(
      `${threshold(2) - 100} (Level 2 at ${threshold(2)} XP)`,
    );
    const two = withEntries(ffrpgLibrary, {
      format: 1,
      kind: 'ffrpg/level-table',
      id: 'fast',
      levels: [
        { level: 1, xp: 0 },
        { level: 2, xp: 50 },
      ],
    });
    const none = describeCharacter(ffrpg, two, 'hiro', hiro(1, 100), party);
    expect(line(none, 'XP to the next Level')).toBe('the party names no level table');
    // Named, the named one counts, whichever others the library holds.
    const named = describeCharacter(ffrpg, two, 'hiro', hiro(1, 10), {
      ...PARTY,
      levelTable: 'fast',
    });
    expect(line(named, 'XP to the next Level')).toBe('40 (Level 2 at 50 XP)');
    const missing = describeCharacter(ffrpg, two, 'hiro', hiro(1, 10), {
      ...PARTY,
      levelTable: 'gone',
    });
    expect(line(missing, 'XP to the next Level')).toBe(
      "the party's level table 'gone' is not in the library",
    );
  });

  it("the roster's view passes the party, so every character reads the party's table", () => {
    const roster = {
      characters: { hiro: hiro(1, 0), haze: hiro(2, threshold(2)) },
      party: PARTY,
    };
    const [h, z] = describeRoster(ffrpg, ffrpgLibrary, roster);
    expect(line(h!, 'XP to the next Level')).toBe(
      `${threshold(2)} (Level 2 at ${threshold(2)} XP)`,
    );
    expect(line(z!, 'XP to the next Level')).toBe(
      `${threshold(3) - threshold(2)} (Level 3 at ${threshold(3)} XP)`,
    );
  });
});

const sf = systemOf('shining-force');
const sfLibrary = starter('shining-force');

function member(cls: string, level: number, exp = 0): JsonValue {
  return {
    class: cls,
    level,
    exp,
    gains: { hp: 0, mp: 0, attack: 0, defence: 0, agility: 0 },
    items: [],
    poison: null,
    defeated: false,
  };
}

describe('Shining Force: promotion in words, EXP to the next level', () => {
  const promotion = (cls: string, level: number, library = sfLibrary) =>
    line(describeCharacter(sf, library, 'tao', member(cls, level)), 'Promotion');

  it('"In the first class tier, promotion becomes available at level 10": a Mage at 9 is told when, at 10 that the priest may promote', () => {
    expect(promotion('mage', 9)).toBe('to Wizard at the priest from level 10');
    expect(promotion('mage', 10)).toBe('may be promoted at the priest, to Wizard (free)');
    expect(promotion('mage', 20)).toBe('may be promoted at the priest, to Wizard (free)');
  });

  it('a second-tier class reads "promoted"', () => {
    expect(promotion('wizard', 1)).toBe('promoted');
    expect(promotion('hero', 15)).toBe('promoted');
  });

  it('"In the second class tier, promotion becomes available at level 20": a second tier that promotes again', () => {
    const library = withEntries(
      sfLibrary,
      {
        format: 1,
        kind: 'shining-force/class',
        id: 'archmage',
        name: 'Archmage',
        tier: 3,
        gains: { hp: 'd2', mp: 'd2', attack: 'd2', defence: 'd2', agility: 'd2' },
      },
      {
        format: 1,
        kind: 'shining-force/class',
        id: 'sage',
        name: 'Sage',
        tier: 2,
        promotesTo: 'archmage',
        gains: { hp: 'd2', mp: 'd2', attack: 'd2', defence: 'd2', agility: 'd2' },
      },
      {
        format: 1,
        kind: 'shining-force/class',
        id: 'monk',
        name: 'Monk',
        tier: 1,
        gains: { hp: 'd2', mp: 'd2', attack: 'd2', defence: 'd2', agility: 'd2' },
      },
    );
    expect(promotion('sage', 19, library)).toBe(
      'promoted; to Archmage at the priest from level 20',
    );
    expect(promotion('sage', 20, library)).toBe(
      'promoted; may be promoted at the priest, to Archmage (free)',
    );
    expect(promotion('monk', 12, library)).toBe('none: Monk has no class to promote to');
  });

  it('"Upon reaching 100 experience points": EXP to the next level, until "the maximum level is level 20"', () => {
    const exp = (cls: string, level: number, points: number) =>
      line(describeCharacter(sf, sfLibrary, 'tao', member(cls, level, points)), 'EXP');
    expect(exp('mage', 5, 30)).toBe('30 (70 to the next level)');
    expect(exp('mage', 20, 99)).toBe("99 (level 20 is the class's highest)");
    expect(exp('wizard', 20, 40)).toBe('40 (60 to the next level)');
  });
});

describe("what a character holds, by the library's names", () => {
  it('FFVIII: Spell Matrix, items and rounds named, and what is used up not listed', () => {
    const ffviii = systemOf('ffviii');
    const library = starter('ffviii');
    const ehlric = describeCharacter(ffviii, library, 'ehlric', {
      hp: 30,
      spellMatrix: { fire: 3, cure: 0 },
      items: { potion: 2, 'bomb-fragment': 0 },
      ammo: { shotgun: 4 },
      statuses: [],
    });
    expect(line(ehlric, 'Spell Matrix')).toBe('Fire × 3');
    expect(ehlric.items).toEqual(['Potion × 2']);
    expect(line(ehlric, 'Ammunition')).toBe('Shotgun: 4 rounds');
  });
});
