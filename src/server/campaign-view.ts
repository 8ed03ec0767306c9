import type { z } from 'zod';
import type { ContentLibrary } from '../content/index.js';
import type { CampaignRoster, JsonValue } from '../rulesets/campaign.js';
import {
  DEFAULT_MAX_LEVEL,
  EXP_PER_LEVEL,
  FIRST_TIER_MAX_LEVEL,
  FIRST_TIER_PROMOTION,
  SECOND_TIER_PROMOTION,
} from '../rulesets/shining-force/campaign/levels.js';
import type { AnySystem } from '../rulesets/system.js';
import type { CampaignLogRecord, EncounterRecord } from '../store/index.js';

/**
 * The campaign page's answer (`GET /api/table/campaign`): each character's lasting state in its
 * system's words, the services the system offers as forms, and the history of fights. Worked
 * out here, on the server, so the browser bundle carries no ruleset code; a player's answer
 * holds their own character in full and only names and standing for the rest of the party.
 */

export interface SheetLine {
  readonly label: string;
  readonly value: string;
}

export interface CampaignCharacter {
  readonly id: string;
  readonly name: string;
  /** Level and progress, money, HP/MP, what lasts: as the system's text names them. */
  readonly lines: readonly SheetLine[];
  /**
   * The character's statistics from its sheet, changed where the lasting state changes them
   * (Shining Force's level gains): attributes, Job, weapon, Skills.
   */
  readonly stats: readonly SheetLine[];
  /** Abilities, spells, Techs, GFs and Powers: each one's name and what the content says of it. */
  readonly abilities: readonly SheetLine[];
  /** What the system calls them: `Abilities`, `Junctions, Powers and Spells`, `Techs`, `Spells`. */
  readonly abilitiesHeading: string;
  /** What the character carries, one line an item. */
  readonly items: readonly string[];
  /** Knocked out, defeated, unconscious or dead: must be raised, rested or healed. */
  readonly down: boolean;
}

/** A member of the party as another player sees them: no figures, no stats, no abilities. */
export interface PartyMember {
  readonly id: string;
  readonly name: string;
  readonly down: boolean;
}

export type ServiceFieldKind = 'character' | 'characters' | 'item' | 'number' | 'text';

export interface ServiceField {
  readonly name: string;
  readonly kind: ServiceFieldKind;
  readonly optional: boolean;
}

export interface ServiceForm {
  readonly type: string;
  readonly fields: readonly ServiceField[];
}

export interface FightHistory {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly status: EncounterRecord['status'];
  /** Roster characters whose lasting state the fight changed (those who took part). */
  readonly participants: readonly string[];
  /** Roster characters the fight left down. */
  readonly fell: readonly string[];
  /** The after-battle report: who won, rewards; empty while not finished. */
  readonly rewards: readonly string[];
  /** When the rewards were applied, and whether the GM took them back. */
  readonly finishedAt: string | null;
  readonly rewardsUndone: boolean;
}

type State = Readonly<Record<string, JsonValue>>;

function asState(value: JsonValue): State {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as State)
    : {};
}

function num(state: State, key: string): number | undefined {
  const v = state[key];
  return typeof v === 'number' ? v : undefined;
}

/**
 * How many of each a character holds, by name (`named`, the id where it has none); what is used
 * up (held as 0, so a fight knows it was there) is not listed.
 */
function counts(value: JsonValue | undefined, name: (id: string) => string = (id) => id): string[] {
  return Object.entries(asState(value ?? null))
    .filter(([, n]) => n !== 0)
    .map(([id, n]) => `${name(id)} × ${String(n)}`);
}

function list(value: JsonValue | undefined): string {
  return Array.isArray(value) && value.length > 0 ? value.map(String).join(', ') : 'none';
}

/** A content entity's name, or its id. */
function nameOf(library: ContentLibrary, id: string): string {
  for (const kind of library.kinds()) {
    const found = library.all(kind).find((e) => e.id === id) as { name?: unknown } | undefined;
    if (found !== undefined) return typeof found.name === 'string' ? found.name : id;
  }
  return id;
}

