import { z } from 'zod';
import { diceCode, refersTo } from '../../content/fields.js';
import { type DiceAst, parseDice, rollsDice, variablesUsed } from '../../dice/index.js';
import { AFFINITIES, ELEMENT_ALIASES, ELEMENTS, type Element } from './elements.js';

/**
 * The data an FFRPG encounter is made of, as schemas: the same shapes are content files (one
 * entity each) and, resolved, the setup an encounter starts from and a save file carries.
 */

export const ATTRIBUTES = ['STR', 'VIT', 'AGI', 'SPD', 'MAG', 'SPR'] as const;
export type Attribute = (typeof ATTRIBUTES)[number];

const whole = (min: number, max: number) => z.number().int().min(min).max(max);

/** The names FFRPG damage codes and CoS formulas may use. */
export const FORMULA_VARIABLES = [
  'STR',
  'VIT',
  'AGI',
  'SPD',
  'MAG',
  'SPR',
  'LVL',
  'ACC',
  'MACC',
  'SKILL',
] as const;

/**
 * A dice field: checked by the dice engine when the data is read, kept as its notation. Its
 * variables must be ones FFRPG gives, so `2*AGL + d12` fails at load, not in the middle of a fight.
 */
export const diceNotation = diceCode().superRefine((notation, ctx) => {
  let ast: DiceAst;
  try {
    ast = parseDice(notation).ast;
  } catch {
    return; // diceCode() has reported it
  }
  const unknown = variablesUsed(ast).filter(
    (name) => !(FORMULA_VARIABLES as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown variable ${unknown.map((n) => `'${n}'`).join(', ')} in "${notation}": FFRPG gives ${FORMULA_VARIABLES.join(', ')}`,
    });
  }
});

/** A CoS formula: arithmetic on statistics, no dice (the d% is rolled against it). */
export const cosFormula = diceNotation.superRefine((notation, ctx) => {
  try {
    if (rollsDice(parseDice(notation).ast)) {
      ctx.addIssue({ code: 'custom', message: `a CoS formula rolls no dice; "${notation}" does` });
    }
  } catch {
    // reported already
  }
});

export const elementName = z.string().transform((name, ctx) => {
  const key = name.trim().toLowerCase();
  const element = (ELEMENTS as readonly string[]).includes(key)
    ? (key as Element)
    : ELEMENT_ALIASES[key];
  if (element === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown element '${name}': one of ${ELEMENTS.join(', ')} (wind = air, poison = bio)`,
    });
    return z.NEVER;
  }
  return element;
});

export const attributesSchema = z.strictObject(
  Object.fromEntries(ATTRIBUTES.map((a) => [a, whole(1, 30)])) as Record<Attribute, z.ZodNumber>,
);

/** Combat Statistics. HP and MP here are the maximums; a combatant starts full unless told. */
export const combatStatsSchema = z.strictObject({
  hp: whole(1, 99_999),
  mp: whole(0, 99_999).default(0),
  acc: whole(0, 999).default(0),
  macc: whole(0, 999).default(0),
  eva: whole(0, 999).default(0),
  meva: whole(0, 999).default(0),
  arm: whole(0, 999).default(0),
  marm: whole(0, 999).default(0),
});

export const damageKind = z.enum(['physical', 'magical']);

export const weaponSchema = z.strictObject({
  name: z.string().min(1),
  /** Damage code, such as `2*AGI + d12` (Damage Scale x Attribute + Damage Die). */
  damage: diceNotation,
  /** The Skill whose rating adds to Accuracy for the CoS (Guns for the Valiant Rifle). */
  skill: z.string().optional(),
  /** Physical (STR or AGI, against ARM and EVA) or Magical (MAG, against M. ARM and M. EVA). */
  damageType: damageKind.default('physical'),
  element: elementName.optional(),
});
export type Weapon = z.infer<typeof weaponSchema>;

export const TARGETS = ['self', 'single', 'group', 'party', 'all'] as const;
export type TargetType = (typeof TARGETS)[number];

/** What protects against an effect, and what its CoS is. */
export const cosSchema = z.discriminatedUnion('kind', [
  /** No roll: the effect always happens. */
  z.strictObject({ kind: z.literal('automatic') }),
  /** A Flat CoS: nothing modifies it. */
  z.strictObject({ kind: z.literal('flat'), percent: whole(0, 100) }),
  /**
   * `(Base CoS + Modifier), Evasion`: a formula over the user's statistics (ACC, MACC, SKILL, the
   * Attributes), minus the target's EVA or M. EVA when `guard` names one.
   */
  z.strictObject({
    kind: z.literal('formula'),
    formula: cosFormula,
    guard: z.enum(['eva', 'meva']).optional(),
  }),
]);
export type Cos = z.infer<typeof cosSchema>;

