/**
 * `balanceSearch`: the value of one numeric field of one sheet that gives a side a win rate, by
 * the search in search.ts with `simulate` (the sim's runner and workers) playing every batch.
 */
import type { EncounterFile } from '../../encounters/file.js';
import { type EngineError, err, ok, type Result } from '../../engine/index.js';
import { DEFAULT_POLICY } from '../policies.js';
import { formatSidePolicies, policyForEncounter, type SidePolicies } from '../policy-spec.js';
import { MAX_BATTLES, simulate } from '../sim.js';
import {
  type BalancePoint,
  DEFAULT_TOLERANCE,
  type Grid,
  type SearchBounds,
  type StopReason,
  searchBalance,
} from './search.js';
import type { TargetSpec, VarySpec } from './spec.js';
import { type Variation, variationOf } from './variation.js';

/**
 * Batches smaller than this play on this thread alone. A worker thread takes 0.3 s to load the
 * rules on an idle machine (more on a busy one) before it plays a battle, and one thread plays
 * about 9,000 Wind Cave battles a second: under this, a worker costs more than it brings.
 */
export const WORKER_MIN_BATTLES = 10_000;
/**
 * Battles a point starts with when the caller names none: enough to settle a value far from the
 * target (100 battles put a 99% interval within about ±11 points of a rate near 75%), few
 * enough that the values tried on the way to the target cost little.
 */
export const DEFAULT_BATTLES_PER_POINT = 100;
/**
 * A point's battles may reach 2^MAX_DOUBLINGS times its first batch: 1,600 by default, where a
 * 95% interval anywhere is at most ±2.5 points, inside the default tolerance.
 */
export const MAX_DOUBLINGS = 4;
/** The total budget, in first batches, when the caller names none. */
export const DEFAULT_BUDGET_POINTS = 100;
/** The most values one search tries: a bisection of 2^40 steps needs 42. */
export const MAX_POINTS = 64;
/** The most steps in a range: 2^40, so bisection always fits within MAX_POINTS. */
export const MAX_STEPS = 2 ** 40;
/** The tolerance's bounds: a tenth of a point, fifty points. */
export const MIN_TOLERANCE = 0.001;
export const MAX_TOLERANCE = 0.5;

export interface BalanceOptions {
  readonly encounter: EncounterFile;
  readonly vary: VarySpec;
  readonly target: TargetSpec;
  /**
   * The distance between values tried. A whole-number field moves by whole steps (default 1,
   * and a step must be whole); a field that takes fractions defaults to a hundredth of the range.
   */
  readonly step?: number;
  /** Battles of each point's first batch; default DEFAULT_BATTLES_PER_POINT. */
  readonly battles?: number;
  /** The most battles in all; default DEFAULT_BUDGET_POINTS first batches. */
  readonly totalBattles?: number;
  /** The most values tried; default and most MAX_POINTS. */
  readonly maxPoints?: number;
  /**
   * How near the target a value's rate must be measured to be the answer (search.ts); default
   * DEFAULT_TOLERANCE, from 0.001 to 0.5.
   */
  readonly tolerance?: number;
  readonly seed: string;
  /** Threads for each batch, as `simulate` takes them; default 1. */
  readonly workers?: number;
  /** A policy spec as `sim --policy` reads it; default the sim's. */
  readonly policy?: string;
  /** Told now and then with the battles played so far, in all. */
  readonly onProgress?: (battles: number) => void;
}

