import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  encounterInvalid,
  entitiesById,
  idOrInline,
  type NamedSheet,
  sheetById,
  sheetMistake,
  sidesFrom,
} from '../../content/encounter-sheets.js';
import { refersTo } from '../../content/fields.js';
import { type ContentReference, defineKind, entityFields } from '../../content/kind.js';
import type { ContentLibrary } from '../../content/library.js';
import { Encounter, err, ok, type Result } from '../../engine/index.js';
import type { FfrpgCommand } from './commands.js';
import type { FfrpgEvent } from './events.js';
import {
  type Ability,
  abilitySchema,
  type CombatantSheet,
  combatantSchema,
  type FfrpgOptions,
  type FfrpgSetup,
  fixedEventSchema,
  levelTableSchema,
  optionsSchema,
  setupSchema,
  statusSchema,
  weaponSchema,
} from './model.js';
import { ffrpg } from './ruleset.js';
import { SKILL_GROUPS } from './skills.js';
import type { FfrpgState } from './state.js';

/**
 * FFRPG content kinds: one file per weapon, ability, Status Condition, Job, character,
 * monster and level table. Characters and monsters name their weapon, Job and abilities by id.
 */
export const weaponKind = defineKind({
  kind: 'ffrpg/weapon',
  description: 'An FFRPG weapon: its damage code, the Skill it uses, its damage type and Element.',
  schema: weaponSchema,
});

export const abilityKind = defineKind({
  kind: 'ffrpg/ability',
  description:
    'An FFRPG Ability: Fast, Slow, Reaction, Support or Magic, with its Target, cost, CoS and effects.',
  schema: abilitySchema,
  references: (a: Ability): ContentReference[] => [
    ...a.inflicts.map((x, i) => ({
      kind: 'ffrpg/status',
      id: x.status,
      path: `inflicts[${i}].status`,
    })),
    ...a.cures.map((id, i) => ({ kind: 'ffrpg/status', id, path: `cures[${i}]` })),
  ],
});

export const statusKind = defineKind({
  kind: 'ffrpg/status',
  description: 'An FFRPG Status Condition: positive or negative, its usual Timer and its effects.',
  schema: statusSchema,
});

const jobSchema = z.object({
  name: z.string().min(1),
  class: z.enum(['warrior', 'expert', 'mage', 'adept']),
  abilitySet: z.array(refersTo('ffrpg/ability', z.string())).default([]),
  description: z.string().optional(),
});

export const jobKind = defineKind({
  kind: 'ffrpg/job',
  description: 'An FFRPG Job: its Class and its Ability Set.',
  schema: jobSchema,
  references: (job: z.infer<typeof jobSchema>) =>
    job.abilitySet.map((id, i) => ({ kind: 'ffrpg/ability', id, path: `abilitySet[${i}]` })),
});

/** A sheet in a file: like a combatant, but the id is the file's and the weapon may be an id. */
const sheetSchema = combatantSchema.omit({ id: true, kind: true }).extend({
  weapon: z.union([refersTo('ffrpg/weapon', z.string()), weaponSchema]).optional(),
});
type SheetFile = z.infer<typeof sheetSchema>;

const sheetReferences = (sheet: SheetFile): ContentReference[] => [
  ...(typeof sheet.weapon === 'string'
    ? [{ kind: 'ffrpg/weapon', id: sheet.weapon, path: 'weapon' }]
    : []),
  ...(sheet.job === undefined ? [] : [{ kind: 'ffrpg/job', id: sheet.job, path: 'job' }]),
  ...sheet.abilities.map((id, i) => ({ kind: 'ffrpg/ability', id, path: `abilities[${i}]` })),
  ...sheet.statuses.map((s, i) => ({
    kind: 'ffrpg/status',
    id: s.status,
    path: `statuses[${i}].status`,
  })),
  ...sheet.immunities.map((id, i) => ({ kind: 'ffrpg/status', id, path: `immunities[${i}]` })),
];

export const characterKind = defineKind({
  kind: 'ffrpg/character',
  description:
    'An FFRPG player character: Attributes, Skills, Combat Statistics, Job, equipment and Abilities.',
  schema: sheetSchema,
  references: sheetReferences,
});

export const monsterKind = defineKind({
  kind: 'ffrpg/monster',
  description:
    'An FFRPG monster: Attributes, Combat Statistics, attack, Elemental affinities and rewards.',
  schema: sheetSchema,
  references: sheetReferences,
});

export const levelTableKind = defineKind({
  kind: 'ffrpg/level-table',
  description: 'The XP needed for each Level, 1 to 99.',
  schema: z.object({ levels: levelTableSchema }),
});

const skillSchema = z.object({
  /** As sheets write it: `Guns`, `Awareness`. */
  name: z.string().min(1),
  group: z.enum(SKILL_GROUPS),
  description: z.string().optional(),
});

export const skillKind = defineKind({
  kind: 'ffrpg/skill',
  description:
    'An FFRPG Skill and its group (Artistic, General, Scholastic, Social, Technical, Thievery, Weapons, Wilderness).',
  schema: skillSchema,
});

export const ffrpgKinds = [
  skillKind,
  weaponKind,
  abilityKind,
  statusKind,
  jobKind,
  characterKind,
  monsterKind,
  levelTableKind,
] as const;

/** The starter content from the Playguide: the Wind Cave party, the Heket, Darkside and friends. */
export const STARTER_CONTENT_DIR = fileURLToPath(
  new URL('../../../content/ffrpg/', import.meta.url),
);