/**
 * Damage read from the target: "an attack which causes damage equivalent to 50% of the target's
 * HP" (the Damage Cap). A share of its current or maximum HP or MP, rounded down, when the
 * effect goes off; the rest of the pipeline (armour unless ignored, the Cap) applies as to any
 * damage.
 */
export const targetShareSchema = z.strictObject({
  percent: whole(1, 1000),
  of: z.enum(['hp', 'max-hp', 'mp', 'max-mp']),
});
export type TargetShare = z.infer<typeof targetShareSchema>;

export const damageEffectSchema = z.strictObject({
  /** A damage code; absent: the user's weapon damage (a basic Attack's damage), or `share`. */
  code: diceNotation.optional(),
  /** Instead of a code: a share of the target's HP or MP (no damage roll). */
  share: targetShareSchema.optional(),
  damageType: damageKind.default('physical'),
  element: elementName.optional(),
  /** Percentages in steps of 25, added to the others before they apply: Darkside is +100. */
  percent: z.number().int().multipleOf(25).default(0),
  ignoresArmor: z.boolean().default(false),
  /** The Damage Cap of 999 does not apply: the text says such effects state it. */
  ignoresCap: z.boolean().default(false),
  /** Damage to MP instead of HP ("The same also applies to attacks that damage the target's MP"). */
  pool: z.enum(['hp', 'mp']).default('hp'),
});

export const statusApplicationSchema = z.strictObject({
  status: refersTo('ffrpg/status', z.string()),
  /** Overrides the status's usual Timer; `infinite` for (∞). */
  timer: z.union([whole(1, 999), z.literal('infinite')]).optional(),
  cos: cosSchema.default({ kind: 'automatic' }),
});

export const costSchema = z.strictObject({
  /** Hit Points paid, as a percentage of maximum HP (Darkside: 25). */
  hpPercent: whole(0, 100).default(0),
});

/** Passive effects of Support abilities and Status Conditions. */
export const passiveEffectSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('stat-bonus'),
    stat: z.enum(['acc', 'macc', 'eva', 'meva', 'arm', 'marm']),
    amount: z.number().int(),
  }),
  /** Damage this combatant deals, in percent (steps of 25), optionally only with one weapon Skill. */
  z.strictObject({
    kind: z.literal('damage-dealt-percent'),
    percent: z.number().int().multipleOf(25),
    skill: z.string().optional(),
  }),
  /** Damage this combatant takes after armour: Protect and Shell are barriers of this kind. */
  z.strictObject({
    kind: z.literal('damage-taken-percent'),
    damage: damageKind,
    percent: z.number().int().multipleOf(25),
  }),
  z.strictObject({
    kind: z.literal('initiative-percent'),
    percent: z.number().int().multipleOf(25),
  }),
  /** Cannot take actions (its turns are skipped) and cannot react. */
  z.strictObject({ kind: z.literal('cannot-act') }),
  /** Counts as out of the fight for deciding the battle (Petrify, Stop at the GM's choice). */
  z.strictObject({ kind: z.literal('incapacitated') }),
  z.strictObject({ kind: z.literal('ends-on-damage') }),
  z.strictObject({ kind: z.literal('status-phase-damage'), percentOfMaxHp: whole(1, 100) }),
  z.strictObject({ kind: z.literal('status-phase-heal'), percentOfMaxHp: whole(1, 100) }),
]);
export type PassiveEffect = z.infer<typeof passiveEffectSchema>;

export const ABILITY_TYPES = ['fast', 'slow', 'reaction', 'support', 'magic'] as const;
export const REACTION_TRIGGERS = [
  'attacked',
  'physical-damage',
  'magical-damage',
  'spell-cast-at',
] as const;
export type ReactionTrigger = (typeof REACTION_TRIGGERS)[number];

