import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  encounterInvalid,
  entitiesById,
  idOrInline,
  type NamedSheet,
  sheetById,
  sidesFrom,
} from '../../content/encounter-sheets.js';
import { refersTo } from '../../content/fields.js';
import { type ContentReference, defineKind, entityFields } from '../../content/kind.js';
import type { ContentLibrary } from '../../content/library.js';
import { Encounter, ok, type Result } from '../../engine/index.js';
import type { ZodiacCommand } from './commands.js';
import type { ZodiacEvent } from './events.js';
import {
  type CombatantSheet,
  combatantSchema,
  itemSchema,
  optionsSchema,
  setupSchema,
  techSchema,
  weaponSchema,
  type ZodiacSetup,
} from './model.js';
import { zodiac } from './ruleset.js';
import type { ZodiacState } from './state.js';

/**
 * ZODIAC content kinds: one file per weapon, Tech, Potion, character and monster. Characters and
 * monsters name their weapon, Techs and Potions by id.
 */
export const weaponKind = defineKind({
  kind: 'zodiac/weapon',
  description:
    'A ZODIAC weapon: its die class, Attack Power, range, element and what a hit inflicts.',
  schema: weaponSchema,
});

export const techKind = defineKind({
  kind: 'zodiac/tech',
  description:
    'A ZODIAC Tech: a Weapon Tech (more damage dice and power) or a Magic Tech (attack magic, healing, revival, status effects), with its MP cost and target.',
  schema: techSchema,
});

export const itemKind = defineKind({
  kind: 'zodiac/item',
  description: 'A ZODIAC Potion: HP or MP restored, status effects cured, the Unconscious revived.',
  schema: itemSchema,
});

/** A sheet in a file: like a combatant, but the id is the file's and the weapon may be an id. */
const sheetSchema = combatantSchema.omit({ id: true, kind: true }).extend({
  weapon: z.union([refersTo('zodiac/weapon', z.string()), weaponSchema]).optional(),
});
type SheetFile = z.infer<typeof sheetSchema>;

const sheetReferences = (sheet: SheetFile): ContentReference[] => [
  ...(typeof sheet.weapon === 'string'
    ? [{ kind: 'zodiac/weapon', id: sheet.weapon, path: 'weapon' }]
    : []),
  ...sheet.techs.map((id, i) => ({ kind: 'zodiac/tech', id, path: `techs[${i}]` })),
  ...Object.keys(sheet.items).map((id) => ({ kind: 'zodiac/item', id, path: `items.${id}` })),
];

export const characterKind = defineKind({
  kind: 'zodiac/character',
  description:
    'A ZODIAC player character: HP, MP, Speed, Accuracy, Evade, Critical, Attack Power and Strength Dice, the magic statistics, weapon, Techs and Potions.',
  schema: sheetSchema,
  references: sheetReferences,
});

export const monsterKind = defineKind({
  kind: 'zodiac/monster',
  description:
    'A ZODIAC monster: its combat statistics, attack, flying or not, elemental affinities and status immunities.',
  schema: sheetSchema,
  references: sheetReferences,
});

export const zodiacKinds = [weaponKind, techKind, itemKind, characterKind, monsterKind] as const;

/** The starter content: Keef the Thief and the ogre, Diff the Biffer, Merlin, Potions, Techs. */
export const STARTER_CONTENT_DIR = fileURLToPath(
  new URL('../../../content/zodiac/', import.meta.url),
);

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/);

/** Who fights: content ids on each side, with optional per-combatant changes. */
export const encounterSpecSchema = z.strictObject({
  sides: z
    .array(
      z.strictObject({
        id: slug,
        name: z.string().min(1),
        party: z.boolean().default(false),
        combatants: z
          .array(
            z.strictObject({
              character: z.string().optional(),
              monster: z.string().optional(),
              /** Needed when the same sheet fights twice: `ogre-2`. */
              id: slug.optional(),
              name: z.string().optional(),
              hp: z.number().int().min(0).optional(),
              mp: z.number().int().min(0).optional(),
              /**
               * A monster's maximum HP in this fight, in place of its sheet's; it starts at it.
               * Damage Levels multiply it as they do the sheet's.
               */
              maxHp: z.number().int().min(1).max(9_999_999).optional(),
            }),
          )
          .min(1),
      }),
    )
    .min(2),
  options: optionsSchema.partial().default({}),
});
export type EncounterSpec = z.input<typeof encounterSpecSchema>;

type SpecCombatant = z.infer<typeof encounterSpecSchema>['sides'][number]['combatants'][number];

/**
 * One sheet as the combatant it fights as: its weapon inlined, with the encounter's changes
 * (`id`, `name`, starting `hp` and `mp`). An encounter file's combatants and `gm add`'s
 * newcomers are built by it alike.
 */
function combatantFrom(
  library: ContentLibrary,
  named: NamedSheet<SheetFile>,
  who: Partial<Pick<SpecCombatant, 'id' | 'name' | 'hp' | 'mp'>>,
): CombatantSheet {
  const { kind, id, sheet } = named;
  return {
    ...entityFields(sheet),
    id: who.id ?? id,
    kind,
    name: who.name ?? sheet.name,
    weapon: idOrInline(library, weaponKind, sheet.weapon),
    ...(who.hp === undefined ? {} : { hp: who.hp }),
    ...(who.mp === undefined ? {} : { mp: who.mp }),
  };
}

/**
 * The sheet `gm add <content-id>` brings in: a character or monster, as an encounter file
 * would build it, checked against the combatant schema the gm-add command carries.
 */
export function zodiacNewcomer(library: ContentLibrary, contentId: string): Result<CombatantSheet> {
  const named = sheetById(library, { character: characterKind, monster: monsterKind }, contentId);
  if (!named.ok) return named;
  const sheet = combatantSchema.safeParse(combatantFrom(library, named.value, {}));
  return sheet.success ? ok(sheet.data) : encounterInvalid(sheet.error);
}

/**
 * Resolves an encounter's content ids into the self-contained setup a ZODIAC encounter starts
 * from: sheets with their weapons inlined, and every Tech and Potion the content defines.
 */
export function zodiacSetupFrom(library: ContentLibrary, specInput: unknown): Result<ZodiacSetup> {
  const spec = encounterSpecSchema.safeParse(specInput);
  if (!spec.success) return encounterInvalid(spec.error);
  const techs = entitiesById(library, techKind);
  const items = entitiesById(library, itemKind);
  const sides = sidesFrom(
    library,
    spec.data.sides,
    (side) => side.combatants,
    { character: characterKind, monster: monsterKind },
    (named, who) => ok(combatantFrom(library, named, who)),
    (side, combatants) => ({ id: side.id, name: side.name, party: side.party, combatants }),
    ['stats', 'hp'],
  );
  if (!sides.ok) return sides;
  const setup = setupSchema.safeParse({
    sides: sides.value,
    techs,
    items,
    options: { ...optionsSchema.parse({}), ...spec.data.options },
  });
  if (!setup.success) return encounterInvalid(setup.error);
  return ok(setup.data);
}

/** A ZODIAC encounter from loaded content and an encounter spec, seeded. */
export function createZodiacEncounter(
  library: ContentLibrary,
  spec: unknown,
  seed: number | string,
): Result<Encounter<ZodiacSetup, ZodiacState, ZodiacCommand, ZodiacEvent>> {
  const setup = zodiacSetupFrom(library, spec);
  return setup.ok ? Encounter.create(zodiac, setup.value, seed) : setup;
}