/** Who fights: content ids on each side, with optional per-combatant changes. */
export const encounterSpecSchema = z.strictObject({
  mode: z.enum(['battle', 'scene']).default('battle'),
  sides: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
        name: z.string().min(1),
        party: z.boolean().default(false),
        combatants: z
          .array(
            z.strictObject({
              character: z.string().optional(),
              monster: z.string().optional(),
              /** Needed when the same sheet fights twice: `heket-2`. */
              id: z
                .string()
                .regex(/^[a-z0-9][a-z0-9-]*$/)
                .optional(),
              name: z.string().optional(),
              hp: z.number().int().min(0).optional(),
              mp: z.number().int().min(0).optional(),
              /** A monster's maximum HP in this fight, in place of its sheet's; it starts at it. */
              maxHp: z.number().int().min(1).max(99_999).optional(),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
  levelTable: z.string().optional(),
  events: z.array(fixedEventSchema).default([]),
  options: optionsSchema.partial().default({}),
});
export type EncounterSpec = z.input<typeof encounterSpecSchema>;

const SHEET_KINDS = { character: characterKind, monster: monsterKind };

/**
 * One sheet from content as a combatant: its weapon inlined, its Skills and Job checked. The
 * encounter file's entries and `gm add` both build combatants here, so a newcomer is exactly
 * what the same id in an encounter file would give.
 */
function combatantFrom(
  library: ContentLibrary,
  named: NamedSheet<SheetFile>,
  who: {
    id?: string | undefined;
    name?: string | undefined;
    hp?: number | undefined;
    mp?: number | undefined;
  },
  where: string,
): Result<CombatantSheet> {
  const { kind, id, sheet } = named;
  const skillNames = new Set(library.all(skillKind).map((skill) => skill.name));
  // Sheets name Skills as people write them; each must be a Skill the content defines.
  const unknownSkills = Object.keys(sheet.skills).filter((name) => !skillNames.has(name));
  if (unknownSkills.length > 0) {
    const known = [...skillNames].sort().join(', ') || 'none';
    return sheetMistake(
      library,
      named,
      SHEET_KINDS,
      ['skills', unknownSkills[0]!],
      `${sheet.name} has Skills no ffrpg/skill defines: ${unknownSkills.join(', ')} (defined: ${known}) (${where})`,
    );
  }
  const job = sheet.job === undefined ? undefined : library.get(jobKind, sheet.job);
  const outside =
    job === undefined ? [] : sheet.abilities.filter((a) => !job.abilitySet.includes(a));
  if (job !== undefined && outside.length > 0) {
    return sheetMistake(
      library,
      named,
      SHEET_KINDS,
      ['abilities', sheet.abilities.indexOf(outside[0]!)],
      `${sheet.name}'s Job ${job.name} has no ${outside.join(', ')} in its Ability Set (${job.abilitySet.join(', ') || 'empty'}) (${where})`,
    );
  }
  return ok({
    ...entityFields(sheet),
    id: who.id ?? id,
    kind,
    name: who.name ?? sheet.name,
    weapon: idOrInline(library, weaponKind, sheet.weapon),
    ...(who.hp === undefined ? {} : { hp: who.hp }),
    ...(who.mp === undefined ? {} : { mp: who.mp }),
  });
}

/** The sheet `gm add <content-id>` brings in: a character's or a monster's, as a combatant. */
export function ffrpgNewcomer(library: ContentLibrary, contentId: string): Result<CombatantSheet> {
  const named = sheetById(library, SHEET_KINDS, contentId);
  if (!named.ok) return named;
  const built = combatantFrom(library, named.value, {}, contentId);
  if (!built.ok) return built;
  const parsed = combatantSchema.safeParse(built.value);
  return parsed.success ? ok(parsed.data) : encounterInvalid(parsed.error);
}

/**
 * Resolves an encounter's content ids into the self-contained setup an FFRPG encounter starts
 * from: sheets with their weapons inlined, and every ability and Status Condition they can use.
 */
export function ffrpgSetupFrom(library: ContentLibrary, specInput: unknown): Result<FfrpgSetup> {
  const spec = encounterSpecSchema.safeParse(specInput);
  if (!spec.success) return encounterInvalid(spec.error);
  const statuses = entitiesById(library, statusKind);
  const abilities = entitiesById(library, abilityKind);
  const sides = sidesFrom(
    library,
    spec.data.sides,
    (side) => side.combatants,
    SHEET_KINDS,
    (named, who, where) => combatantFrom(library, named, who, where),
    (side, combatants): FfrpgSetup['sides'][number] => ({
      id: side.id,
      name: side.name,
      party: side.party,
      combatants,
    }),
    ['stats', 'hp'],
  );
  if (!sides.ok) return sides;
  const table =
    spec.data.levelTable === undefined
      ? undefined
      : library.get<{ levels: FfrpgSetup['levelTable'] }>(levelTableKind, spec.data.levelTable);
  if (spec.data.levelTable !== undefined && table === undefined) {
    return err(
      'encounter/unknown-content',
      `levelTable: there is no level table '${spec.data.levelTable}'`,
    );
  }
  const setup = setupSchema.safeParse({
    mode: spec.data.mode,
    sides: sides.value,
    abilities,
    statuses,
    levelTable: table?.levels,
    events: spec.data.events,
    options: { ...optionsSchema.parse({}), ...spec.data.options } satisfies FfrpgOptions,
  });
  if (!setup.success) return encounterInvalid(setup.error);
  return ok(setup.data);
}

/** An FFRPG encounter from loaded content and an encounter spec, seeded. */
export function createFfrpgEncounter(
  library: ContentLibrary,
  spec: unknown,
  seed: number | string,
): Result<Encounter<FfrpgSetup, FfrpgState, FfrpgCommand, FfrpgEvent>> {
  const setup = ffrpgSetupFrom(library, spec);
  return setup.ok ? Encounter.create(ffrpg, setup.value, seed) : setup;
}
