import { z } from 'zod';
import { refersTo } from '../../content/fields.js';

/** Ids as content files and encounters write them: `ehlric`, `iron-giant`. */
export const idSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits, -');
const int = z.number().int();

/** Names a status may take: the text names no statuses, so any short word will do. */
export const STATUS_NAME = /^[a-z][a-z0-9-]{0,29}$/;
const rating = int.min(0).max(999);

export const ELEMENTS = [
  'fire',
  'ice',
  'lightning',
  'earth',
  'water',
  'wind',
  'poison',
  'holy',
] as const;
export type Element = (typeof ELEMENTS)[number];

/**
 * A weapon: the Skills it may be used with ("Martial Arts or Weapon Focus for melee weapons,
 * Guns or Weapon Focus for ranged attacks"), its damage rating, and for a gun its kind, which
 * sets the Reload cost.
 */
export const GUN_KINDS = ['pistol', 'automatic-rifle', 'smg', 'shotgun', 'rifle', 'revolver'];
export const weaponSchema = z.strictObject({
  name: z.string().min(1),
  skills: z.array(idSchema).min(1),
  /** "His Strength of 8 + 4 for the weapon type": `strength: true, bonus: 4`; a gun: a number. */
  damage: z.strictObject({
    strength: z.boolean().default(false),
    bonus: rating.default(0),
  }),
  /** Shots an attack with it takes; the text's regular attack is 4. */
  shots: int.min(1).max(20).default(4),
  gun: z
    .strictObject({
      kind: z.enum(GUN_KINDS as [string, ...string[]]),
      capacity: int.min(1).max(200),
    })
    .optional(),
  description: z.string().optional(),
});
export type Weapon = z.infer<typeof weaponSchema>;

/**
 * What a spell, an item, a Guardian Force or an ability does to its target. Damage ratings of
 * spells add the caster's Sorcery Action Value ("Thunder has a damage of 15 (Sorcery AV +5)").
 */
export const effectSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('damage'),
    type: z.enum(['physical', 'magical']).default('magical'),
    rating: rating,
    element: z.enum(ELEMENTS).optional(),
  }),
  z.strictObject({ kind: z.literal('heal'), amount: rating }),
]);
export type Effect = z.infer<typeof effectSchema>;

export const spellSchema = z.strictObject({
  name: z.string().min(1),
  /** Added to the caster's Sorcery Action Value: the spell's damage rating or healing. */
  power: rating,
  effect: z.enum(['damage', 'heal']),
  element: z.enum(ELEMENTS).optional(),
  /** Healing and other help is cast on willing targets: any positive result succeeds. */
  willing: z.boolean().default(false),
  description: z.string().optional(),
});
export type Spell = z.infer<typeof spellSchema>;

export const itemSchema = z.strictObject({
  name: z.string().min(1),
  effect: effectSchema,
  /** Potions go to willing targets; a thrown grenade to unwilling ones (a check against Dodge). */
  willing: z.boolean(),
  /** "some items that mimic spells or destructive effects can be dangerous on a critical failure" */
  dangerous: z.boolean().default(false),
  description: z.string().optional(),
});
export type Item = z.infer<typeof itemSchema>;

export const guardianForceSchema = z.strictObject({
  name: z.string().min(1),
  /** "Each Guardian Force has a shot cost of up to 10 just to summon it" */
  summonShots: int.min(0).max(10),
  ability: z.strictObject({
    name: z.string().min(1),
    /** "the actual Guardian Force ability has a Shot Cost as well" */
    shots: int.min(0).max(20),
    /** Damage rating of the ability, against Spirit. */
    rating,
    element: z.enum(ELEMENTS).optional(),
  }),
  description: z.string().optional(),
});
export type GuardianForce = z.infer<typeof guardianForceSchema>;

/**
 * A power used "before anyone rolls initiative" (the text: "Any powers that affect the
 * Initiative roll must be used at this time").
 */
export const powerSchema = z.strictObject({
  name: z.string().min(1),
  timing: z.literal('before-initiative'),
  /** Added to this round's initiative. */
  initiative: int.min(-20).max(20),
  /** Uses per encounter. */
  uses: int.min(1).max(99).default(1),
  description: z.string().optional(),
});
export type Power = z.infer<typeof powerSchema>;

/**
 * A Skill on a sheet: an Attribute plus points ("Reflexes 8 + Martial arts 3" = AV 11), or a
 * monster's plain Action Value. Combat Skills count toward the Dodge score.
 */
export const skillSchema = z
  .strictObject({
    attribute: idSchema.optional(),
    bonus: int.min(0).max(30).optional(),
    actionValue: int.min(0).max(40).optional(),
    combat: z.boolean().default(false),
  })
  .refine((s) => (s.actionValue === undefined) !== (s.attribute === undefined), {
    message: 'give either actionValue, or attribute with bonus',
  });
export type Skill = z.infer<typeof skillSchema>;

