/**
 * What a run of simulated battles adds up to. Only sums and counts, so memory stays the same
 * however many battles run, and partial results from several workers merge in any order to
 * the same totals.
 */
export interface CombatantTally {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  /** Battles it ended still standing. */
  survived: number;
  damageDealt: number;
  damageTaken: number;
}

export interface Aggregate {
  battles: number;
  /** Battles won, by side id. */
  wins: Record<string, number>;
  /** Everyone down at once. */
  draws: number;
  /** Battles stopped at the command limit without an outcome. */
  unfinished: number;
  roundsSum: number;
  /** Battles by the number of rounds they took. */
  rounds: Record<string, number>;
  combatants: Record<string, CombatantTally>;
}

export function emptyAggregate(): Aggregate {
  return {
    battles: 0,
    wins: {},
    draws: 0,
    unfinished: 0,
    roundsSum: 0,
    rounds: {},
    combatants: {},
  };
}

export function mergeAggregates(into: Aggregate, from: Aggregate): Aggregate {
  into.battles += from.battles;
  into.draws += from.draws;
  into.unfinished += from.unfinished;
  into.roundsSum += from.roundsSum;
  for (const [side, n] of Object.entries(from.wins)) into.wins[side] = (into.wins[side] ?? 0) + n;
  for (const [r, n] of Object.entries(from.rounds)) into.rounds[r] = (into.rounds[r] ?? 0) + n;
  for (const [id, c] of Object.entries(from.combatants)) {
    const mine = into.combatants[id];
    if (mine === undefined) into.combatants[id] = { ...c };
    else {
      mine.survived += c.survived;
      mine.damageDealt += c.damageDealt;
      mine.damageTaken += c.damageTaken;
    }
  }
  return into;
}
