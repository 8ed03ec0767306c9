import { z } from 'zod';

const id = z.string().min(1).max(100);

/**
 * How much a GM effect deals or heals: a number, dice to roll (`2d6`, rolled as `gm:<target>`),
 * or a share of the target's own HP or MP (FFRPG's "damage equivalent to 50% of the target's
 * HP"), rounded down.
 */
export const gmAmountSchema = z.union([
  z.number().int().min(0).max(1_000_000),
  z.string().min(1).max(100),
  z.strictObject({
    percent: z.number().int().min(1).max(1000),
    of: z.enum(['hp', 'max-hp', 'mp', 'max-mp']),
  }),
]);
export type GmAmount = z.infer<typeof gmAmountSchema>;

/** Why a combatant leaves the fight at the GM's word. */
export const GM_REMOVE_REASONS = ['fled', 'dismissed'] as const;

/**
 * The GM's commands, one vocabulary for every system: each ruleset puts these in its command
 * union and decides them in its own terms (its resources, its clock, how a newcomer enters it).
 * `newcomer` is the ruleset's own combatant sheet, resolved from content by the tool that builds
 * the command, so the log (and a save) carries everything needed to replay it.
 *
 * - `gm-set`: a resource, absolute or relative (`hp`, `mp`, and the system's own: `shots`,
 *   `debt`, `sp`, `ammo` of a weapon, `shards` of a spell, `item`, `cracked`...). Current values
 *   only: a maximum never changes.
 * - `gm-status`: inflict (with an optional timer) or end early.
 * - `gm-add` / `gm-remove`: a combatant joins mid-fight as the rules would have it enter the
 *   clock, or leaves it.
 * - `gm-clock`: the combatant's place on the clock (Initiative, next shot, SP, turn order).
 * - `gm-skip`: the combatant's turn passes without an action.
 * - `gm-damage` / `gm-heal`: a trap, a fixed event, a house rule; through the system's damage
 *   pipeline unless `raw`.
 * - `gm-note`: a note shown with the combatant; empty text clears its notes.
 */
export function gmCommandSchemas<N extends z.ZodType>(newcomer: N) {
  return [
    z.strictObject({
      type: z.literal('gm-set'),
      target: id,
      resource: id,
      /** What the resource is counted per: a weapon's ammunition, a spell's Spellshards, an item. */
      key: id.optional(),
      value: z.number().int().min(-1_000_000).max(1_000_000),
      relative: z.boolean().default(false),
    }),
    z.strictObject({
      type: z.literal('gm-status'),
      target: id,
      status: id,
      timer: z.union([z.number().int().min(1).max(999), z.literal('infinite')]).optional(),
      remove: z.boolean().default(false),
    }),
    z.strictObject({
      type: z.literal('gm-add'),
      side: id,
      newcomer,
      /** Shown instead of the sheet's name: "Goblin 2". Made unique when it is not. */
      name: z.string().min(1).max(60).optional(),
    }),
    z.strictObject({
      type: z.literal('gm-remove'),
      target: id,
      reason: z.enum(GM_REMOVE_REASONS).default('dismissed'),
    }),
    z.strictObject({
      type: z.literal('gm-clock'),
      target: id,
      value: z.number().int().min(-1000).max(1000),
      relative: z.boolean().default(false),
    }),
    z.strictObject({ type: z.literal('gm-skip'), target: id }),
    z.strictObject({
      type: z.literal('gm-damage'),
      target: id,
      amount: gmAmountSchema,
      element: id.optional(),
      raw: z.boolean().default(false),
    }),
    z.strictObject({
      type: z.literal('gm-heal'),
      target: id,
      amount: gmAmountSchema,
      raw: z.boolean().default(false),
    }),
    z.strictObject({ type: z.literal('gm-note'), target: id, text: z.string().max(200) }),
  ] as const;
}

type GmSchemas = ReturnType<typeof gmCommandSchemas<z.ZodUnknown>>;
/** A GM command with its newcomer's sheet left open; each ruleset narrows it. */
export type GmCommand = z.infer<GmSchemas[number]>;
export type GmCommandType = GmCommand['type'];

export const GM_COMMAND_TYPES: readonly GmCommandType[] = [
  'gm-set',
  'gm-status',
  'gm-add',
  'gm-remove',
  'gm-clock',
  'gm-skip',
  'gm-damage',
  'gm-heal',
  'gm-note',
];

export function isGmCommand(command: { readonly type: string }): boolean {
  return (GM_COMMAND_TYPES as readonly string[]).includes(command.type);
}
