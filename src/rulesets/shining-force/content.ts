import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  entitiesById,
  type NamedSheet,
  sheetById,
  sidesFrom,
} from '../../content/encounter-sheets.js';
import { refersTo, startsInForms } from '../../content/fields.js';
import { type ContentReference, defineKind, entityFields } from '../../content/kind.js';
import type { ContentLibrary } from '../../content/library.js';
import { describeIssue, Encounter, err, ok, type Result } from '../../engine/index.js';
import type { NewcomerSheet, ShiningForceCommand } from './commands.js';
import type { ShiningForceEvent } from './events.js';
import { offsetsOf } from './grid/patterns.js';
import {
  battlefieldSchema,
  classSchema,
  type HeldItem,
  itemSchema,
  naturalAttackSchema,
  optionsSchema,
  patternSchema,
  type ShiningForceSetup,
  spellSchema,
  statsSchema,
} from './model.js';
import { shiningForce } from './ruleset.js';
import type { ShiningForceState } from './state.js';

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/);

export const patternKind = defineKind({
  kind: 'shining-force/pattern',
  description:
    'A range or an area of effect on the grid: Manhattan distances, single cells (dx, dy), cells taken away.',
  schema: patternSchema,
});

const effectReferences = (
  e: { range: string; area: string } | undefined,
  at: string,
): ContentReference[] =>
  e === undefined
    ? []
    : [
        { kind: 'shining-force/pattern', id: e.range, path: `${at}range` },
        { kind: 'shining-force/pattern', id: e.area, path: `${at}area` },
      ];

export const spellKind = defineKind({
  kind: 'shining-force/spell',
  description:
    'A Shining Force spell: MP cost, range, area, and its damage, healing, cures or statuses.',
  schema: spellSchema,
  references: (s: z.infer<typeof spellSchema>) => effectReferences(s, ''),
});

export const itemKind = defineKind({
  kind: 'shining-force/item',
  description:
    'A Shining Force weapon, accessory or item: price, range, bonuses, special critical, use, curse.',
  schema: itemSchema,
  references: (item: z.infer<typeof itemSchema>) => [
    ...(item.range === undefined
      ? []
      : [{ kind: 'shining-force/pattern', id: item.range, path: 'range' }]),
    ...effectReferences(item.use, 'use.'),
  ],
});

export const classKind = defineKind({
  kind: 'shining-force/class',
  description: 'A Shining Force class: tier, promotion, maximum level and stat gains per level.',
  schema: classSchema,
  references: (c: z.infer<typeof classSchema>) =>
    c.promotesTo === undefined
      ? []
      : [{ kind: 'shining-force/class', id: c.promotesTo, path: 'promotesTo' }],
});

/** An item on a sheet: its id, or the id and whether it has cracked. */
const item = refersTo('shining-force/item', id);
const carried = z.union([item, z.strictObject({ item, cracked: z.boolean().default(false) })]);

const sheetSchema = z.object({
  name: z.string().min(1),
  class: refersTo('shining-force/class', id).optional(),
  level: z.number().int().min(1).max(99).default(1),
  exp: z.number().int().min(0).max(99).default(0),
  stats: statsSchema,
  mastery: z.number().int().min(1).max(3).default(1),
  weapon: item.optional(),
  accessory: item.optional(),
  /** Besides the equipped weapon and accessory: at most four. */
  items: z.array(carried).max(4).default([]),
  spells: z.array(refersTo('shining-force/spell', id)).default([]),
  attack: naturalAttackSchema.optional(),
  expReward: z.number().int().min(0).max(999).default(0),
  gold: z.number().int().min(0).max(999_999).default(0),
  description: z.string().optional(),
});
type SheetFile = z.infer<typeof sheetSchema>;

const itemIdOf = (c: z.infer<typeof carried>): string => (typeof c === 'string' ? c : c.item);

const sheetReferences = (s: SheetFile): ContentReference[] => [
  ...(s.class === undefined ? [] : [{ kind: 'shining-force/class', id: s.class, path: 'class' }]),
  ...(s.weapon === undefined ? [] : [{ kind: 'shining-force/item', id: s.weapon, path: 'weapon' }]),
  ...(s.accessory === undefined
    ? []
    : [{ kind: 'shining-force/item', id: s.accessory, path: 'accessory' }]),
  ...s.items.map((c, i) => ({ kind: 'shining-force/item', id: itemIdOf(c), path: `items[${i}]` })),
  ...s.spells.map((sp, i) => ({ kind: 'shining-force/spell', id: sp, path: `spells[${i}]` })),
  ...(s.attack === undefined
    ? []
    : [{ kind: 'shining-force/pattern', id: s.attack.range, path: 'attack.range' }]),
];

export const characterKind = defineKind({
  kind: 'shining-force/character',
  description: 'A Shining Force member: class, level, stats, weapon mastery, items and spells.',
  // A member of the Force levels up in its class: the roster refuses one without, so a new
  // character's form asks for it from the start (a monster's does not).
  schema: sheetSchema.extend({
    class: startsInForms(refersTo('shining-force/class', id).optional()),
  }),
  references: sheetReferences,
});

export const monsterKind = defineKind({
  kind: 'shining-force/monster',
  description: 'A Shining Force monster: stats, its own attack or a weapon, spells, EXP and gold.',
  schema: sheetSchema,
  references: sheetReferences,
});

