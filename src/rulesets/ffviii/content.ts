import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  encounterInvalid,
  entitiesById,
  type NamedSheet,
  sheetById,
  sidesFrom,
} from '../../content/encounter-sheets.js';
import { type ContentReference, defineKind, entityFields } from '../../content/kind.js';
import type { ContentLibrary } from '../../content/library.js';
import { Encounter, err, ok, type Result } from '../../engine/index.js';
import type { FfviiiCommand } from './commands.js';
import type { FfviiiEvent } from './events.js';
import {
  type CombatantSheet,
  type FfviiiSetup,
  guardianForceSchema,
  idSchema,
  itemSchema,
  optionsSchema,
  powerSchema,
  sheetFields,
  spellSchema,
  weaponSchema,
} from './model.js';
import { ffviii, setupProblem } from './ruleset.js';
import type { FfviiiState } from './state.js';

/** FFVIII content kinds: one file per weapon, spell, item, Guardian Force, power, character and monster. */
export const weaponKind = defineKind({
  kind: 'ffviii/weapon',
  description:
    'An FFVIII weapon: the Skills it is used with, its damage rating, its shots, and for a gun its kind and capacity.',
  schema: weaponSchema,
});

export const spellKind = defineKind({
  kind: 'ffviii/spell',
  description:
    'An FFVIII spell: the power added to the Sorcery Action Value, damage or healing, its element.',
  schema: spellSchema,
});

export const itemKind = defineKind({
  kind: 'ffviii/item',
  description:
    'An FFVIII item: its effect, whether its target is willing, whether it is dangerous.',
  schema: itemSchema,
});

export const guardianForceKind = defineKind({
  kind: 'ffviii/guardian-force',
  description:
    'An FFVIII Guardian Force: its summon shots and its ability (shots, damage, element).',
  schema: guardianForceSchema,
});

export const powerKind = defineKind({
  kind: 'ffviii/power',
  description: 'An FFVIII power used before anyone rolls initiative.',
  schema: powerSchema,
});

const sheetSchema = z.object(sheetFields);
type SheetFile = z.infer<typeof sheetSchema>;

const sheetReferences = (sheet: SheetFile): ContentReference[] => [
  ...sheet.weapons.map((id, i) => ({ kind: 'ffviii/weapon', id, path: `weapons[${i}]` })),
  ...Object.keys(sheet.spellMatrix).map((id) => ({
    kind: 'ffviii/spell',
    id,
    path: `spellMatrix.${id}`,
  })),
  ...sheet.spellshards.map((id, i) => ({ kind: 'ffviii/spell', id, path: `spellshards[${i}]` })),
  ...Object.keys(sheet.items).map((id) => ({ kind: 'ffviii/item', id, path: `items.${id}` })),
  ...sheet.guardianForces.map((g, i) => ({
    kind: 'ffviii/guardian-force',
    id: g.gf,
    path: `guardianForces[${i}].gf`,
  })),
  ...sheet.powers.map((id, i) => ({ kind: 'ffviii/power', id, path: `powers[${i}]` })),
];

export const characterKind = defineKind({
  kind: 'ffviii/character',
  description:
    'An FFVIII character: Attributes, Skills (Attribute + points), HP, weapons, Spell Matrix, items, Guardian Forces.',
  schema: sheetSchema,
  references: sheetReferences,
});

export const monsterKind = defineKind({
  kind: 'ffviii/monster',
  description:
    'An FFVIII monster: Attributes, Action Values, Dodge, elemental Spirit, weapons and Spellshards.',
  schema: sheetSchema,
  references: sheetReferences,
});

export const ffviiiKinds = [
  weaponKind,
  spellKind,
  itemKind,
  guardianForceKind,
  powerKind,
  characterKind,
  monsterKind,
] as const;

/** Ehlric Lineas, the Iron Giant, Infernus and the spells, weapons and items the text names. */
export const STARTER_CONTENT_DIR = fileURLToPath(
  new URL('../../../content/ffviii/', import.meta.url),
);