export interface BalanceResult {
  /**
   * The value chosen: of those tried inside the bracket, the one whose rate is nearest the
   * target; null when the target is outside.
   */
  readonly value: number | null;
  readonly winRate: { readonly rate: number; readonly low: number; readonly high: number } | null;
  /** Every value tried, sorted by value, with its rate, 95% interval and battles. */
  readonly points: readonly BalancePoint[];
  /** The values tried between which the target lies, as far as the search narrowed it. */
  readonly bracket: { readonly low: number; readonly high: number };
  /** `above`/`below`: the target lies above/below both ends' rates; null when the range holds it. */
  readonly outside: 'above' | 'below' | null;
  readonly stop: StopReason;
  /** The search ended on two neighbouring values each clearly on its side of the target. */
  readonly separated: boolean;
  /** The chosen value's rate was measured within `tolerance` of the target. */
  readonly onTarget: boolean;
  /** How near the target the answer's rate had to be measured (search.ts). */
  readonly tolerance: number;
  /** Whether the side's rate rose with the value, from the ends. */
  readonly increasing: boolean;
  readonly vary: {
    readonly combatant: string;
    readonly field: string;
    readonly kind: string;
    readonly original: number;
    /** Where `original` is written: `the ffrpg/monster sheet`, `the encounter`. */
    readonly originalIn: string;
    readonly low: number;
    readonly high: number;
    readonly step: number;
    readonly whole: boolean;
  };
  readonly target: { readonly side: string; readonly name: string; readonly rate: number };
  readonly seed: string;
  readonly policy: string;
  readonly policies: SidePolicies;
  readonly bounds: SearchBounds;
  /** Battles played in all. */
  readonly battles: number;
  readonly interrupted: boolean;
}

export interface BalanceRun {
  readonly result: Promise<BalanceResult>;
  /** Ctrl-C: the batch in progress stops after the battles being played; the rest is reported. */
  stop(): void;
}

/** A value the schema or the system refused in the middle of a search: the user's to fix. */
export class BalanceRefusal extends Error {
  override readonly name = 'BalanceRefusal';
}

/** The step a variation moves by, or why the one asked for does not fit. */
function stepFor(vary: VarySpec, variation: Variation, asked: number | undefined): Result<number> {
  const name = `${vary.combatant}.${vary.field}`;
  if (variation.whole && !(Number.isInteger(vary.low) && Number.isInteger(vary.high))) {
    return err(
      'balance/range',
      `--vary ${name} is a whole number: the range ${vary.low}..${vary.high} must be whole numbers`,
    );
  }
  const step = asked ?? (variation.whole ? 1 : (vary.high - vary.low) / 100);
  if (!(step > 0) || !Number.isFinite(step) || (variation.whole && !Number.isInteger(step))) {
    return err(
      'balance/step',
      `--step ${asked}: ${name} moves by ${variation.whole ? 'a whole number of steps, 1 or more' : 'a number above 0'}`,
    );
  }
  if ((vary.high - vary.low) / step > MAX_STEPS) {
    return err(
      'balance/range',
      `--vary ${name}: ${vary.low}..${vary.high} in steps of ${step} is more than 2^40 values`,
    );
  }
  return ok(step);
}

/**
 * Checks everything a search needs before it plays a battle (the sheet and field, the range at
 * both ends, the side, the policy, the budget) and starts it, or says what was wrong.
 */
