import type { DiceRoller } from '../../engine/index.js';
import { check } from './attacks.js';
import type { FfviiiResolution } from './resolution.js';
import { actionValue } from './state.js';

/**
 * Draw Spellshards: "the final result must equal or exceed the target's Spirit or Magic Evade,
 * whichever is higher ... Critical failures prevent the character from ever drawing from that
 * particular monster again."
 */
export function resolveDraw(
  out: FfviiiResolution,
  dice: DiceRoller,
  actorId: string,
  targetId: string,
  spell: string,
): void {
  const actor = out.get(actorId);
  const target = out.get(targetId);
  const { spirit, magicEvade } = target.sheet.attributes;
  const higher = spirit >= magicEvade ? `Spirit ${spirit}` : `Magic Evade ${magicEvade}`;
  const av = actionValue(actor.sheet, 'sorcery');
  const result = check(
    out,
    dice,
    `draw:${targetId}`,
    'sorcery',
    av,
    Math.max(spirit, magicEvade),
    higher,
  );
  out.emit({ type: 'check-rolled', actor: actorId, target: targetId, check: result });
  if (result.success) {
    const stock = Math.min(100, (actor.matrix[spell] ?? 0) + out.state.setup.options.shardsPerDraw);
    out.emit({ type: 'shard-drawn', actor: actorId, target: targetId, spell, stock });
  } else if (result.criticalFailure) {
    out.emit({ type: 'draw-barred', actor: actorId, target: targetId });
  }
}

/**
 * Sense Spellshards: Awareness against Magic Evade; success names every draw-capable shard; a
 * critical failure bars sensing that monster "for a full moon cycle" (longer than any fight).
 */
export function resolveSense(
  out: FfviiiResolution,
  dice: DiceRoller,
  actorId: string,
  targetId: string,
): void {
  const actor = out.get(actorId);
  const target = out.get(targetId);
  const av = actionValue(actor.sheet, 'awareness');
  const difficulty = target.sheet.attributes.magicEvade;
  const result = check(
    out,
    dice,
    `sense:${targetId}`,
    'awareness',
    av,
    difficulty,
    `Magic Evade ${difficulty}`,
  );
  out.emit({ type: 'check-rolled', actor: actorId, target: targetId, check: result });
  if (result.success)
    out.emit({
      type: 'shards-sensed',
      actor: actorId,
      target: targetId,
      spells: target.sheet.spellshards,
    });
  else if (result.criticalFailure)
    out.emit({ type: 'sense-barred', actor: actorId, target: targetId });
}
