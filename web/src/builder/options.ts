import type { FfrpgOptions, FfviiiOptions, ShiningForceOptions, ZodiacOptions } from '../types.js';

/**
 * Each system's encounter options as the builder offers them: a control per option of the
 * system's `optionsSchema`, with its default. Typed against the engine's option types (types
 * only: no engine code reaches the browser), so an option added there fails to compile here
 * until it is offered; test/web/builder-draft.test.ts checks the defaults against the schemas.
 */

export type OptionValue = boolean | number | string | readonly number[];

export type OptionField =
  | { readonly kind: 'boolean'; readonly label: string; readonly default: boolean }
  | {
      readonly kind: 'choice';
      readonly label: string;
      readonly choices: readonly string[];
      readonly default: string;
    }
  | {
      readonly kind: 'number';
      readonly label: string;
      readonly min: number;
      readonly max: number;
      readonly step?: number;
      readonly default: number;
    }
  /** Three numbers: Shining Force's critical levels 1, 2 and 3. */
  | {
      readonly kind: 'numbers';
      readonly label: string;
      readonly min: number;
      readonly max: number;
      readonly default: readonly [number, number, number];
    }
  /** ZODIAC's Damage Cap: off, or the figure a blow is capped at (999 is the text's "on"). */
  | { readonly kind: 'cap'; readonly label: string; readonly default: false };

type Fields<T> = { readonly [K in keyof T]-?: OptionField };

const ffrpg: Fields<FfrpgOptions> = {
  botchAlwaysFails: {
    kind: 'boolean',
    label: 'A Botch (95-100) fails even when the CoS is 95 or more',
    default: true,
  },
  criticalDamagePercent: {
    kind: 'number',
    label: 'Critical Hit damage bonus (%)',
    min: 0,
    max: 1000,
    step: 25,
    default: 100,
  },
  initiativeTies: {
    kind: 'choice',
    label: 'Equal Initiative: who goes first',
    choices: ['speed-then-party', 'party-then-speed'],
    default: 'speed-then-party',
  },
  eventsBeforeTies: {
    kind: 'boolean',
    label: 'A fixed event on a combatant’s count happens first',
    default: true,
  },
  xpToKnockedOut: {
    kind: 'boolean',
    label: 'Characters knocked out at the end still get XP',
    default: false,
  },
  damageCap: { kind: 'number', label: 'Damage Cap', min: 1, max: 99_999, default: 999 },
  ruleOf10Reading: {
    kind: 'choice',
    label: 'Rule of 10 below a CoS of 10',
    choices: ['saves-the-roll', 'floors-the-cos'],
    default: 'saves-the-roll',
  },
  playersRollInitiative: {
    kind: 'boolean',
    label: 'Players enter their own Initiative on their phones',
    default: true,
  },
};

const ffviii: Fields<FfviiiOptions> = {
  dodgeFormula: {
    kind: 'choice',
    label: 'Dodge score',
    choices: ['combat-skill-plus-evade', 'evade'],
    default: 'combat-skill-plus-evade',
  },
  boxcars: {
    kind: 'choice',
    label: 'Boxcars are a critical failure',
    choices: ['failure-only', 'always'],
    default: 'failure-only',
  },
  shardsPerDraw: { kind: 'number', label: 'Spells per Draw', min: 1, max: 10, default: 1 },
  dodgeBonus: { kind: 'number', label: 'Dodging adds to Dodge', min: 0, max: 10, default: 3 },
  playersRollInitiative: {
    kind: 'boolean',
    label: 'Players enter their own initiative die on their phones',
    default: true,
  },
};

const zodiac: Fields<ZodiacOptions> = {
  damageCap: { kind: 'cap', label: 'Damage Cap', default: false },
  damageLevels: {
    kind: 'number',
    label: 'Damage Levels (zeroes added)',
    min: 0,
    max: 3,
    default: 0,
  },
  wallBounce: {
    kind: 'boolean',
    label: 'Wall bounces magic to a random target (optional rule)',
    default: false,
  },
  defendLasts: {
    kind: 'choice',
    label: 'A Defend lasts',
    choices: ['rest-of-round', 'until-next-turn'],
    default: 'rest-of-round',
  },
  venomTiming: {
    kind: 'choice',
    label: 'Venom strikes',
    choices: ['each-turn', 'once-per-round'],
    default: 'each-turn',
  },
  playersRollSpeedPoints: {
    kind: 'boolean',
    label: 'Players enter their own first-round Speed Points (1d8) on their phones',
    default: true,
  },
};

const shiningForce: Fields<ShiningForceOptions> = {
  turnOrderSpread: {
    kind: 'number',
    label: 'Turn order: Agility taken at 100 ± this %',
    min: 0,
    max: 100,
    default: 50,
  },
  minimumDamage: { kind: 'number', label: 'Minimum damage', min: 0, max: 99, default: 1 },
  criticalDamagePercent: {
    kind: 'numbers',
    label: 'Critical damage % (levels 1, 2, 3)',
    min: 100,
    max: 1000,
    default: [150, 175, 200],
  },
  criticalRatePercent: {
    kind: 'numbers',
    label: 'Critical rate, % of Critical (levels 1, 2, 3)',
    min: 0,
    max: 100,
    default: [100, 50, 25],
  },
  statusLuck: {
    kind: 'choice',
    label: 'A luckier target resists status by',
    choices: ['multiply', 'subtract', 'none'],
    default: 'multiply',
  },
  crackOnAttack: {
    kind: 'boolean',
    label: 'Weapons may crack on every attack',
    default: false,
  },
  counterNeedsReach: {
    kind: 'boolean',
    label: 'A counter needs the attacker within the defender’s reach',
    default: true,
  },
  passThroughAllies: { kind: 'boolean', label: 'Units pass through allies', default: true },
  maxRounds: { kind: 'number', label: 'Rounds before a draw', min: 1, max: 999, default: 50 },
  playersRollTurnOrder: {
    kind: 'boolean',
    label: 'Players enter their own turn-order dice on their phones',
    default: false,
  },
};

export const OPTION_FIELDS: Readonly<Record<string, Readonly<Record<string, OptionField>>>> = {
  ffrpg,
  ffviii,
  zodiac,
  'shining-force': shiningForce,
};