export const abilitySchema = z
  .object({
    name: z.string().min(1),
    type: z.enum(ABILITY_TYPES),
    /** Slow (n): the Charge Time before the effect. */
    chargeTime: whole(1, 99).optional(),
    /** Magic abilities that are Slow too (most Spells in the full rules) give both. */
    slow: z.boolean().default(false),
    target: z.enum(TARGETS).default('single'),
    mpCost: whole(0, 9999).default(0),
    cost: costSchema.default({ hpPercent: 0 }),
    cos: cosSchema.default({ kind: 'automatic' }),
    damage: damageEffectSchema.optional(),
    heal: z.strictObject({ code: diceNotation }).optional(),
    inflicts: z.array(statusApplicationSchema).default([]),
    cures: z.array(refersTo('ffrpg/status', z.string())).default([]),
    /** Reaction abilities: what sets them off, and what they do (a counter-attack). */
    trigger: z.enum(REACTION_TRIGGERS).optional(),
    reaction: z.enum(['counter-attack']).optional(),
    /** Support abilities: always in effect. */
    passive: z.array(passiveEffectSchema).default([]),
    description: z.string().optional(),
  })
  .superRefine((ability, ctx) => {
    const needs = (ok: boolean, path: string, message: string): void => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    const slow = ability.type === 'slow' || ability.slow;
    needs(
      !slow || ability.chargeTime !== undefined,
      'chargeTime',
      'a Slow ability needs its Charge Time',
    );
    needs(
      ability.damage?.code === undefined || ability.damage.share === undefined,
      'damage',
      'damage is a code or a share of the target, not both',
    );
    needs(
      ability.type !== 'reaction' || ability.trigger !== undefined,
      'trigger',
      'a Reaction needs a trigger',
    );
    needs(
      ability.type !== 'reaction' || ability.reaction !== undefined,
      'reaction',
      'a Reaction needs what it does',
    );
    needs(
      ability.type !== 'support' || ability.passive.length > 0,
      'passive',
      'a Support ability needs its passive effects',
    );
  });
export type Ability = z.infer<typeof abilitySchema>;

export const statusSchema = z.strictObject({
  name: z.string().min(1),
  polarity: z.enum(['positive', 'negative']),
  /** The usual Timer when an effect does not give one. */
  timer: z.union([whole(1, 999), z.literal('infinite')]).default(4),
  effects: z.array(passiveEffectSchema).default([]),
  description: z.string().optional(),
});
export type StatusDefinition = z.infer<typeof statusSchema>;

export const affinitiesSchema = z
  .record(z.string(), z.enum(AFFINITIES))
  .default({})
  .transform((record, ctx) => {
    const out: Partial<Record<Element, (typeof AFFINITIES)[number]>> = {};
    for (const [name, affinity] of Object.entries(record)) {
      const key = name.trim().toLowerCase();
      const element = (ELEMENTS as readonly string[]).includes(key)
        ? (key as Element)
        : ELEMENT_ALIASES[key];
      if (element === undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: `unknown element '${name}'` });
        continue;
      }
      out[element] = affinity;
    }
    return out;
  });

/** One combatant as an encounter uses it: a character or monster sheet, resolved. */
export const combatantSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a lowercase id: letters, digits and -'),
  name: z.string().min(1),
  kind: z.enum(['character', 'monster']),
  level: whole(1, 99).default(1),
  xp: whole(0, 99_999_999).default(0),
  job: refersTo('ffrpg/job', z.string()).optional(),
  attributes: attributesSchema,
  skills: z.record(z.string(), whole(1, 100)).default({}),
  stats: combatStatsSchema,
  /** Current HP and MP when the fight starts, if not full. */
  hp: whole(0, 99_999).optional().meta({ title: 'Current HP', description: 'If not full.' }),
  mp: whole(0, 99_999).optional().meta({ title: 'Current MP', description: 'If not full.' }),
  weapon: weaponSchema.optional(),
  abilities: z.array(refersTo('ffrpg/ability', z.string())).default([]),
  affinities: affinitiesSchema,
  /** Status Conditions this combatant cannot suffer. */
  immunities: z.array(refersTo('ffrpg/status', z.string())).default([]),
  statuses: z.array(statusApplicationSchema.omit({ cos: true })).default([]),
  /**
   * What beating it gives the winners: "items, money and Experience Points (XP)". Items are
   * named as the table writes them; the Playguide gives them no rules of their own.
   */
  rewards: z
    .object({
      xp: whole(0, 9_999_999).default(0),
      gil: whole(0, 9_999_999).default(0),
      items: z
        .array(z.strictObject({ name: z.string().min(1), count: whole(1, 99).default(1) }))
        .default([]),
    })
    .default({ xp: 0, gil: 0, items: [] }),
});
export type CombatantSheet = z.infer<typeof combatantSchema>;

export const levelTableSchema = z
  .array(z.strictObject({ level: whole(1, 99), xp: whole(0, 99_999_999) }))
  .min(1)
  .superRefine((rows, ctx) => {
    rows.forEach((row, i) => {
      if (row.level !== i + 1)
        ctx.addIssue({ code: 'custom', path: [i, 'level'], message: `expected level ${i + 1}` });
      if (i > 0 && row.xp <= rows[i - 1]!.xp) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'xp'],
          message: 'XP thresholds must rise with each level',
        });
      }
    });
  });
export type LevelTable = z.infer<typeof levelTableSchema>;

/** A fixed-Initiative event: "The floorboards will collapse on Initiative Count 14." */
export const fixedEventSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  name: z.string().min(1),
  initiative: whole(0, 999),
  /** The round it happens in; absent: the first round. What it does is the GM's to narrate. */
  round: whole(1, 9999).optional(),
});
export type FixedEvent = z.infer<typeof fixedEventSchema>;