export const encounterSpecSchema = z.strictObject({
  sides: z
    .array(
      z.strictObject({
        id: idSchema,
        name: z.string().min(1),
        combatants: z
          .array(
            z.strictObject({
              character: idSchema.optional(),
              monster: idSchema.optional(),
              /** Needed when the same sheet fights twice: `iron-giant-2`. */
              id: idSchema.optional(),
              name: z.string().min(1).optional(),
              hp: z.number().int().min(1).max(9999).optional(),
              /** A monster's maximum HP in this fight, in place of its sheet's; it starts at it. */
              maxHp: z.number().int().min(1).max(9999).optional(),
              /** In yards, for spell range (Sorcery AV x 3). */
              position: z.strictObject({ x: z.number(), y: z.number() }).optional(),
            }),
          )
          .min(1),
      }),
    )
    .min(2),
  /** Pairs with a solid, opaque barrier between them: no spells either way. */
  blockedSight: z.array(z.tuple([idSchema, idSchema])).default([]),
  options: optionsSchema.partial().default({}),
});
export type EncounterSpec = z.input<typeof encounterSpecSchema>;

/** The self-contained setup an FFVIII encounter starts from, out of content ids. */
export function ffviiiSetupFrom(library: ContentLibrary, specInput: unknown): Result<FfviiiSetup> {
  const spec = encounterSpecSchema.safeParse(specInput);
  if (!spec.success) return encounterInvalid(spec.error);
  const built = sidesFrom(
    library,
    spec.data.sides,
    (side) => side.combatants,
    SHEET_KINDS,
    (named, who, where) => {
      const sheet = combatantOf(library, named, where);
      if (!sheet.ok) return sheet;
      // The encounter's `hp:` is HP at the start; the sheet's stays the maximum.
      if (who.hp !== undefined && who.hp > sheet.value.hp)
        return err(
          'encounter/invalid',
          `${where}.hp: ${who.hp} is above ${sheet.value.name}'s maximum of ${sheet.value.hp} HP`,
        );
      return ok({
        ...sheet.value,
        id: who.id ?? sheet.value.id,
        name: who.name ?? sheet.value.name,
        ...(who.hp === undefined ? {} : { startHp: who.hp }),
        ...(who.position === undefined ? {} : { position: who.position }),
      });
    },
    (side, combatants) => ({ id: side.id, name: side.name, combatants }),
    ['hp'],
  );
  if (!built.ok) return built;
  const sides: FfviiiSetup['sides'] = built.value;
  const setup: FfviiiSetup = {
    sides,
    spells: entitiesById(library, spellKind),
    items: entitiesById(library, itemKind),
    guardianForces: entitiesById(library, guardianForceKind),
    powers: entitiesById(library, powerKind),
    blockedSight: spec.data.blockedSight,
    options: { ...optionsSchema.parse({}), ...spec.data.options },
  };
  const problem = setupProblem(setup);
  return problem === undefined ? ok(setup) : err('encounter/invalid', problem);
}

const SHEET_KINDS = { character: characterKind, monster: monsterKind };

/**
 * One character or monster sheet as a combatant, its weapons inlined: what an encounter file's
 * entry and the GM's `gm add` both build.
 */
function combatantOf(
  library: ContentLibrary,
  named: NamedSheet<SheetFile>,
  where: string,
): Result<CombatantSheet> {
  const { kind, id, sheet } = named;
  const weapons = [];
  for (const weaponId of sheet.weapons) {
    const weapon = library.get(weaponKind, weaponId);
    if (weapon === undefined)
      return err('encounter/unknown-content', `${where}: there is no ffviii/weapon '${weaponId}'`);
    weapons.push({ id: weaponId, ...entityFields(weapon) });
  }
  return ok({ ...entityFields(sheet), id, kind, weapons });
}

/** The sheet `gm add <content-id>` brings in: a character or a monster, as an encounter would. */
export function ffviiiNewcomer(library: ContentLibrary, contentId: string): Result<CombatantSheet> {
  const named = sheetById(library, SHEET_KINDS, contentId);
  if (!named.ok) return named;
  return combatantOf(library, named.value, contentId);
}

/** An FFVIII encounter from loaded content and an encounter spec, seeded. */
export function createFfviiiEncounter(
  library: ContentLibrary,
  spec: unknown,
  seed: number | string,
): Result<Encounter<FfviiiSetup, FfviiiState, FfviiiCommand, FfviiiEvent>> {
  const setup = ffviiiSetupFrom(library, spec);
  return setup.ok ? Encounter.create(ffviii, setup.value, seed) : setup;
}
