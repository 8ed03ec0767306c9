import { z } from 'zod';
import { gmCommandSchemas } from '../../engine/gm/index.js';
import { combatantSchema } from './model.js';

const id = z.string().min(1);

/** What a player or the GM can ask for in an FFRPG battle. */
export const commandSchema = z.discriminatedUnion('type', [
  /** The Initiative Phase: everyone rolls d10 + SPD. */
  z.strictObject({ type: z.literal('begin-round') }),
  /** The basic Attack Action with the equipped weapon. */
  z.strictObject({ type: z.literal('attack'), actor: id, target: id }),
  /** `target`: a combatant for Single, a side for Group; not needed for Self, Party and All. */
  z.strictObject({ type: z.literal('use-ability'), actor: id, ability: id, target: id.optional() }),
  z.strictObject({ type: z.literal('pass'), actor: id }),
  /**
   * A Task Check as the combatant's action ("Haze is going to grab Hiro"): a Skill by name, or
   * an Attribute (its Rating, 3 x Attribute + 10), plus a Conditional Modifier (a number or a
   * Table 1-1 name).
   */
  z.strictObject({
    type: z.literal('task-check'),
    actor: id,
    skill: z.string().min(1).optional(),
    attribute: z.enum(['STR', 'VIT', 'AGI', 'SPD', 'MAG', 'SPR']).optional(),
    modifier: z.union([z.number().int().min(-80).max(80), z.string().min(1)]).default(0),
    task: z.string().max(200).optional(),
    /** The GM declares the task impossible: the Rule of 10 does not save it. */
    impossible: z.boolean().default(false),
    /**
     * Called by the GM (`check hiro awareness hard`): anyone able to act, at any time, and it
     * takes nobody's turn. Otherwise it is the actor's Action on its turn (docs/rulings.md).
     */
    called: z.boolean().default(false),
  }),
  /**
   * An Opposed Task Check: everyone rolls at once, taking nobody's turn ("the party's Stealth
   * against the monster's Awareness"); each names a Skill or an Attribute and a modifier.
   */
  z.strictObject({
    type: z.literal('opposed-check'),
    task: z.string().max(200).optional(),
    participants: z
      .array(
        z.strictObject({
          actor: id,
          skill: z.string().min(1).optional(),
          attribute: z.enum(['STR', 'VIT', 'AGI', 'SPD', 'MAG', 'SPR']).optional(),
          modifier: z.union([z.number().int().min(-80).max(80), z.string().min(1)]).default(0),
        }),
      )
      .min(2)
      .max(20),
  }),
  /** The GM ends a Scene (a change of location, or time passing). */
  z.strictObject({ type: z.literal('end-scene') }),
  z.strictObject({ type: z.literal('flee'), actor: id }),
  ...gmCommandSchemas(combatantSchema),
]);

export type FfrpgCommand = z.infer<typeof commandSchema>;
