import { z } from 'zod';
import { gm } from '../../engine/index.js';
import { combatantSchema } from './model.js';

const id = z.string().min(1).max(100);
const cell = z.string().regex(/^[A-Za-z]\d{1,2}$/, 'a cell such as C4');

/**
 * A newcomer's sheet as `gm add` carries it: a setup's combatant, with the cell left to the
 * rules (the free cell nearest its side) unless given.
 */
export function newcomerSchema() {
  return combatantSchema.extend({ at: combatantSchema.shape.at.optional() });
}
export type NewcomerSheet = z.infer<ReturnType<typeof newcomerSchema>>;

/**
 * What a player or the GM can ask for in a Shining Force battle. A turn is a `move` (optional)
 * and then one action: `attack`, `stay`, `cast`, `give` or `use`. `equip`, `unequip` and `drop`
 * are not actions: they may come at any point of the turn.
 */
export const commandSchema = z.discriminatedUnion('type', [
  /** Rolls the first round's turn order. */
  z.strictObject({ type: z.literal('begin-battle') }),
  /**
   * `target`: the enemy this move closes on, when it is an advance: it names the move for the
   * table (and for the simulator's policies); the rules only check that it is a combatant.
   */
  z.strictObject({ type: z.literal('move'), actor: id, to: cell, target: id.optional() }),
  z.strictObject({ type: z.literal('attack'), actor: id, target: id }),
  z.strictObject({ type: z.literal('stay'), actor: id }),
  /** A spell aimed at a combatant: its area is counted from that combatant's cell. */
  z.strictObject({ type: z.literal('cast'), actor: id, spell: id, target: id }),
  z.strictObject({ type: z.literal('use'), actor: id, item: id, target: id }),
  z.strictObject({ type: z.literal('give'), actor: id, item: id, to: id }),
  z.strictObject({ type: z.literal('equip'), actor: id, item: id }),
  z.strictObject({ type: z.literal('unequip'), actor: id, item: id }),
  z.strictObject({ type: z.literal('drop'), actor: id, item: id }),
  /** The GM puts a unit on a cell, whatever the movement cost (`gm move max c4`). */
  z.strictObject({ type: z.literal('gm-move'), target: id, to: cell }),
  ...gm.gmCommandSchemas(newcomerSchema()),
]);

export type ShiningForceCommand = z.infer<typeof commandSchema>;
