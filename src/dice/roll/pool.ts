import { DiceError, type Span } from '../errors.js';
import type { DiceLimits } from '../limits.js';
import type { ComparePoint, DiceModifiers, KeepModifier } from '../notation/ast.js';
import { matches, matchesAny } from '../notation/compare.js';
import type { DiceSource } from '../random/source.js';
import { countMatchingFaces, explodeTrigger } from './faces.js';
import type { Die, Outcome } from './tree.js';

/** What one roll shares across all its dice: the source, the limits and the running dice count. */
export interface RollContext {
  readonly source: DiceSource;
  readonly limits: DiceLimits;
  readonly expression: string;
  /** True once entered dice ran out: loops stop instead of spinning on placeholder faces. */
  readonly exhausted: () => boolean;
  diceRolled: number;
}

interface MutableDie {
  sides: number;
  faces: number[];
  digits: [number, number][] | undefined;
  value: number;
  kept: boolean;
  rerolled: boolean;
  exploded: boolean;
  compounded: boolean;
  fromExplosion: boolean;
  outcome: Outcome;
}

/** One throw of a physical die, or of the two d10 behind a d%. */
function throwFace(ctx: RollContext, sides: number, die: MutableDie): number {
  if (die.digits === undefined) {
    const face = ctx.source.roll(sides);
    die.faces.push(face);
    return face;
  }
  const tens = ctx.source.roll(10) % 10;
  const ones = ctx.source.roll(10) % 10;
  const face = tens === 0 && ones === 0 ? 100 : tens * 10 + ones;
  die.faces.push(face);
  die.digits.push([tens, ones]);
  return face;
}

/** A face after any rerolls it earned. */
function rollFace(
  ctx: RollContext,
  sides: number,
  modifiers: DiceModifiers,
  die: MutableDie,
): number {
  let face = throwFace(ctx, sides, die);
  const reroll = modifiers.reroll;
  if (reroll === undefined) return face;
  const most = reroll.once ? 1 : ctx.limits.maxRerolls;
  for (let n = 0; n < most && matchesAny(reroll.when, face) && !ctx.exhausted(); n++) {
    die.rerolled = true;
    face = throwFace(ctx, sides, die);
  }
  if (!reroll.once && matchesAny(reroll.when, face) && !ctx.exhausted()) {
    // The cap bounds the work, but letting the last matching face stand made d100r>=2 give 2
    // to 100 in a third of rolls while its odds (and its notation) say 1. Rerolling until no
    // match is uniform over the faces that do not match, so one throw of a die with that many
    // sides, read as the k-th such face, gives exactly that, in bounded work.
    face = throwAmongUnmatched(ctx, sides, reroll.when, die);
  }
  return face;
}

/** One throw of a die with as many sides as `sides` has faces not matching `points`. */
function throwAmongUnmatched(
  ctx: RollContext,
  sides: number,
  points: readonly ComparePoint[],
  die: MutableDie,
): number {
  const unmatched = sides - countMatchingFaces(points, sides);
  const k = ctx.source.roll(unmatched);
  // The smallest face f with k unmatched faces in 1..f: binary search, since sides may be 2^32.
  let low = 1;
  let high = sides;
  while (low < high) {
    const mid = low + Math.floor((high - low) / 2);
    if (mid - countMatchingFaces(points, mid) >= k) high = mid;
    else low = mid + 1;
  }
  die.faces.push(low);
  die.digits?.push([Math.floor(low / 10) % 10, low % 10]);
  return low;
}

function countDie(ctx: RollContext, span: Span): void {
  if (++ctx.diceRolled > ctx.limits.maxDice) {
    throw new DiceError(
      'dice/too-many-dice',
      `this roll needs more than ${ctx.limits.maxDice} dice, the most allowed`,
      ctx.expression,
      span,
    );
  }
}

function newDie(sides: number, percentile: boolean, fromExplosion: boolean): MutableDie {
  return {
    sides,
    faces: [],
    digits: percentile ? [] : undefined,
    value: 0,
    kept: true,
    rerolled: false,
    exploded: false,
    compounded: false,
    fromExplosion,
    outcome: undefined,
  };
}

/**
 * Rolls `count` dice and applies their modifiers in a fixed order: rerolls (per face),
 * explosions, keep/drop, then success and failure counting. Returns the dice and what they
 * count for.
 */
export function rollPool(
  ctx: RollContext,
  count: number,
  sides: number,
  percentile: boolean,
  modifiers: DiceModifiers,
  span: Span,
): { dice: Die[]; value: number } {
  const dice: MutableDie[] = [];
  const trigger = explodeTrigger(modifiers, sides);
  const compound = modifiers.explode?.compound === true;
  for (let i = 0; i < count; i++) {
    countDie(ctx, span);
    let die = newDie(sides, percentile, false);
    dice.push(die);
    let face = rollFace(ctx, sides, modifiers, die);
    die.value = face;
    if (trigger === undefined) continue;
    for (let n = 0; n < ctx.limits.maxRerolls && matches(trigger, face) && !ctx.exhausted(); n++) {
      die.exploded = true;
      if (compound) {
        die.compounded = true;
        face = rollFace(ctx, sides, modifiers, die);
        die.value += face;
        if (!Number.isSafeInteger(die.value)) throw unsafe(ctx, span);
      } else {
        countDie(ctx, span);
        die = newDie(sides, percentile, true);
        dice.push(die);
        face = rollFace(ctx, sides, modifiers, die);
        die.value = face;
      }
    }
  }
  if (modifiers.keep !== undefined) applyKeep(dice, modifiers.keep);
  const value = scorePool(dice, modifiers.success, modifiers.failure);
  if (!Number.isSafeInteger(value)) throw unsafe(ctx, span);
  return { dice, value };
}

function unsafe(ctx: RollContext, span: Span): DiceError {
  return new DiceError(
    'dice/unsafe-integer',
    'the total is too large to be exact',
    ctx.expression,
    span,
  );
}

/** The number of entries a keep/drop modifier keeps out of `size`. */
export function keptCount(keep: KeepModifier, size: number): number {
  const n = Math.min(keep.count, size);
  return keep.mode === 'kh' || keep.mode === 'kl' ? n : size - n;
}

/**
 * Marks entries dropped. Among equal values the earlier ones are kept, so the explanation
 * reads left to right.
 */
export function applyKeep(entries: { value: number; kept: boolean }[], keep: KeepModifier): void {
  const keepHighest = keep.mode === 'kh' || keep.mode === 'dl';
  const order = entries.map((_, i) => i);
  order.sort((a, b) => {
    const diff = keepHighest
      ? entries[b]!.value - entries[a]!.value
      : entries[a]!.value - entries[b]!.value;
    return diff !== 0 ? diff : a - b;
  });
  const kept = keptCount(keep, entries.length);
  for (let rank = kept; rank < order.length; rank++) entries[order[rank]!]!.kept = false;
}

/** Sum of the kept entries, or with a success compare point, successes minus failures. */
export function scorePool(
  entries: { value: number; kept: boolean; outcome: Outcome }[],
  success: ComparePoint | undefined,
  failure: ComparePoint | undefined,
): number {
  let total = 0;
  for (const entry of entries) {
    if (!entry.kept) continue;
    if (success === undefined) {
      total += entry.value;
    } else if (matches(success, entry.value)) {
      entry.outcome = 'success';
      total += 1;
    } else if (failure !== undefined && matches(failure, entry.value)) {
      entry.outcome = 'failure';
      total -= 1;
    }
  }
  return total;
}
