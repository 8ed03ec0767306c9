import { CheckError } from './errors.js';
import {
  judgePercentileRoll,
  type PercentileJudgement,
  type TaskCheckOptions,
} from './task-check.js';

export interface OpposedParticipant {
  readonly id: string;
  readonly cos: number;
  /** Everyone rolls, "even if their CoS is 100 or higher". */
  readonly roll: number;
}

export interface OpposedStanding extends PercentileJudgement {
  readonly id: string;
  /** 1 for the best result still in the contest; null once a Botch or failure removed them. */
  readonly place: number | null;
}

export type OpposedCheckResult =
  | {
      readonly outcome: 'winner';
      readonly winner: string;
      /** Best first; those removed by a Botch or failure last, in the order given. */
      readonly standings: readonly OpposedStanding[];
    }
  | {
      readonly outcome: 'stalemate';
      /**
       * `all-failed`: everyone Botched or failed, so "the status quo is maintained" and all roll
       * again. `tie`: the leaders' results are equal and they roll again among themselves.
       */
      readonly reason: 'all-failed' | 'tie';
      readonly reroll: readonly string[];
      readonly standings: readonly OpposedStanding[];
    };

/**
 * How exact ties among the leaders are settled (see docs/rulings.md): `reroll` (default) has the
 * tied leaders roll again; `higher-cos` gives the contest to the higher CoS, rolling again only
 * when that ties too.
 */
export type OpposedTieBreak = 'reroll' | 'higher-cos';

export interface OpposedCheckOptions extends TaskCheckOptions {
  readonly tieBreak?: OpposedTieBreak;
}

/**
 * Orders successes: Critical Successes first, lowest roll best ("the lowest roll again determines
 * the winner"); then ordinary successes, farthest below their CoS best; then Rule of 10
 * successes, which the text treats as against-all-odds, below every ordinary success.
 */
function rankKey(result: PercentileJudgement): readonly [number, number] {
  if (result.critical) return [0, result.roll];
  return [result.ruleOf10 ? 2 : 1, -result.margin];
}

function compareRank(a: PercentileJudgement, b: PercentileJudgement): number {
  const [tierA, keyA] = rankKey(a);
  const [tierB, keyB] = rankKey(b);
  return tierA - tierB || keyA - keyB;
}

/** Resolves an Opposed Task Check among two or more participants, each with their own CoS. */
export function resolveOpposedCheck(
  participants: readonly OpposedParticipant[],
  options: OpposedCheckOptions = {},
): OpposedCheckResult {
  if (participants.length < 2) {
    throw new CheckError(
      'check/too-few-participants',
      `an Opposed Task Check needs two or more participants, got ${participants.length}`,
    );
  }
  const seen = new Set<string>();
  for (const { id } of participants) {
    if (seen.has(id)) {
      throw new CheckError('check/duplicate-participant', `participant '${id}' is given twice`);
    }
    seen.add(id);
  }
  const judged = participants.map((p) => ({
    id: p.id,
    ...judgePercentileRoll(p.cos, p.roll, options),
  }));
  const inContest = judged.filter((j) => j.success).sort(compareRank);
  const removed = judged.filter((j) => !j.success);

  const placed: OpposedStanding[] = [];
  let place = 0;
  for (const [index, result] of inContest.entries()) {
    const previous = inContest[index - 1];
    if (previous === undefined || compareRank(previous, result) !== 0) place = index + 1;
    placed.push({ ...result, place });
  }
  const standings = [...placed, ...removed.map((result) => ({ ...result, place: null }))];

  if (placed.length === 0) {
    return {
      outcome: 'stalemate',
      reason: 'all-failed',
      reroll: judged.map((j) => j.id),
      standings,
    };
  }
  let leaders = placed.filter((s) => s.place === 1);
  if (leaders.length > 1 && options.tieBreak === 'higher-cos') {
    const best = Math.max(...leaders.map((s) => s.cos));
    leaders = leaders.filter((s) => s.cos === best);
  }
  if (leaders.length > 1) {
    return { outcome: 'stalemate', reason: 'tie', reroll: leaders.map((s) => s.id), standings };
  }
  return { outcome: 'winner', winner: leaders[0]!.id, standings };
}
