import { z } from 'zod';
import { diceCode, refersTo } from '../../content/fields.js';
import { MAX_SIDE } from './grid/cells.js';

/**
 * The data a Shining Force encounter is made of, as schemas: content files (one entity each)
 * and, resolved, the setup an encounter starts from and a save file carries.
 */

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/);
const offset = z.tuple([whole(-MAX_SIDE, MAX_SIDE), whole(-MAX_SIDE, MAX_SIDE)]);

/** "Hit Points (HP), Magic Points (MP), Attack, Defence, Agility, Luck, Movement" */
export const statsSchema = z.strictObject({
  hp: whole(1, 999),
  mp: whole(0, 999),
  attack: whole(0, 999),
  defence: whole(0, 999),
  agility: whole(0, 999),
  luck: whole(0, 100),
  movement: whole(0, 20),
});
export type Stats = z.infer<typeof statsSchema>;

/** Bonuses an equipped weapon or accessory gives while it is equipped. */
export const bonusesSchema = z.strictObject({
  attack: whole(-999, 999).optional(),
  defence: whole(-999, 999).optional(),
  agility: whole(-999, 999).optional(),
  luck: whole(-100, 100).optional(),
  movement: whole(-20, 20).optional(),
});
export type Bonuses = z.infer<typeof bonusesSchema>;

/** A range or an area of effect: Manhattan distances, single cells, cells taken away. */
export const patternSchema = z.strictObject({
  name: z.string().min(1),
  distances: z.array(whole(0, MAX_SIDE)).max(MAX_SIDE).optional(),
  cells: z
    .array(offset)
    .max(MAX_SIDE * MAX_SIDE)
    .optional(),
  exclude: z
    .array(offset)
    .max(MAX_SIDE * MAX_SIDE)
    .optional(),
  description: z.string().optional(),
});
export type Pattern = z.infer<typeof patternSchema>;

/** The statuses the text names; what each does is mechanics, how long and how strong is data. */
export const STATUSES = [
  'charmed',
  'confused',
  'illusion',
  'paralysed',
  'poison',
  'sleep',
  'curse',
  'frozen',
] as const;
export type StatusName = (typeof STATUSES)[number];

/** What a curse does to whoever wears the item: "paralysis, hp loss and mp loss". */
export const curseSchema = z.strictObject({
  effect: z.enum(['paralysis', 'hp-loss', 'mp-loss']),
  /** HP or MP lost after each of the wearer's actions. */
  amount: whole(1, 999).optional(),
  /** Paralysis: the chance in 100 that the wearer's turn is lost. */
  chance: whole(1, 100).optional(),
});
export type Curse = z.infer<typeof curseSchema>;

/** "a percentage determined in a spell's description or in a monster's profile" */
export const infliction = z.strictObject({
  status: z.enum(STATUSES),
  chance: whole(0, 100),
  /** Turns of the victim it lasts; absent: until cured (Poison, Curse) or the status' own length. */
  turns: whole(1, 99).optional(),
  /** Poison: HP lost after each of the victim's actions ("determined by the poison's source"). */
  amount: whole(1, 999).optional(),
});
export type Infliction = z.infer<typeof infliction>;

/**
 * What a spell, or an item used, does to every combatant of the aimed-at side in its area: all
 * optional, so one effect can damage and poison, or heal and cure.
 */
export const effectFields = {
  /** The cells it can be aimed at from the user (a pattern id; resolved to offsets in a setup). */
  range: refersTo('shining-force/pattern', id).default('range-1'),
  /** The cells around the aimed-at cell it reaches (a pattern id). */
  area: refersTo('shining-force/pattern', id).default('single'),
  /** Whose combatants in the area it touches: Shining Force effects touch one side only. */
  aim: z.enum(['enemy', 'ally']),
  damage: whole(1, 999).optional(),
  heal: whole(1, 999).optional(),
  restoreMp: whole(1, 999).optional(),
  cures: z.array(z.enum(STATUSES)).max(STATUSES.length).default([]),
  inflicts: infliction.optional(),
  /** Instant defeat with this chance in 100 (Desoul), lowered by Luck as statuses are. */
  defeats: whole(1, 100).optional(),
};
export const effectSchema = z.strictObject(effectFields);
export type Effect = z.infer<typeof effectSchema>;

