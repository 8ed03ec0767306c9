import type { ComparePoint, DiceModifiers } from '../notation/ast.js';
import { matches, matchesAny } from '../notation/compare.js';
import { countMatchingFaces, explodeTrigger } from '../roll/faces.js';
import { add, fromMap, type Measure, mapValues, rescale, restrict } from './measure.js';
import type { WorkBudget } from './work.js';

/**
 * One face of a die after its rerolls: `r` conditions on not matching (rolling caps the
 * rerolls; the chance of reaching that cap is far below anything shown), `ro` allows one.
 */
export function faceMeasure(sides: number, modifiers: DiceModifiers, work: WorkBudget): Measure {
  // Every face becomes an outcome that later steps sort, reduce and convert.
  work.charge(10 * sides, `listing the faces of a d${sides}`);
  const reroll = modifiers.reroll;
  const values: number[] = [];
  const weights: bigint[] = [];
  if (reroll === undefined) {
    for (let f = 1; f <= sides; f++) {
      values.push(f);
      weights.push(1n);
    }
    return { values, weights, denominator: BigInt(sides) };
  }
  const matching = countMatchingFaces(reroll.when, sides);
  const s = BigInt(sides);
  const m = BigInt(matching);
  for (let f = 1; f <= sides; f++) {
    const hit = matchesAny(reroll.when, f);
    const weight = reroll.once ? (hit ? m : s + m) : hit ? 0n : 1n;
    if (weight > 0n) {
      values.push(f);
      weights.push(weight);
    }
  }
  return { values, weights, denominator: reroll.once ? s * s : s - m };
}

/**
 * What one die contributes, explosions included: the sum of its chain of faces, or with
 * `score` the number of successes minus failures among those faces. Chains longer than
 * `depth` explosions are cut off, and that mass is missing from the result.
 */
export function chainMeasure(
  face: Measure,
  trigger: ComparePoint | undefined,
  depth: number,
  work: WorkBudget,
  score?: (value: number) => number,
): Measure {
  const counted = score === undefined ? face : mapValues(face, score, work);
  if (trigger === undefined) return counted;
  // Faces that explode and faces that end the chain, scored the same way.
  const exploding = restrict(face, (v) => matches(trigger, v));
  const ending = restrict(face, (v) => !matches(trigger, v));
  const explodingScored = score === undefined ? exploding : mapValues(exploding, score, work);
  const endingScored = score === undefined ? ending : mapValues(ending, score, work);
  const finalDenominator = face.denominator ** BigInt(depth + 1);
  let prefix: Measure | undefined; // sum of k exploding faces
  const parts: Measure[] = [];
  for (let k = 0; k <= depth; k++) {
    const chain = prefix === undefined ? endingScored : add(prefix, endingScored, work);
    parts.push(rescale(chain, finalDenominator));
    prefix = prefix === undefined ? explodingScored : add(prefix, explodingScored, work);
    if (prefix.values.length === 0) break;
  }
  const map = new Map<number, bigint>();
  for (const part of parts) {
    work.charge(part.values.length, 'collecting explosions');
    for (let i = 0; i < part.values.length; i++) {
      const v = part.values[i]!;
      map.set(v, (map.get(v) ?? 0n) + part.weights[i]!);
    }
  }
  return fromMap(map, finalDenominator);
}

/** The per-die measure a pool is built from, given the sides and modifiers. */
export function dieMeasure(
  sides: number,
  percentile: boolean,
  modifiers: DiceModifiers,
  depth: number,
  work: WorkBudget,
  score?: (value: number) => number,
): Measure {
  const face = faceMeasure(percentile ? 100 : sides, modifiers, work);
  return chainMeasure(
    face,
    explodeTrigger(modifiers, percentile ? 100 : sides),
    depth,
    work,
    score,
  );
}