/** The sheet's own figure (maximum HP, MP), where the sheet has one under `stats` or at top. */
function sheetFigure(library: ContentLibrary, id: string, key: string): number | undefined {
  for (const kind of library.kinds()) {
    const found = library.all(kind).find((e) => e.id === id) as Record<string, unknown> | undefined;
    if (found === undefined) continue;
    const stats = (found.stats ?? {}) as Record<string, unknown>;
    const value = stats[key] ?? found[key];
    return typeof value === 'number' ? value : undefined;
  }
  return undefined;
}

function outOf(current: number | undefined, max: number | undefined): string {
  if (current === undefined) return '—';
  return max === undefined ? String(current) : `${current}/${max}`;
}

type Fields = Readonly<Record<string, unknown>>;

function fields(value: unknown): Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Fields)
    : {};
}

/** The system's content entry of a kind (`character`, `spell`, ...) by id, or nothing. */
function entry(system: AnySystem, library: ContentLibrary, kind: string, id: string): Fields {
  return fields(library.get(`${system.ruleset.id}/${kind}`, id));
}

/** An entry's name, or its id. */
function named(system: AnySystem, library: ContentLibrary, kind: string, id: string): string {
  const name = entry(system, library, kind, id).name;
  return typeof name === 'string' ? name : id;
}

