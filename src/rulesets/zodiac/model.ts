import { z } from 'zod';
import { formStartsAt, refersTo } from '../../content/fields.js';
import { AFFINITIES, type Affinity, ELEMENTS, type Element } from './elements.js';
import { STATUS_IDS, STATUSES, type StatusId } from './statuses.js';

/**
 * The data a ZODIAC encounter is made of, as schemas: the same shapes are content files (one
 * entity each) and, resolved, the setup an encounter starts from and a save file carries.
 */

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a lowercase id: letters, digits and -');

/** A die class, "(d8 die class)": the sides of the damage dice. */
export const DIE_CLASSES = [4, 6, 8, 10, 12, 20] as const;
export const dieClass = z.union(
  DIE_CLASSES.map((n) => z.literal(n)) as [
    z.ZodLiteral<4>,
    z.ZodLiteral<6>,
    z.ZodLiteral<8>,
    z.ZodLiteral<10>,
    z.ZodLiteral<12>,
    z.ZodLiteral<20>,
  ],
);

export const statusId = z.enum(STATUS_IDS);
export const elementId = z.enum(ELEMENTS);

/**
 * A status an attack or Tech inflicts. Temporary effects "wear off after a certain amount of
 * time, indicated in the attack that inflicted them": those need `ticks`; Permanent ones take none.
 */
export const statusApplicationSchema = z
  .strictObject({
    status: statusId,
    /** How many ticks a Temporary effect (or a positive one) lasts. */
    ticks: whole(1, 999).optional(),
    /**
     * `resist`: "d100 + Magic Accuracy equal to or greater than the target's Resist";
     * `automatic`: it lands with the hit (the poisonous dagger of the example). Positive
     * effects always land.
     */
    check: z.enum(['resist', 'automatic']).default('resist'),
  })
  .superRefine((a, ctx) => {
    const info = STATUSES[a.status];
    if (a.status === 'unconscious') {
      ctx.addIssue({
        code: 'custom',
        path: ['status'],
        message: 'Unconscious comes from damage (0 HP), not from an effect',
      });
    } else if (info.timed && a.ticks === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['ticks'],
        message: `${info.name} is Temporary: give its duration in ticks`,
      });
    } else if (!info.timed && info.polarity === 'negative' && a.ticks !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['ticks'],
        message: `${info.name} is ${info.duration === 'permanent' ? 'Permanent' : 'not timed in ticks'}: it takes no ticks`,
      });
    }
  });
export type StatusApplication = z.infer<typeof statusApplicationSchema>;

export const weaponSchema = z.strictObject({
  name: z.string().min(1),
  /** The die class: a Long Sword is d8. */
  die: dieClass,
  /** The weapon's share of the total Attack Power. */
  attackPower: whole(0, 99_999).default(0),
  /** "Characters with long-range weapons ignore this penalty" against flying targets. */
  range: z.enum(['short', 'long']).default('short'),
  element: elementId.optional(),
  /** Status effects a hit carries: Keef's poisonous dagger. */
  inflicts: z.array(statusApplicationSchema).default([]),
  description: z.string().optional(),
});
export type Weapon = z.infer<typeof weaponSchema>;

export const TECH_TARGETS = ['single', 'self', 'allies', 'enemies', 'all'] as const;
export type TechTarget = (typeof TECH_TARGETS)[number];

/** Dice and power a Tech adds: "Weapon Techs and Magical Attack Techs will increase your damage dice and attack power". */
const techDamageSchema = z.strictObject({
  /** Dice added to the user's Strength Dice (Weapon Techs) or Magic Dice (Magic Techs). */
  dice: whole(0, 50).default(0),
  /** Added to Attack Power (Weapon Techs) or MAP (Magic Techs). */
  power: whole(0, 99_999).default(0),
  /** A Magic Tech's die class; a Weapon Tech rolls its weapon's. */
  die: dieClass.optional(),
  element: elementId.optional(),
});

