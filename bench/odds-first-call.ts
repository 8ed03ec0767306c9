/**
 * One cold exact-odds call, for bench/dice.ts: run in a fresh process so the first call pays
 * what a user's first `moogle odds` pays (unoptimised code, empty caches). Imports are not
 * timed (their time is printed apart). Prints `{"ms", "mean", "path", "importMs"}`.
 *
 * Usage: node --import tsx bench/odds-first-call.ts <expression> [dice module to import]
 * The optional module (a path to another checkout's src/dice/index.ts) lets one run compare
 * this tree with an earlier one. ODDS_MAX_WORK raises the work budget (the old code refused
 * 1000d10 under the default one).
 */
import { pathToFileURL } from 'node:url';

interface DiceModule {
  diceDistribution(
    expression: string,
    options?: { limits?: { maxOddsWork?: number } },
  ): { mean: number; precision?: string };
}

const [expression, modulePath] = process.argv.slice(2);
if (expression === undefined) throw new Error('usage: odds-first-call.ts <expression> [module]');
const importStart = performance.now();
const dice = (await import(
  modulePath === undefined ? '../src/dice/index.js' : pathToFileURL(modulePath).href
)) as DiceModule;
// Reported, not compared: the functions a first call runs are compiled at import now.
const importMs = performance.now() - importStart;
const maxOddsWork = process.env.ODDS_MAX_WORK;
const options =
  maxOddsWork === undefined ? undefined : { limits: { maxOddsWork: Number(maxOddsWork) } };
const start = performance.now();
const distribution = dice.diceDistribution(expression, options);
const mean = distribution.mean;
const ms = performance.now() - start;
console.log(JSON.stringify({ ms, mean, path: distribution.precision ?? 'exact-bigint', importMs }));