function ids(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The numbers of a record, labelled; those the labels do not name follow, in their own words. */
function figures(record: unknown, labels: Readonly<Record<string, string>>): SheetLine[] {
  const r = fields(record);
  const known = Object.keys(labels).filter((k) => typeof r[k] === 'number');
  // HP and MP are the lines' (current out of the sheet's maximum).
  const rest = Object.keys(r).filter(
    (k) => !(k in labels) && k !== 'hp' && k !== 'mp' && typeof r[k] === 'number',
  );
  return [...known, ...rest].map((k) => ({ label: labels[k] ?? words(k), value: String(r[k]) }));
}

/** `magicEvade` → `Magic Evade`, `martial-arts` → `Martial Arts`. */
function words(key: string): string {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[-_ ]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** Status ids, whether listed bare or as `{ status }`. */
function statusNames(value: unknown): string[] {
  return (Array.isArray(value) ? value : [])
    .map((v) => (typeof v === 'string' ? v : fields(v).status))
    .filter((v): v is string => typeof v === 'string');
}

function described(parts: readonly (string | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join('; ') || '—';
}

function plus(n: unknown): string | undefined {
  return typeof n === 'number' && n !== 0 ? (n > 0 ? `+${n}` : String(n)) : undefined;
}

/** FFRPG: the Playguide's attributes and combat statistics, Job, weapon, Skills; Abilities. */
function ffrpgSheet(system: AnySystem, library: ContentLibrary, sheet: Fields) {
  const job = typeof sheet.job === 'string' ? named(system, library, 'job', sheet.job) : undefined;
  const weapon = typeof sheet.weapon === 'string' ? sheet.weapon : undefined;
  const w = weapon === undefined ? {} : entry(system, library, 'weapon', weapon);
  const stats: SheetLine[] = [
    ...(job === undefined ? [] : [{ label: 'Job', value: job }]),
    ...figures(sheet.attributes, {
      STR: 'STR',
      VIT: 'VIT',
      AGI: 'AGI',
      SPD: 'SPD',
      MAG: 'MAG',
      SPR: 'SPR',
    }),
    ...figures(sheet.stats, {
      acc: 'ACC',
      macc: 'M. ACC',
      eva: 'EVA',
      meva: 'M. EVA',
      arm: 'ARM',
      marm: 'M. ARM',
    }),
    ...(weapon === undefined
      ? []
      : [
          {
            label: 'Weapon',
            value: described([
              named(system, library, 'weapon', weapon),
              typeof w.damage === 'string' ? `${w.damage} damage` : undefined,
            ]),
          },
        ]),
    ...Object.entries(fields(sheet.skills))
      .filter(([, v]) => typeof v === 'number')
      .map(([skill, v]) => ({ label: skill, value: String(v) })),
  ];
  const abilities = ids(sheet.abilities).map((id) => {
    const a = entry(system, library, 'ability', id);
    const cost = fields(a.cost);
    return {
      label: named(system, library, 'ability', id),
      value: described([
        typeof a.type === 'string' ? words(a.type) : undefined,
        typeof a.mpCost === 'number' && a.mpCost > 0 ? `${a.mpCost} MP` : undefined,
        typeof cost.hpPercent === 'number' && cost.hpPercent > 0
          ? `${cost.hpPercent}% of max HP`
          : undefined,
        typeof a.description === 'string' ? a.description : undefined,
      ]),
    };
  });
  return { stats, abilities };
}

/** FFVIII: attributes, Skills' Action Values, weapons; Junctioned GFs, Powers, Spells. */
function ffviiiSheet(system: AnySystem, library: ContentLibrary, sheet: Fields, s: State) {
  const attributes = fields(sheet.attributes);
  const skills = Object.entries(fields(sheet.skills)).map(([skill, v]) => {
    const k = fields(v);
    const base = typeof k.attribute === 'string' ? attributes[k.attribute] : undefined;
    const av = (typeof base === 'number' ? base : 0) + (typeof k.bonus === 'number' ? k.bonus : 0);
    return { label: `${words(skill)} AV`, value: String(av) };
  });
  const weapons = ids(sheet.weapons).map((w) => named(system, library, 'weapon', w));
  const stats: SheetLine[] = [
    ...figures(attributes, {}),
    ...(typeof sheet.dodge === 'number' ? [{ label: 'Dodge', value: String(sheet.dodge) }] : []),
    ...skills,
    ...(weapons.length > 0 ? [{ label: 'Weapons', value: weapons.join(', ') }] : []),
  ];
  const gfs = (Array.isArray(sheet.guardianForces) ? sheet.guardianForces : []).map((g) => {
    const junction = fields(g);
    const id = String(junction.gf ?? '');
    const gf = entry(system, library, 'guardian-force', id);
    const ability = fields(gf.ability);
    return {
      label: named(system, library, 'guardian-force', id),
      value: described([
        'Junctioned GF',
        typeof junction.compatibility === 'number'
          ? `Compatibility ${junction.compatibility}`
          : undefined,
        typeof ability.name === 'string'
          ? `${ability.name}${typeof ability.rating === 'number' ? ` (rating ${ability.rating})` : ''}`
          : undefined,
      ]),
    };
  });
  const powers = ids(sheet.powers).map((id) => {
    const p = entry(system, library, 'power', id);
    return {
      label: named(system, library, 'power', id),
      value: described([
        'Power',
        typeof p.uses === 'number' ? `${p.uses} use${p.uses === 1 ? '' : 's'}` : undefined,
        typeof p.description === 'string' ? p.description : undefined,
      ]),
    };
  });
  // The Spell Matrix as the roster holds it: what the character has in stock now.
  const spells = Object.entries(fields(s.spellMatrix ?? sheet.spellMatrix)).map(([id, n]) => {
    const spell = entry(system, library, 'spell', id);
    return {
      label: named(system, library, 'spell', id),
      value: described([
        'Spell',
        typeof spell.effect === 'string'
          ? `${typeof spell.element === 'string' ? `${spell.element} ` : ''}${spell.effect === 'heal' ? 'healing' : spell.effect}`
          : undefined,
        typeof spell.power === 'number' ? `power ${spell.power}` : undefined,
        `${String(n)} in stock`,
      ]),
    };
  });
  return { stats, abilities: [...gfs, ...powers, ...spells] };
}

/** ZODIAC: the stats, the weapon; Techs. */
function zodiacSheet(system: AnySystem, library: ContentLibrary, sheet: Fields) {
  const weapon = typeof sheet.weapon === 'string' ? sheet.weapon : undefined;
  const w = weapon === undefined ? {} : entry(system, library, 'weapon', weapon);
  const stats: SheetLine[] = [
    ...figures(sheet.stats, {
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
    }),
    ...(weapon === undefined
      ? []
      : [
          {
            label: 'Weapon',
            value: described([
              named(system, library, 'weapon', weapon),
              typeof w.die === 'number' ? `d${w.die}` : undefined,
              typeof w.attackPower === 'number'
                ? `Attack Power ${plus(w.attackPower) ?? '+0'}`
                : undefined,
            ]),
          },
        ]),
  ];
  const abilities = ids(sheet.techs).map((id) => {
    const t = entry(system, library, 'tech', id);
    const effect = fields(t.damage ?? t.heal);
    return {
      label: named(system, library, 'tech', id),
      value: described([
        typeof t.type === 'string' ? `${words(t.type)} Tech` : undefined,
        typeof t.mpCost === 'number' ? `${t.mpCost} MP` : undefined,
        typeof t.target === 'string' ? words(t.target) : undefined,
        t.damage !== undefined ? 'damage' : t.heal !== undefined ? 'heals' : undefined,
        typeof effect.power === 'number' && effect.power > 0 ? `power ${effect.power}` : undefined,
        typeof effect.element === 'string' ? effect.element : undefined,
        ...statusNames(t.inflicts).map((status) => `inflicts ${words(status)}`),
        ...statusNames(t.cures).map((status) => `cures ${words(status)}`),
        typeof t.description === 'string' ? t.description : undefined,
      ]),
    };
  });
  return { stats, abilities };
}

/**
 * Shining Force: "Hit Points (HP), Magic Points (MP), Attack, Defence, Agility, Luck, Movement",
 * the sheet's plus the gains of each level (the class, promoted or not, is a line of the lasting
 * state); the equipped weapon and accessory; spells, their level in their name.
 */
function shiningForceSheet(system: AnySystem, library: ContentLibrary, sheet: Fields, s: State) {
  const base = fields(sheet.stats);
  const gains = fields(s.gains);
  const stat = (key: string): string => {
    const b = typeof base[key] === 'number' ? base[key] : 0;
    const g = typeof gains[key] === 'number' ? gains[key] : 0;
    return String(Math.min(999, b + g));
  };
  const held = Array.isArray(s.items) ? s.items.map(asState) : [];
  const equipped = held
    .filter((h) => h.equipped === true)
    .map((h) => {
      const item = entry(system, library, 'item', String(h.item));
      const bonuses = Object.entries(fields(item.bonuses))
        .map(([k, v]) => (plus(v) === undefined ? undefined : `${words(k)} ${plus(v)}`))
        .filter((b) => b !== undefined);
      return {
        label: item.type === 'accessory' ? 'Accessory' : 'Weapon',
        value: `${named(system, library, 'item', String(h.item))}${bonuses.length > 0 ? ` (${bonuses.join(', ')})` : ''}`,
      };
    });
  const stats: SheetLine[] = [
    { label: 'HP', value: stat('hp') },
    { label: 'MP', value: stat('mp') },
    { label: 'Attack', value: stat('attack') },
    { label: 'Defence', value: stat('defence') },
    { label: 'Agility', value: stat('agility') },
    { label: 'Luck', value: stat('luck') },
    { label: 'Movement', value: stat('movement') },
    ...equipped,
  ];
  const abilities = ids(sheet.spells).map((id) => {
    const spell = entry(system, library, 'spell', id);
    return {
      label: named(system, library, 'spell', id),
      value: described([
        typeof spell.mpCost === 'number' ? `${spell.mpCost} MP` : undefined,
        typeof spell.damage === 'number' ? `${spell.damage} damage` : undefined,
        typeof spell.heal === 'number' ? `heals ${spell.heal}` : undefined,
        Array.isArray(spell.cures) && spell.cures.length > 0
          ? `cures ${spell.cures.map(String).join(', ')}`
          : undefined,
        typeof spell.description === 'string' ? spell.description : undefined,
      ]),
    };
  });
  return { stats, abilities };
}

/** The Playguide's top: "new FFRPG characters begin the game at Level 1, and can advance up to Level 99". */
const FFRPG_TOP_LEVEL = 99;

type LevelRows = readonly { readonly level: number; readonly xp: number }[];

/**
 * The level table the campaign page reads Levels off: the party's (`levelTable`, what awards
 * use and encounters that name none), or, when it names none, the library's only one (what the
 * encounter builder picks for a new fight); else why there is none to read.
 */
function ffrpgLevelTable(library: ContentLibrary, party: State): LevelRows | string {
  const kind = 'ffrpg/level-table';
  const named = typeof party.levelTable === 'string' ? party.levelTable : undefined;
  const tables = library.all(kind);
  const found =
    named !== undefined ? library.get(kind, named) : tables.length === 1 ? tables[0] : undefined;
  if (found === undefined)
    return named !== undefined
      ? `the party's level table '${named}' is not in the library`
      : 'the party names no level table';
  const levels = fields(found).levels;
  return (Array.isArray(levels) ? levels : [])
    .map(fields)
    .flatMap((r) =>
      typeof r.level === 'number' && typeof r.xp === 'number' ? [{ level: r.level, xp: r.xp }] : [],
    );
}

/**
 * FFRPG: the XP still wanted for the next Level ("Once a character has acquired enough XP, they
 * will advance a Level"), and its threshold; at the top Level, or past the table's last row, so.
 */
function ffrpgNextLevel(table: LevelRows | string, level: number, xp: number): string {
  if (level >= FFRPG_TOP_LEVEL) return `none: Level ${FFRPG_TOP_LEVEL} is the highest`;
  if (typeof table === 'string') return table;
  let next: LevelRows[number] | undefined;
  for (const row of table)
    if (row.level > level && (next === undefined || row.level < next.level)) next = row;
  if (next === undefined)
    return table.length === 0
      ? 'the level table has no Levels'
      : `none: the level table ends at Level ${Math.max(...table.map((r) => r.level))}`;
  return `${Math.max(0, next.xp - xp)} (Level ${next.level} at ${next.xp} XP)`;
}

/**
 * Shining Force: where the class stands on promotion ("In the first class tier, promotion
 * becomes available at level 10 ... In the second class tier, promotion becomes available at
 * level 20"; "Priest: ... promotion (free)"), in words rather than through the class's name.
 */
function promotionLine(system: AnySystem, library: ContentLibrary, cls: Fields, level: number) {
  const tier = typeof cls.tier === 'number' ? cls.tier : 1;
  const next = typeof cls.promotesTo === 'string' ? cls.promotesTo : undefined;
  if (next === undefined)
    return tier > 1
      ? 'promoted'
      : `none: ${typeof cls.name === 'string' ? cls.name : 'the class'} has no class to promote to`;
  const to = named(system, library, 'class', next);
  const from = tier === 1 ? FIRST_TIER_PROMOTION : SECOND_TIER_PROMOTION;
  const prefix = tier > 1 ? 'promoted; ' : '';
  return level >= from
    ? `${prefix}may be promoted at the priest, to ${to} (free)`
    : `${prefix}to ${to} at the priest from level ${from}`;
}

/** One character in its system's words (docs/campaign.md's tables of lasting state). */
export function describeCharacter(
  system: AnySystem,
  library: ContentLibrary,
  id: string,
  value: JsonValue,
  /** The roster's party: FFRPG's level table is named there. */
  party: JsonValue = null,
): CampaignCharacter {
  const s = asState(value);
  const name = nameOf(library, id);
  const hp = outOf(num(s, 'hp'), sheetFigure(library, id, 'hp'));
  const mp = outOf(num(s, 'mp'), sheetFigure(library, id, 'mp'));
  const sheet = entry(system, library, 'character', id);
  switch (system.ruleset.id) {
    case 'ffrpg': {
      const level = num(s, 'level') ?? 1;
      const xp = num(s, 'xp') ?? 0;
      return {
        id,
        name,
        lines: [
          { label: 'Level', value: String(level) },
          { label: 'XP', value: String(xp) },
          {
            label: 'XP to the next Level',
            value: ffrpgNextLevel(ffrpgLevelTable(library, asState(party)), level, xp),
          },
          { label: 'Gil', value: String(num(s, 'gil') ?? 0) },
          { label: 'HP', value: hp },
          { label: 'MP', value: mp },
          { label: 'Status Conditions (∞)', value: list(s.statuses) },
        ],
        ...ffrpgSheet(system, library, sheet),
        abilitiesHeading: 'Abilities',
        items: [],
        down: num(s, 'hp') === 0,
      };
    }
    case 'ffviii':
      return {
        id,
        name,
        lines: [
          { label: 'HP', value: hp },
          {
            label: 'Spell Matrix',
            value:
              counts(s.spellMatrix, (id) => named(system, library, 'spell', id)).join(', ') ||
              'empty',
          },
          {
            label: 'Ammunition',
            value:
              Object.entries(asState(s.ammo ?? null))
                .map(([gun, n]) => `${named(system, library, 'weapon', gun)}: ${String(n)} rounds`)
                .join(', ') || 'every gun full',
          },
          { label: 'Statuses', value: list(s.statuses) },
        ],
        ...ffviiiSheet(system, library, sheet, s),
        abilitiesHeading: 'Junctions, Powers and Spells',
        items: counts(s.items, (id) => named(system, library, 'item', id)),
        down: num(s, 'hp') === 0,
      };
    case 'zodiac':
      return {
        id,
        name,
        lines: [
          { label: 'HP', value: hp },
          { label: 'MP', value: mp },
          { label: 'Permanent effects', value: list(s.statuses) },
          ...(s.unconscious === true ? [{ label: 'Unconscious', value: 'yes' }] : []),
          ...(s.dead === true ? [{ label: 'Dead', value: 'yes' }] : []),
        ],
        ...zodiacSheet(system, library, sheet),
        abilitiesHeading: 'Techs',
        items: counts(s.items, (id) => named(system, library, 'item', id)),
        down: s.unconscious === true || s.dead === true,
      };
    default: {
      // Shining Force: 100 EXP make a level, up to the class's highest; promotion from level 10
      // in the first tier, 20 in the second.
      const level = num(s, 'level') ?? 1;
      const exp = num(s, 'exp') ?? 0;
      const held = Array.isArray(s.items) ? s.items.map(asState) : [];
      const cls = typeof s.class === 'string' ? entry(system, library, 'class', s.class) : {};
      const highest =
        typeof cls.maxLevel === 'number'
          ? cls.maxLevel
          : (cls.tier ?? 1) === 1
            ? FIRST_TIER_MAX_LEVEL
            : DEFAULT_MAX_LEVEL;
      return {
        id,
        name,
        lines: [
          {
            label: 'Class',
            value: typeof s.class === 'string' ? named(system, library, 'class', s.class) : '—',
          },
          { label: 'Level', value: String(level) },
          {
            label: 'EXP',
            value:
              level >= highest
                ? `${exp} (level ${highest} is the class's highest)`
                : `${exp} (${EXP_PER_LEVEL - exp} to the next level)`,
          },
          { label: 'Promotion', value: promotionLine(system, library, cls, level) },
          { label: 'Poison', value: s.poison === null || s.poison === undefined ? 'no' : 'yes' },
          ...(s.defeated === true ? [{ label: 'Defeated', value: 'must be raised' }] : []),
        ],
        ...shiningForceSheet(system, library, sheet, s),
        abilitiesHeading: 'Spells',
        items: held.map(
          (h) =>
            `${nameOf(library, String(h.item))}${h.equipped === true ? ' (equipped)' : ''}${h.cracked === true ? ' (cracked)' : ''}`,
        ),
        down: s.defeated === true,
      };
    }
  }
}

/** What the party holds together, in the system's words. */
export function describeParty(system: AnySystem, party: JsonValue): SheetLine[] {
  const p = asState(party);
  switch (system.ruleset.id) {
    case 'ffrpg':
      return [
        { label: 'Party Gil', value: String(num(p, 'gil') ?? 0) },
        { label: 'Items', value: counts(p.items).join(', ') || 'none' },
      ];
    case 'shining-force':
      return [{ label: 'Gold', value: String(num(p, 'gold') ?? 0) }];
    default:
      return [];
  }
}

/**
 * The services a system's schema offers, as forms: each field's kind from its name and type
 * (`character`, `target`: one of the party; `characters`: several; `item`, `spell`: content).
 */
export function serviceForms(schema: z.ZodType): ServiceForm[] {
  const options = (schema as unknown as { options?: readonly z.ZodType[] }).options ?? [schema];
  const forms: ServiceForm[] = [];
  for (const option of options) {
    const shape = (option as unknown as { shape?: Record<string, z.ZodType> }).shape;
    if (shape === undefined) continue;
    const literal = (shape.type as unknown as { value?: unknown } | undefined)?.value;
    if (typeof literal !== 'string') continue;
    const fields: ServiceField[] = [];
    for (const [name, field] of Object.entries(shape)) {
      if (name === 'type') continue;
      const optional = field.safeParse(undefined).success;
      const inner = unwrap(field);
      const kind: ServiceFieldKind =
        name === 'characters'
          ? 'characters'
          : name === 'character' || name === 'target'
            ? 'character'
            : name === 'item'
              ? 'item'
              : inner === 'number'
                ? 'number'
                : 'text';
      fields.push({ name, kind, optional });
    }
    forms.push({ type: literal, fields });
  }
  return forms;
}

function unwrap(field: z.ZodType): string {
  let def = (field as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod
    .def;
  for (let i = 0; i < 5 && def.innerType !== undefined; i++) {
    def = (def.innerType as unknown as { _zod: { def: typeof def } })._zod.def;
  }
  return def.type;
}

/** Each fight with what the campaign log says it gave; newest first. */
export function history(
  system: AnySystem,
  library: ContentLibrary,
  encounters: readonly EncounterRecord[],
  log: readonly CampaignLogRecord[],
): FightHistory[] {
  return [...encounters].reverse().map((e) => {
    const entry = log.find((l) => l.kind === 'after-battle' && l.encounterId === e.id);
    const before = new Map(entry?.before.map((r) => [r.characterId, JSON.stringify(r.state)]));
    const changed = (entry?.after ?? []).filter(
      (r) =>
        !r.characterId.startsWith('@') && before.get(r.characterId) !== JSON.stringify(r.state),
    );
    return {
      id: e.id,
      name: e.name,
      createdAt: e.createdAt,
      status: e.status,
      participants: changed.map((r) => nameOf(library, r.characterId)),
      fell: changed
        .filter((r) => describeCharacter(system, library, r.characterId, r.state).down)
        .map((r) => nameOf(library, r.characterId)),
      rewards: entry?.report ?? [],
      finishedAt: entry?.at ?? null,
      rewardsUndone: entry?.undoneAt !== null && entry !== undefined,
    };
  });
}

/** The party as the campaign page shows it to the GM: every character in full. */
export function describeRoster(
  system: AnySystem,
  library: ContentLibrary,
  roster: CampaignRoster,
): CampaignCharacter[] {
  return Object.entries(roster.characters).map(([id, state]) =>
    describeCharacter(system, library, id, state, roster.party),
  );
}