export const techSchema = z
  .strictObject({
    name: z.string().min(1),
    /**
     * `weapon`: an attack with the equipped weapon (rolled against Evade, long-range); `magic`:
     * a spell (damage by Magic Dice and MAP, statuses against Resist; a Wall reflects it).
     */
    type: z.enum(['weapon', 'magic']),
    mpCost: whole(0, 99_999).default(0),
    target: z.enum(TECH_TARGETS).default('single'),
    damage: techDamageSchema.optional(),
    /** Healing by the same formula as attack magic: (Magic Dice x 10) + MAP, plus the Tech's. */
    heal: techDamageSchema.omit({ element: true }).optional(),
    /** A Revive Tech (Life): an Unconscious target wakes with this share of its maximum HP. */
    revive: z.strictObject({ hpPercent: whole(1, 100) }).optional(),
    inflicts: z.array(statusApplicationSchema).default([]),
    cures: z.array(statusId).default([]),
    /** A Dispel Tech: removes the target's status effects of this polarity (never Unconscious). */
    dispel: z.enum(['negative', 'positive', 'all']).optional(),
    description: z.string().optional(),
  })
  .superRefine((tech, ctx) => {
    const needs = (ok: boolean, path: string, message: string): void => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    needs(
      tech.type !== 'weapon' || tech.damage !== undefined,
      'damage',
      'a Weapon Tech is an attack: give its damage (dice and power it adds)',
    );
    needs(
      tech.type !== 'weapon' || tech.damage?.die === undefined,
      'damage',
      "a Weapon Tech rolls its weapon's die class: leave out die",
    );
    needs(
      tech.type !== 'magic' || tech.damage === undefined || tech.damage.die !== undefined,
      'damage',
      'attack magic needs the die class of its Magic Dice (die: 8)',
    );
    needs(
      tech.heal === undefined || (tech.type === 'magic' && tech.heal.die !== undefined),
      'heal',
      'healing is magic, with the die class of its Magic Dice',
    );
    needs(
      tech.cures.every((s) => s !== 'unconscious'),
      'cures',
      'Unconscious is cured only by a revival: use revive',
    );
  });
export type Tech = z.infer<typeof techSchema>;

/** "All Potions are gone after one use." */
export const itemSchema = z.strictObject({
  name: z.string().min(1),
  restoreHp: whole(0, 99_999).default(0),
  restoreMp: whole(0, 99_999).default(0),
  cures: z
    .array(statusId)
    .default([])
    .refine((s) => !s.includes('unconscious'), 'Unconscious is cured by revive, not cures'),
  /** Phoenix Down, Phoenix Pinion: an Unconscious target wakes with this share of its maximum HP. */
  revive: z.strictObject({ hpPercent: whole(1, 100) }).optional(),
  description: z.string().optional(),
});
export type Item = z.infer<typeof itemSchema>;

export const affinitiesSchema = z
  .partialRecord(elementId, z.enum(AFFINITIES))
  .default({}) as unknown as z.ZodDefault<
  z.ZodType<Partial<Record<Element, Affinity>>, Partial<Record<Element, Affinity>>>
>;

/** The combat statistics of the chapter. HP and MP are maximums; combatants start full unless told. */
export const statsSchema = z.strictObject({
  hp: whole(1, 9_999_999),
  mp: whole(0, 9_999_999).default(0),
  // The chapter's example combatants have Speed 11 to 20 and Critical 95 to 97.
  speed: formStartsAt(whole(0, 999), 12),
  accuracy: whole(-999, 999),
  evade: whole(-999, 999),
  /** A natural d100 roll at or above this on a hit is a critical hit. */
  critical: formStartsAt(whole(1, 101), 96),
  /** Total Attack Power without the weapon: from Strength (halved unarmed). */
  attackPower: whole(0, 99_999),
  strengthDice: whole(1, 50).default(1),
  magicAccuracy: whole(-999, 999).default(0),
  resist: whole(-999, 999).default(0),
  magicDice: whole(0, 50).default(1),
  /** Magic Attack Power. */
  map: whole(0, 99_999).default(0),
});
export type Stats = z.infer<typeof statsSchema>;

