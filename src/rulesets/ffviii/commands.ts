import { z } from 'zod';
import { gmCommandSchemas } from '../../engine/gm/index.js';
import { combatantSchema } from './model.js';

const id = z.string().min(1);

/** What a player or the GM can ask for in an FFVIII fight. */
export const commandSchema = z.discriminatedUnion('type', [
  /** Everyone rolls initiative: d10 (never explodes) + Speed, minus shot debt. */
  z.strictObject({ type: z.literal('begin-round') }),
  /** A power that must be used "before anyone rolls initiative". */
  z.strictObject({ type: z.literal('use-power'), actor: id, power: id }),
  /** Attack, 4 shots: a weapon (or a Tamer's pet) against the target's Dodge. */
  z.strictObject({ type: z.literal('attack'), actor: id, target: id, weapon: id.optional() }),
  /** Cast Spell, 4 shots: a spell in stock in the Spell Matrix. */
  z.strictObject({ type: z.literal('cast'), actor: id, spell: id, target: id }),
  /** Draw Spellshards, 4 shots: Sorcery against the higher of Spirit and Magic Evade. */
  z.strictObject({ type: z.literal('draw'), actor: id, target: id, spell: id }),
  /** Sense Spellshards, 2 shots: Awareness against Magic Evade. */
  z.strictObject({ type: z.literal('sense'), actor: id, target: id }),
  /** Reloading a Gun, 1 to 5 shots by its kind. */
  z.strictObject({ type: z.literal('reload'), actor: id, weapon: id.optional() }),
  /**
   * Using an Item, 3 shots. An unwilling target takes a Guns, Weapon Focus or Martial Arts
   * check ("whichever the player wishes to use"; the best by default) against its Dodge.
   */
  z.strictObject({
    type: z.literal('use-item'),
    actor: id,
    item: id,
    target: id,
    skill: z.enum(['guns', 'weapon-focus', 'martial-arts']).optional(),
  }),
  /** Summon a Guardian Force: its summon shots - compatibility, plus its ability's shots. */
  z.strictObject({ type: z.literal('summon'), actor: id, gf: id, target: id }),
  /** An action carried over from the last round completes once its shot debt is paid. */
  z.strictObject({ type: z.literal('complete'), actor: id, target: id.optional() }),
  /** Hold the action for `shots` shots ("Ehlric decides to postpone his action to Shot 7"). */
  z.strictObject({
    type: z.literal('wait'),
    actor: id,
    shots: z.number().int().min(1).max(50).default(1),
  }),
  /** The target of an attack answers: dodge (+3, 1 shot from its next action) or not. */
  z.strictObject({ type: z.literal('dodge'), actor: id }),
  z.strictObject({ type: z.literal('take-it'), actor: id }),
  /** Does nothing more this round. */
  z.strictObject({ type: z.literal('pass'), actor: id }),
  /** Runs away: out of the fight. */
  z.strictObject({ type: z.literal('flee'), actor: id }),
  /** The GM's commands, shared by every system and decided in FFVIII's terms (gm.ts). */
  ...gmCommandSchemas(combatantSchema),
]);

export type FfviiiCommand = z.infer<typeof commandSchema>;
