import type { z } from 'zod';
import type { ContentLibrary } from '../content/index.js';
import type { CampaignRoster, JsonValue } from '../rulesets/campaign.js';
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
  /** What the character carries, one line an item. */
  readonly items: readonly string[];
  /** Knocked out, defeated, unconscious or dead: must be raised, rested or healed. */
  readonly down: boolean;
}

/** A member of the party as another player sees them: no figures. */
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

function counts(value: JsonValue | undefined): string[] {
  return Object.entries(asState(value ?? null)).map(([id, n]) => `${id} × ${String(n)}`);
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

/** One character in its system's words (docs/campaign.md's tables of lasting state). */
export function describeCharacter(
  system: AnySystem,
  library: ContentLibrary,
  id: string,
  value: JsonValue,
): CampaignCharacter {
  const s = asState(value);
  const name = nameOf(library, id);
  const hp = outOf(num(s, 'hp'), sheetFigure(library, id, 'hp'));
  const mp = outOf(num(s, 'mp'), sheetFigure(library, id, 'mp'));
  switch (system.ruleset.id) {
    case 'ffrpg':
      return {
        id,
        name,
        lines: [
          { label: 'Level', value: String(num(s, 'level') ?? 1) },
          { label: 'XP', value: String(num(s, 'xp') ?? 0) },
          { label: 'Gil', value: String(num(s, 'gil') ?? 0) },
          { label: 'HP', value: hp },
          { label: 'MP', value: mp },
          { label: 'Status Conditions (∞)', value: list(s.statuses) },
        ],
        items: [],
        down: num(s, 'hp') === 0,
      };
    case 'ffviii':
      return {
        id,
        name,
        lines: [
          { label: 'HP', value: hp },
          { label: 'Spell Matrix', value: counts(s.spellMatrix).join(', ') || 'empty' },
          {
            label: 'Ammunition',
            value:
              Object.entries(asState(s.ammo ?? null))
                .map(([gun, n]) => `${gun}: ${String(n)} rounds`)
                .join(', ') || 'every gun full',
          },
          { label: 'Statuses', value: list(s.statuses) },
        ],
        items: counts(s.items),
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
        items: counts(s.items),
        down: s.unconscious === true || s.dead === true,
      };
    default: {
      // Shining Force: 100 EXP make a level; promotion from level 10.
      const level = num(s, 'level') ?? 1;
      const exp = num(s, 'exp') ?? 0;
      const held = Array.isArray(s.items) ? s.items.map(asState) : [];
      return {
        id,
        name,
        lines: [
          { label: 'Class', value: String(s.class ?? '—') },
          { label: 'Level', value: String(level) },
          { label: 'EXP', value: `${exp} (${100 - exp} to the next level)` },
          { label: 'Poison', value: s.poison === null || s.poison === undefined ? 'no' : 'yes' },
          ...(s.defeated === true ? [{ label: 'Defeated', value: 'must be raised' }] : []),
        ],
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
    describeCharacter(system, library, id, state),
  );
}
