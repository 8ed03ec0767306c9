import { z } from 'zod';
import { gm } from '../../engine/index.js';
import { combatantSchema } from './model.js';

const id = z.string().min(1);

/** What a player or the GM can ask for in a ZODIAC battle. */
export const commandSchema = z.discriminatedUnion('type', [
  /** The first round: everyone rolls 1d8 for extra Speed Points. Later rounds begin by themselves. */
  z.strictObject({ type: z.literal('begin-battle') }),
  /** An Attack with the equipped weapon (or bare hands). */
  z.strictObject({ type: z.literal('attack'), actor: id, target: id }),
  /** A Tech: `target` a combatant for Single; not needed for Self, Allies, Enemies and All. */
  z.strictObject({ type: z.literal('tech'), actor: id, tech: id, target: id.optional() }),
  /** A Potion, on any target. */
  z.strictObject({ type: z.literal('item'), actor: id, item: id, target: id }),
  z.strictObject({ type: z.literal('defend'), actor: id }),
  /** A Free Action ("choosing to end the Cover effect"): one per turn, no SP, told in words. */
  z.strictObject({
    type: z.literal('free-action'),
    actor: id,
    action: z.string().min(1).max(200),
  }),
  /** "Death should be rare and only occur in dramatic, plot-related situations": the GM's call. */
  z.strictObject({ type: z.literal('gm-death'), target: id }),
  /** The GM's shared vocabulary; a newcomer carries its whole sheet, so a save replays it. */
  ...gm.gmCommandSchemas(combatantSchema),
]);

export type ZodiacCommand = z.infer<typeof commandSchema>;
export type ZodiacGmCommand = Extract<ZodiacCommand, { type: gm.GmCommandType | 'gm-death' }>;

/** The GM's commands, ZODIAC's own `gm-death` among them: decided apart from the actions. */
export function isZodiacGmCommand(command: ZodiacCommand): command is ZodiacGmCommand {
  return command.type === 'gm-death' || gm.isGmCommand(command);
}
