import { DiceError } from '../errors.js';
import type { DiceLimits } from '../limits.js';
import { fitsPower, keepSmall, type SmallMeasure, uniformDie } from './fast.js';
import { WorkBudget } from './work.js';

/*
 * The functions a first call runs are wrapped in parentheses: V8 compiles such functions when
 * the module loads instead of on their first call (its heuristic for functions invoked at
 * once), which is when Python compiles icepool too. Measured: compiling them lazily was about
 * half of a cold 3d20kh1 (0.5 of 1 ms). biome-ignore keeps the formatter from dropping them.
 */

/** Where the last readNumber stopped: kept here so reading allocates no tuple. */
let scanned = 0;

/**
 * The number whose digits start at `at` (the end is left in `scanned`); -1 for none, a leading
 * zero or over 9 digits, which the parser reads and explains.
 */
// biome-ignore format: parentheses ask V8 to compile at load (see above)
const readNumber = (function readNumber(text: string, at: number): number {
  let end = at;
  let value = 0;
  for (; end < text.length; end++) {
    const digit = text.charCodeAt(end) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  scanned = end;
  if (end === at || end - at > 9 || (end - at > 1 && text.charCodeAt(at) === 48)) return -1;
  return value;
});

/**
 * The highest (lowest) of `count` plain dS: weight of v is v^n - (v-1)^n (from the other end
 * for the lowest). The count of the extreme outcome is 1, so the measure is already reduced.
 */
// biome-ignore format: parentheses ask V8 to compile at load (see above)
const uniformExtreme = (function uniformExtreme(
  sides: number,
  count: number,
  highest: boolean,
): SmallMeasure {
  const values = new Array<number>(sides);
  const counts = new Array<number>(sides);
  let before = 0;
  for (let k = 1; k <= sides; k++) {
    let power = 1;
    for (let c = 0; c < count; c++) power *= k;
    // k of the sides are at most (highest) or at least (lowest) this outcome.
    const i = highest ? k - 1 : sides - k;
    values[i] = i + 1;
    counts[i] = power - before;
    before = power;
  }
  return { values, counts, denominator: before };
});

/**
 * The sum of `count` plain dS by sliding windows. The all-ones roll is the only way to the
 * lowest total, so its count is 1 and the measure is already reduced.
 */
// biome-ignore format: parentheses ask V8 to compile at load (see above)
const uniformSum = (function uniformSum(sides: number, count: number): SmallMeasure {
  const length = (sides - 1) * count + 1;
  let counts = new Float64Array(length);
  let next = new Float64Array(length);
  counts[0] = 1;
  let filled = 1;
  for (let n = 1; n <= count; n++) {
    const size = filled + sides - 1;
    let window = 0;
    for (let k = 0; k < size; k++) {
      if (k < filled) window += counts[k]!;
      if (k >= sides) window -= counts[k - sides]!;
      next[k] = window;
    }
    const swap = counts;
    counts = next;
    next = swap;
    filled = size;
  }
  const values = new Array<number>(length);
  const out = new Array<number>(length);
  let denominator = 0;
  for (let i = 0; i < length; i++) {
    values[i] = count + i;
    out[i] = counts[i]!;
    denominator += counts[i]!;
  }
  return { values, counts: out, denominator };
});

/**
 * Exact odds of the plainest pools (`NdS`, `NdSkhK`, `NdSklK`, `NdSdhK`, `NdSdlK`, `NdSk`)
 * read straight from the text, when their counts fit in Numbers. A first call spent more time
 * compiling the parser and walking the tree than computing 3d20kh1 (about 1 ms against 0.2 ms
 * for icepool), so these never build a tree. Anything else, or anything this cannot be sure of
 * (spaces, leading zeros, over a limit), returns undefined and goes through the parser, which
 * gives the same result (a property test holds the two to it) and every error.
 */
// biome-ignore format: parentheses ask V8 to compile at load (see above)
export const simplePoolOdds = (function simplePoolOdds(
  expression: string,
  limits: DiceLimits,
): SmallMeasure | undefined {
  const count = readNumber(expression, 0);
  const afterCount = scanned;
  if (count < 1 || count > limits.maxDice || expression.charCodeAt(afterCount) !== 100) return;
  const sides = readNumber(expression, afterCount + 1);
  const afterSides = scanned;
  // Large dice are rare at a table and cost more to list than to parse: the general path.
  if (sides < 1 || sides > 10_000 || !fitsPower(sides, count)) return;
  let kept = count;
  let highestFirst = true;
  if (afterSides < expression.length) {
    const two = expression.slice(afterSides, afterSides + 2);
    const mode = two === 'kh' || two === 'kl' || two === 'dh' || two === 'dl' ? two : undefined;
    if (mode === undefined && two[0] !== 'k') return;
    const afterMode = afterSides + (mode === undefined ? 1 : 2);
    let n = 1;
    if (afterMode < expression.length) {
      n = readNumber(expression, afterMode);
      if (n < 1 || scanned !== expression.length) return;
    }
    // As keptCount: k/kh/kl keep min(n, count), dh/dl keep the rest.
    const within = Math.min(n, count);
    kept = mode === 'dh' || mode === 'dl' ? count - within : within;
    highestFirst = mode !== 'kl' && mode !== 'dh';
  }
  // Work as the general path would count it; over the budget, that path refuses with its
  // own account of the work.
  if (kept === 1 && count > 1) {
    if (sides * (count + 2) > limits.maxOddsWork) return;
    return uniformExtreme(sides, count, highestFirst);
  }
  if (kept === count) {
    if (count * ((sides - 1) * count + 1) > limits.maxOddsWork) return;
    return uniformSum(sides, count);
  }
  try {
    const work = new WorkBudget(limits.maxOddsWork, expression);
    return keepSmall(uniformDie(sides), count, kept, highestFirst, work);
  } catch (error) {
    if (error instanceof DiceError) return;
    throw error;
  }
});