export const optionsSchema = z.strictObject({
  /** 95-100 Botches and fails even when the CoS is 95 or more. */
  botchAlwaysFails: z.boolean().default(true),
  /** Percentage added to the damage of a Critical Hit. */
  criticalDamagePercent: z.number().int().multipleOf(25).default(100),
  /** On equal Initiative, who goes first: see docs/rulings.md. */
  initiativeTies: z.enum(['speed-then-party', 'party-then-speed']).default('speed-then-party'),
  /** A fixed-Initiative event on the same count as a combatant happens first. */
  eventsBeforeTies: z.boolean().default(true),
  /** Characters knocked out at the end of the battle still get their share of XP. */
  xpToKnockedOut: z.boolean().default(false),
  damageCap: whole(1, 99_999).default(999),
  /** How the Rule of 10 reads below a CoS of 10: the chapter's wording or the glossary's (docs/rulings.md). */
  ruleOf10Reading: z.enum(['saves-the-roll', 'floors-the-cos']).default('saves-the-roll'),
  /** Players enter their own characters' Initiative on their phones ("Rob: (rolling) Woo! 15."). */
  playersRollInitiative: z.boolean().default(true),
});
export type FfrpgOptions = z.infer<typeof optionsSchema>;

export const sideSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  name: z.string().min(1),
  /** The players' side: it collects XP and Gil when it wins. */
  party: z.boolean().default(false),
  combatants: z.array(combatantSchema).min(1),
});

/** Everything an FFRPG encounter starts from; self-contained, so a save file needs nothing else. */
export const setupSchema = z
  .object({
    /**
     * A battle ends when one side is left standing; a Scene (a crumbling cave to run from)
     * has the same Phases but ends when the GM says so, and may have one side.
     */
    mode: z.enum(['battle', 'scene']).default('battle'),
    sides: z.array(sideSchema).min(1),
    abilities: z.record(z.string(), abilitySchema).default({}),
    statuses: z.record(z.string(), statusSchema).default({}),
    levelTable: levelTableSchema.optional(),
    events: z.array(fixedEventSchema).default([]),
    options: optionsSchema.default(optionsSchema.parse({})),
  })
  .superRefine((setup, ctx) => {
    if (setup.mode === 'battle' && setup.sides.length < 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['sides'],
        message: 'a battle needs at least two sides',
      });
    }
    // Ids name things in commands and on the countdown: each must name one thing.
    const seen = new Map<string, Set<string>>();
    const unique = (what: string, id: string, path: (string | number)[]): void => {
      const ids = seen.get(what) ?? new Set<string>();
      seen.set(what, ids);
      if (ids.has(id))
        ctx.addIssue({ code: 'custom', path, message: `${what} id '${id}' is used twice` });
      ids.add(id);
    };
    setup.sides.forEach((side, s) => {
      unique('side', side.id, ['sides', s, 'id']);
      side.combatants.forEach((c, i) => {
        const skill = c.weapon?.skill;
        if (skill !== undefined && !(skill in c.skills)) {
          // A typo here would silently make every attack's CoS lower by the whole Skill.
          const has = Object.keys(c.skills).join(', ') || 'none';
          ctx.addIssue({
            code: 'custom',
            path: ['sides', s, 'combatants', i, 'weapon', 'skill'],
            message: `${c.name}'s weapon uses the Skill '${skill}', which ${c.name} does not have (has: ${has}); give it a rating, however low`,
          });
        }
        unique('combatant', c.id, ['sides', s, 'combatants', i, 'id']);
        c.abilities.forEach((a, j) => {
          if (!(a in setup.abilities)) {
            ctx.addIssue({
              code: 'custom',
              path: ['sides', s, 'combatants', i, 'abilities', j],
              message: `unknown ability '${a}'`,
            });
          }
        });
        c.statuses.forEach((st, j) => {
          if (!(st.status in setup.statuses)) {
            ctx.addIssue({
              code: 'custom',
              path: ['sides', s, 'combatants', i, 'statuses', j, 'status'],
              message: `unknown status '${st.status}'`,
            });
          }
        });
      });
    });
    setup.events.forEach((event, i) => {
      unique('event', event.id, ['events', i, 'id']);
    });
    for (const [id, ability] of Object.entries(setup.abilities)) {
      [...ability.inflicts.map((x) => x.status), ...ability.cures].forEach((status) => {
        if (!(status in setup.statuses))
          ctx.addIssue({
            code: 'custom',
            path: ['abilities', id],
            message: `unknown status '${status}'`,
          });
      });
    }
  });
export type FfrpgSetup = z.infer<typeof setupSchema>;
export type FfrpgSetupInput = z.input<typeof setupSchema>;