/** The Attributes the rules read; sheets may list others that Skills are based on. */
export const attributesSchema = z
  .strictObject({
    speed: int.min(0).max(30),
    strength: int.min(0).max(60),
    toughness: int.min(0).max(60),
    spirit: int.min(0).max(60),
    evade: int.min(0).max(30),
    magicEvade: int.min(0).max(30),
  })
  .catchall(int.min(0).max(60));

export const sheetFields = {
  name: z.string().min(1),
  /** Hit points: the text's Health chapter is missing; see docs/rulings.md. */
  hp: int.min(1).max(9999),
  attributes: attributesSchema,
  skills: z.record(idSchema, skillSchema).default({}),
  /** A fixed Dodge rating ("The Iron Giant's Dodge rating is 6"); otherwise from the option. */
  dodge: int.min(0).max(40).optional(),
  /** Spirit against an element it is weak to ("Against lightning attacks, its spirit is reduced to 3"). */
  elementalSpirit: z.partialRecord(z.enum(ELEMENTS), int.min(0).max(60)).default({}),
  weapons: z.array(refersTo('ffviii/weapon', idSchema)).default([]),
  /** The Spell Matrix: spells in stock, by id. */
  spellMatrix: z.record(refersTo('ffviii/spell', idSchema), int.min(0).max(100)).default({}),
  items: z.record(refersTo('ffviii/item', idSchema), int.min(0).max(99)).default({}),
  guardianForces: z
    .array(
      z.strictObject({
        gf: refersTo('ffviii/guardian-force', idSchema),
        compatibility: int.min(0).max(10),
      }),
    )
    .default([]),
  powers: z.array(refersTo('ffviii/power', idSchema)).default([]),
  /** Spellshards a monster carries: what Draw can take and Sense reveals. */
  spellshards: z.array(refersTo('ffviii/spell', idSchema)).default([]),
  description: z.string().optional(),
};

export const DODGE_FORMULAS = ['combat-skill-plus-evade', 'evade'] as const;

export const optionsSchema = z.strictObject({
  /**
   * "The dodge score is the character's highest combat skill bonus + their evade attribute"
   * against "The dodge rating of any target is simply his or her Evade attribute".
   */
  dodgeFormula: z.enum(DODGE_FORMULAS).default('combat-skill-plus-evade'),
  /** When boxcars are a critical failure: see action-dice.ts. */
  boxcars: z.enum(['failure-only', 'always']).default('failure-only'),
  /** Spells one successful Draw puts into the Spell Matrix. */
  shardsPerDraw: int.min(1).max(10).default(1),
  /** "Dodging raises a character's Dodge score by 3 points." */
  dodgeBonus: int.min(0).max(10).default(3),
  /** Players enter their own characters' initiative die on their phones ("Fnord rolls the initiative dice"). */
  playersRollInitiative: z.boolean().default(true),
});
export type FfviiiOptions = z.infer<typeof optionsSchema>;

/** A combatant as an encounter uses it: the sheet with every weapon inlined. */
export const combatantSchema = z.strictObject({
  ...sheetFields,
  id: idSchema,
  kind: z.enum(['character', 'monster']),
  /**
   * HP at the start when an encounter gives it (`hp: 20`, "current HP at the start"); the
   * sheet's `hp` stays the maximum, so healing can bring it back up to the sheet's value.
   */
  startHp: int.min(0).max(9999).optional(),
  /** Rounds in each gun at the start, by weapon id, when not full: a campaign's carried ammunition. */
  startAmmo: z.record(idSchema, int.min(0).max(200)).optional(),
  /** Statuses it comes with, held until the GM ends them: a campaign's lasting ones. */
  startStatuses: z.array(z.string().regex(STATUS_NAME, 'a status: one lower-case word')).optional(),
  weapons: z.array(z.strictObject({ id: idSchema, ...weaponSchema.shape })).default([]),
  /** Where it stands, in yards, when the encounter maps distance (spell range). */
  position: z.strictObject({ x: z.number(), y: z.number() }).optional(),
});
export type CombatantSheet = z.infer<typeof combatantSchema>;

export const setupSchema = z.strictObject({
  sides: z
    .array(
      z.strictObject({
        id: idSchema,
        name: z.string().min(1),
        combatants: z.array(combatantSchema).min(1),
      }),
    )
    .min(2),
  spells: z.record(idSchema, spellSchema).default({}),
  items: z.record(idSchema, itemSchema).default({}),
  guardianForces: z.record(idSchema, guardianForceSchema).default({}),
  powers: z.record(idSchema, powerSchema).default({}),
  /** Pairs of combatants with a solid, opaque barrier between them: no spells either way. */
  blockedSight: z.array(z.tuple([idSchema, idSchema])).default([]),
  options: optionsSchema.default(optionsSchema.parse({})),
});
export type FfviiiSetup = z.infer<typeof setupSchema>;