export const spellSchema = z.strictObject({
  name: z.string().min(1),
  mpCost: whole(1, 999),
  ...effectFields,
  description: z.string().optional(),
});
export type Spell = z.infer<typeof spellSchema>;

/** "a weapon that grants a specific critical hit": its own rate and what it does. */
export const specialCriticalSchema = z.strictObject({
  name: z.string().min(1),
  rate: whole(1, 100),
  damagePercent: whole(100, 1000).default(150),
  inflicts: infliction.optional(),
});
export type SpecialCritical = z.infer<typeof specialCriticalSchema>;

export const ITEM_TYPES = ['weapon', 'accessory', 'item'] as const;

/** A weapon, an accessory or an item: what it gives equipped, what it does used, its price. */
export const itemSchema = z.strictObject({
  name: z.string().min(1),
  type: z.enum(ITEM_TYPES),
  /** The list price: the store buys at half, repairs at a quarter, a priest lifts its curse at a quarter. */
  price: whole(0, 999_999),
  /** Weapons: the cells it attacks (a pattern id). */
  range: refersTo('shining-force/pattern', id).optional(),
  bonuses: bonusesSchema.default({}),
  specialCritical: specialCriticalSchema.optional(),
  /** What using it does (an action): healing herbs, a sword that casts Blaze. */
  use: effectSchema.optional(),
  /** One-time items (a Medical Herb) are used up; others may crack (d100 1-30) and then break. */
  consumable: z.boolean().default(false),
  curse: curseSchema.optional(),
  description: z.string().optional(),
});
export type Item = z.infer<typeof itemSchema>;

/** A class: its tier, what it promotes to, its stat gains per level (dice notation) as data. */
export const classSchema = z.strictObject({
  name: z.string().min(1),
  tier: whole(1, 3),
  /** The class it promotes to, if any. */
  promotesTo: refersTo('shining-force/class', id).optional(),
  /** "In the first class tier ... the maximum level is level 20." Absent: 99. */
  maxLevel: whole(1, 99).optional(),
  /** "possibly gaining statistic gains in hit points, magic points, attack, defence and agility" */
  gains: z.strictObject({
    hp: diceCode().default('0'),
    mp: diceCode().default('0'),
    attack: diceCode().default('0'),
    defence: diceCode().default('0'),
    agility: diceCode().default('0'),
  }),
  description: z.string().optional(),
});
export type ClassDefinition = z.infer<typeof classSchema>;

/** An item carried: which, and whether it has cracked. */
export const heldItemSchema = z.strictObject({
  item: id,
  cracked: z.boolean().default(false),
  equipped: z.boolean().default(false),
});
export type HeldItem = z.infer<typeof heldItemSchema>;

/** A monster's own attack: Force members must hold a weapon, monsters fight with what they are. */
export const naturalAttackSchema = z.strictObject({
  name: z.string().min(1),
  range: refersTo('shining-force/pattern', id).default('range-1'),
  inflicts: infliction.optional(),
});

/** A combatant as the setup carries it: stats, level, items, spells, where it stands. */
export const combatantSchema = z.strictObject({
  id,
  name: z.string().min(1),
  kind: z.enum(['force', 'monster']),
  class: id.optional(),
  level: whole(1, 99).default(1),
  exp: whole(0, 99).default(0),
  stats: statsSchema,
  /** Weapon mastery: how many levels of critical hit (1 to 3) the attacks roll for. */
  mastery: whole(1, 3).default(1),
  items: z.array(heldItemSchema).max(6).default([]),
  spells: z.array(id).default([]),
  attack: naturalAttackSchema.optional(),
  /** A monster's EXP to whoever defeats it, and its gold. */
  expReward: whole(0, 999).default(0),
  gold: whole(0, 999_999).default(0),
  at: z.string().regex(/^[A-Za-z]\d{1,2}$/),
  hp: whole(0, 999).optional(),
  mp: whole(0, 999).optional(),
  /**
   * Poisoned since an earlier battle, losing this many HP after each turn: Poison lasts until
   * the priest cures it, so it comes into the next battle.
   */
  poison: whole(1, 999).optional(),
});
export type CombatantSheet = z.infer<typeof combatantSchema>;