export const shiningForceKinds = [
  patternKind,
  spellKind,
  itemKind,
  classKind,
  characterKind,
  monsterKind,
] as const;

export const STARTER_CONTENT_DIR = fileURLToPath(
  new URL('../../../content/shining-force/', import.meta.url),
);

const cellName = z.string().regex(/^[A-Za-z]\d{1,2}$/, 'a cell such as C4');

/** The battlefield, who stands where by content id, and the options. */
export const encounterSpecSchema = z.strictObject({
  battlefield: battlefieldSchema,
  sides: z
    .array(
      z.strictObject({
        id,
        name: z.string().min(1),
        force: z.boolean().default(false),
        combatants: z
          .array(
            z.strictObject({
              character: id.optional(),
              monster: id.optional(),
              /** Needed when the same sheet fights twice: `goblin-2`. */
              id: id.optional(),
              name: z.string().min(1).optional(),
              at: cellName,
              hp: z.number().int().min(0).optional(),
              mp: z.number().int().min(0).optional(),
              /** A monster's maximum HP in this fight, in place of its sheet's; it starts at it. */
              maxHp: z.number().int().min(1).max(999).optional(),
            }),
          )
          .min(1)
          .max(40),
      }),
    )
    .min(2)
    .max(4),
  options: optionsSchema.partial().default({}),
});
export type EncounterSpec = z.input<typeof encounterSpecSchema>;

function heldItems(sheet: SheetFile): HeldItem[] {
  const held: HeldItem[] = [];
  if (sheet.weapon !== undefined) held.push({ item: sheet.weapon, cracked: false, equipped: true });
  if (sheet.accessory !== undefined)
    held.push({ item: sheet.accessory, cracked: false, equipped: true });
  for (const c of sheet.items)
    held.push(
      typeof c === 'string'
        ? { item: c, cracked: false, equipped: false }
        : { item: c.item, cracked: c.cracked, equipped: false },
    );
  return held;
}

const SHEET_KINDS = { character: characterKind, monster: monsterKind };

/**
 * One content sheet as a battle's combatant: the same for an encounter file's entry and for a
 * newcomer `gm add` brings in (which has no cell yet: the rules choose it).
 */
function sheetOf(
  named: NamedSheet<SheetFile>,
  who: {
    id?: string | undefined;
    name?: string | undefined;
    at?: string;
    hp?: number;
    mp?: number;
  },
): NewcomerSheet {
  const { kind, id: sheetId, sheet } = named;
  const fields = entityFields(sheet);
  return {
    id: who.id ?? sheetId,
    name: who.name ?? fields.name,
    kind: kind === 'character' ? 'force' : 'monster',
    ...(fields.class === undefined ? {} : { class: fields.class }),
    level: fields.level,
    exp: fields.exp,
    stats: fields.stats,
    mastery: fields.mastery,
    items: heldItems(fields),
    spells: fields.spells,
    ...(fields.attack === undefined ? {} : { attack: fields.attack }),
    expReward: fields.expReward,
    gold: fields.gold,
    ...(who.at === undefined ? {} : { at: who.at.toUpperCase() }),
    ...(who.hp === undefined ? {} : { hp: who.hp }),
    ...(who.mp === undefined ? {} : { mp: who.mp }),
  };
}

/** The sheet `gm add <content-id>` brings in: a character or a monster, as an encounter builds it. */
export function shiningForceNewcomer(
  library: ContentLibrary,
  contentId: string,
): Result<NewcomerSheet> {
  const named = sheetById(library, SHEET_KINDS, contentId);
  return named.ok ? ok(sheetOf(named.value, {})) : named;
}

/**
 * Resolves an encounter's content ids into the self-contained setup a battle starts from:
 * sheets with their items, and every pattern (as offsets), spell and item the content defines.
 */
export function shiningForceSetupFrom(
  library: ContentLibrary,
  specInput: unknown,
): Result<ShiningForceSetup> {
  const spec = encounterSpecSchema.safeParse(specInput);
  if (!spec.success) return err('encounter/invalid', describeIssue(spec.error));
  const patterns: Record<string, [number, number][]> = {};
  for (const p of library.all(patternKind))
    patterns[p.id] = offsetsOf(p).map(([dx, dy]) => [dx, dy]);
  const spells: ShiningForceSetup['spells'] = entitiesById(library, spellKind);
  const items: ShiningForceSetup['items'] = entitiesById(library, itemKind);
  const sides = sidesFrom(
    library,
    spec.data.sides,
    (side) => side.combatants,
    SHEET_KINDS,
    (named, who) => ok(sheetOf(named, who)),
    (side, combatants) => ({ id: side.id, name: side.name, force: side.force, combatants }),
    ['stats', 'hp'],
  );
  if (!sides.ok) return sides;
  const parsed = shiningForce.parseSetup({
    battlefield: spec.data.battlefield,
    sides: sides.value,
    patterns,
    spells,
    items,
    options: { ...optionsSchema.parse({}), ...spec.data.options },
  });
  return parsed.ok ? parsed : err('encounter/invalid', parsed.error.message);
}

export function createShiningForceEncounter(
  library: ContentLibrary,
  spec: unknown,
  seed: number | string,
): Result<Encounter<ShiningForceSetup, ShiningForceState, ShiningForceCommand, ShiningForceEvent>> {
  const setup = shiningForceSetupFrom(library, spec);
  return setup.ok ? Encounter.create(shiningForce, setup.value, seed) : setup;
}