export function balanceSearch(options: BalanceOptions): Result<BalanceRun> {
  const { encounter, vary, target } = options;
  const { system, setup } = encounter;
  const variation = variationOf(encounter, vary);
  if (!variation.ok) return variation;
  const step = stepFor(vary, variation.value, options.step);
  if (!step.ok) return step;
  const grid: Grid = { low: vary.low, high: vary.high, step: step.value };
  const setups = new Map<number, unknown>();
  const setupAt = (value: number): Result<unknown> => {
    const known = setups.get(value);
    if (known !== undefined) return ok(known);
    const built = variation.value.setupAt(value);
    if (built.ok) setups.set(value, built.value);
    return built;
  };
  for (const end of [vary.low, vary.high]) {
    const built = setupAt(end);
    if (!built.ok) return built;
  }
  const initial = system.ruleset.initialState(setup);
  const sides = system.view(initial).sides;
  const side = sides.find((s) => s.id === target.side);
  if (side === undefined) {
    return err(
      'balance/target',
      `--target: the encounter has no side '${target.side}'; its sides are ${sides.map((s) => s.id).join(', ')}`,
    );
  }
  const policySpec = options.policy ?? DEFAULT_POLICY;
  const chosen = policyForEncounter(system, initial, policySpec);
  if (!chosen.ok) return err('balance/policy', chosen.error.message);
  const battles = options.battles ?? DEFAULT_BATTLES_PER_POINT;
  const maxPoints = options.maxPoints ?? MAX_POINTS;
  const totalBattles = options.totalBattles ?? battles * DEFAULT_BUDGET_POINTS;
  const bad = budgetMistake(battles, maxPoints, totalBattles);
  if (bad !== undefined) return { ok: false, error: bad };
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  if (!(tolerance >= MIN_TOLERANCE && tolerance <= MAX_TOLERANCE)) {
    return err(
      'balance/tolerance',
      `--tolerance takes a win rate from ${MIN_TOLERANCE} to ${MAX_TOLERANCE} (or ${MIN_TOLERANCE * 100}% to ${MAX_TOLERANCE * 100}%), got ${tolerance}`,
    );
  }
  const bounds: SearchBounds = {
    battles,
    battlesPerPoint: battles * 2 ** MAX_DOUBLINGS,
    points: maxPoints,
    totalBattles,
  };
  let stopping = false;
  let current: { stop(): void } | undefined;
  let spent = 0;
  const sample = async (value: number, batch: number, n: number) => {
    const built = setupAt(value);
    if (!built.ok) throw new BalanceRefusal(built.error.message);
    // A seed of the value and the batch alone: a point's rate does not depend on search order.
    const run = simulate({
      system,
      setup: built.value,
      battles: n,
      seed: `${options.seed}:${value}:${batch}`,
      workers: n < WORKER_MIN_BATTLES ? 1 : Math.max(1, options.workers ?? 1),
      policy: policySpec,
      onProgress: (done) => options.onProgress?.(spent + done),
    });
    current = run;
    if (stopping) run.stop();
    const aggregate = await run.result;
    current = undefined;
    spent += aggregate.battles;
    return { wins: aggregate.wins[target.side] ?? 0, battles: aggregate.battles };
  };
  const result = searchBalance(grid, target.rate, bounds, sample, {
    stopped: () => stopping,
    tolerance,
  }).then((outcome): BalanceResult => {
    const chosenPoint = outcome.chosen;
    return {
      value: chosenPoint?.value ?? null,
      winRate:
        chosenPoint === undefined
          ? null
          : { rate: chosenPoint.rate, low: chosenPoint.low, high: chosenPoint.high },
      points: outcome.points,
      bracket: outcome.bracket,
      outside: outcome.outside ?? null,
      stop: outcome.stop,
      separated: outcome.stop === 'separated',
      onTarget: outcome.stop === 'on-target',
      tolerance,
      increasing: outcome.increasing,
      vary: {
        combatant: vary.combatant,
        field: vary.field,
        kind: variation.value.kind,
        original: variation.value.original,
        originalIn: variation.value.originalIn,
        low: vary.low,
        high: vary.high,
        step: step.value,
        whole: variation.value.whole,
      },
      target: { side: side.id, name: side.name, rate: target.rate },
      seed: options.seed,
      policy: formatSidePolicies(chosen.value.policies),
      policies: chosen.value.policies,
      bounds,
      battles: outcome.battles,
      interrupted: outcome.stop === 'interrupted',
    };
  });
  return ok({
    result,
    stop: () => {
      stopping = true;
      current?.stop();
    },
  });
}

function budgetMistake(battles: number, points: number, total: number): EngineError | undefined {
  const whole = (x: number, min: number, max: number): boolean =>
    Number.isInteger(x) && x >= min && x <= max;
  if (!whole(battles, 1, MAX_BATTLES)) {
    return {
      code: 'balance/budget',
      message: `-n takes a whole number of battles a point, 1 or more, got ${battles}`,
    };
  }
  if (!whole(points, 2, MAX_POINTS)) {
    return {
      code: 'balance/budget',
      message: `the most points tried is from 2 to ${MAX_POINTS}, got ${points}`,
    };
  }
  if (!whole(total, 2 * battles, MAX_BATTLES)) {
    return {
      code: 'balance/budget',
      message: `the budget must hold the two ends' ${2 * battles} battles and at most ${MAX_BATTLES.toLocaleString('en-US')}, got ${total}`,
    };
  }
  return undefined;
}