/** One combatant as an encounter uses it: a character or monster sheet, resolved. */
export const combatantSchema = z.strictObject({
  id: slug,
  name: z.string().min(1),
  kind: z.enum(['character', 'monster']),
  stats: statsSchema,
  hp: whole(0, 9_999_999).optional().meta({ title: 'Current HP', description: 'If not full.' }),
  mp: whole(0, 9_999_999).optional().meta({ title: 'Current MP', description: 'If not full.' }),
  /** Absent: unarmed (d4, Strength halved). */
  weapon: weaponSchema.optional(),
  /** Flying monsters "will rarely come into melee range": short-range attacks take -60. */
  flying: z.boolean().default(false),
  techs: z.array(refersTo('zodiac/tech', z.string())).default([]),
  /** Potions carried, by item id: `{ potion: 3 }`. */
  items: z.record(refersTo('zodiac/item', z.string()), whole(0, 99)).default({}),
  affinities: affinitiesSchema,
  /** Status effects this combatant cannot suffer. */
  immunities: z.array(statusId).default([]),
  /** Status effects it comes into the battle with. */
  statuses: z
    .array(z.strictObject({ status: statusId, ticks: whole(1, 999).optional() }))
    .default([]),
});
export type CombatantSheet = z.infer<typeof combatantSchema>;

export const optionsSchema = z.strictObject({
  /**
   * The Damage Cap: `true` caps a blow at 999 "after figuring in weaknesses, resistances, etc";
   * a number caps it there instead (9999 with Damage Levels, say). Off by default, as in the text.
   */
  damageCap: z.union([z.boolean(), whole(1, 99_999_999)]).default(false),
  /** Damage Levels: how many zeroes are added to HP, damage and healing (0 to 3). */
  damageLevels: whole(0, 3).default(0),
  /** Wall's OPTIONAL rule: magic bounces to a random target on the caster's opposite side. */
  wallBounce: z.boolean().default(false),
  /** How long a Defend lasts: the rest of the round (the letter), or until the defender's next turn (rulings). */
  defendLasts: z.enum(['until-next-turn', 'rest-of-round']).default('rest-of-round'),
  /** Venom at the end of each of the victim's turns, or only its first turn each round (rulings). */
  venomTiming: z.enum(['each-turn', 'once-per-round']).default('each-turn'),
  /** Players enter their own characters' first-round 1d8 on their phones ("they each roll 1d8"). */
  playersRollSpeedPoints: z.boolean().default(true),
});
export type ZodiacOptions = z.infer<typeof optionsSchema>;

export const sideSchema = z.strictObject({
  id: slug,
  name: z.string().min(1),
  party: z.boolean().default(false),
  combatants: z.array(combatantSchema).min(1),
});

/** Everything a ZODIAC encounter starts from; self-contained, so a save file needs nothing else. */
export const setupSchema = z
  .object({
    sides: z.array(sideSchema).min(2),
    techs: z.record(z.string(), techSchema).default({}),
    items: z.record(z.string(), itemSchema).default({}),
    options: optionsSchema.default(optionsSchema.parse({})),
  })
  .superRefine((setup, ctx) => {
    const seen = new Set<string>();
    const sides = new Set<string>();
    setup.sides.forEach((side, s) => {
      if (sides.has(side.id))
        ctx.addIssue({
          code: 'custom',
          path: ['sides', s, 'id'],
          message: `side id '${side.id}' is used twice`,
        });
      sides.add(side.id);
      side.combatants.forEach((c, i) => {
        const at = ['sides', s, 'combatants', i];
        if (seen.has(c.id))
          ctx.addIssue({
            code: 'custom',
            path: [...at, 'id'],
            message: `combatant id '${c.id}' is used twice`,
          });
        seen.add(c.id);
        c.techs.forEach((t, j) => {
          if (!(t in setup.techs))
            ctx.addIssue({
              code: 'custom',
              path: [...at, 'techs', j],
              message: `unknown tech '${t}'`,
            });
        });
        for (const item of Object.keys(c.items)) {
          if (!(item in setup.items))
            ctx.addIssue({
              code: 'custom',
              path: [...at, 'items', item],
              message: `unknown item '${item}'`,
            });
        }
        c.statuses.forEach((st, j) => {
          const info = STATUSES[st.status as StatusId];
          if (info.timed && st.ticks === undefined)
            ctx.addIssue({
              code: 'custom',
              path: [...at, 'statuses', j, 'ticks'],
              message: `${info.name} is Temporary: give its duration in ticks`,
            });
        });
      });
    });
  });
export type ZodiacSetup = z.infer<typeof setupSchema>;
export type ZodiacSetupInput = z.input<typeof setupSchema>;