/** Turn order and the choices the text leaves open; docs/rulings.md says why each default. */
export const optionsSchema = z.strictObject({
  /** Each round every combatant's Agility is taken at 100 ± this percent, rolled (Shining Force II). */
  turnOrderSpread: whole(0, 100).default(50),
  /** Attack minus Defence never deals less than this. */
  minimumDamage: whole(0, 99).default(1),
  /** Damage percent of a level 1, 2 and 3 critical hit. */
  criticalDamagePercent: z
    .tuple([whole(100, 1000), whole(100, 1000), whole(100, 1000)])
    .default([150, 175, 200]),
  /** The rate of a level 1, 2 and 3 critical, in percent of the Critical statistic. */
  criticalRatePercent: z
    .tuple([whole(0, 100), whole(0, 100), whole(0, 100)])
    .default([100, 50, 25]),
  /**
   * How a caster with less Luck than the target loses status chance: 'multiply' takes 10% of
   * the chance per point (70% over 3 points: 51%), 'subtract' 10 points per point (40%).
   */
  statusLuck: z.enum(['multiply', 'subtract', 'none']).default('multiply'),
  /** Roll for cracking on every attack with a weapon, not only when its effect is used. */
  crackOnAttack: z.boolean().default(false),
  /** A counter needs the attacker within the defender's own reach. */
  counterNeedsReach: z.boolean().default(true),
  /** Combatants may pass through (not stop on) allies' cells. */
  passThroughAllies: z.boolean().default(true),
  /** After this many rounds the battle ends undecided, so every battle ends. */
  maxRounds: whole(1, 999).default(50),
  /** Players enter their own characters' turn-order dice on their phones (the text has the GM roll). */
  playersRollTurnOrder: z.boolean().default(false),
});
export type ShiningForceOptions = z.infer<typeof optionsSchema>;

export const terrainSchema = z.strictObject({
  name: z.string().min(1),
  /** Movement points to enter; null for impassable. */
  cost: whole(1, 9).nullable(),
});

export const DEFAULT_TERRAIN = {
  '.': { name: 'plain', cost: 1 },
  ',': { name: 'grass', cost: 1 },
  f: { name: 'forest', cost: 2 },
  h: { name: 'hills', cost: 2 },
  '~': { name: 'water', cost: null },
  '#': { name: 'rock', cost: null },
} as const;

export const battlefieldSchema = z
  .strictObject({
    rows: z.array(z.string().min(1).max(MAX_SIDE)).min(1).max(MAX_SIDE),
    terrain: z.record(z.string().length(1), terrainSchema).default({ ...DEFAULT_TERRAIN }),
  })
  .superRefine((field, ctx) => {
    // Zod still runs this when `rows` broke its own bounds (an empty list): that is reported.
    const first = field.rows[0];
    if (first === undefined) return;
    const width = first.length;
    field.rows.forEach((row, i) => {
      if (row.length !== width)
        ctx.addIssue({
          code: 'custom',
          path: ['rows', i],
          message: `every row is ${width} cells wide; this one is ${row.length}`,
        });
      for (const ch of row) {
        if (field.terrain[ch] === undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['rows', i],
            message: `'${ch}' is no terrain (known: ${Object.keys(field.terrain).join(' ')})`,
          });
      }
    });
  });
export type BattlefieldSpec = z.infer<typeof battlefieldSchema>;

const offsetsSchema = z.array(offset).max(MAX_SIDE * MAX_SIDE * 4);

/** What a setup carries: every pattern, spell and item its combatants use, resolved. */
export const setupSchema = z.strictObject({
  battlefield: battlefieldSchema,
  sides: z
    .array(
      z.strictObject({
        id,
        name: z.string().min(1),
        force: z.boolean().default(false),
        combatants: z.array(combatantSchema).min(1).max(40),
      }),
    )
    .min(2)
    .max(4),
  /** Pattern id to its offsets. */
  patterns: z.record(z.string(), offsetsSchema),
  spells: z.record(z.string(), spellSchema),
  items: z.record(z.string(), itemSchema),
  options: optionsSchema.default(optionsSchema.parse({})),
});
export type ShiningForceSetup = z.infer<typeof setupSchema>;
export type ShiningForceSetupInput = z.input<typeof setupSchema>;
