/**
 * What a run of simulated battles adds up to. Only sums and counts of whole numbers, so memory
 * stays the same however many battles run, and partial results from several workers merge in
 * any order to exactly the same totals (floating-point sums would differ in the last digits
 * with the order of the chunks, and so with the number of workers).
 */
export interface CombatantTally {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  /** Battles it ended still standing. */
  survived: number;
  /** HP its attacks actually took off their targets: no more than each target had left. */
  damageDealt: number;
  /** HP it actually lost to attacks: no more than it had left at each blow. */
  damageTaken: number;
  /** Damage its blows rolled beyond what their targets had left. */
  overkillDealt: number;
  /** Damage rolled against it beyond what it had left. */
  overkillTaken: number;
  /** Battles in which it was out of the fight at some point (after any command), not by fleeing. */
  knockedOut: number;
  /** Battles it ended having fled: gone, not fallen, so counted apart from `knockedOut`. */
  fled: number;
  /** HP at the end of each battle (never below 0 nor above its maximum then). */
  hpLeft: number;
  /** Its maximum HP at the end of each battle: hpLeft over this is the share left. */
  hpMax: number;
  /** MP at the end of each battle, for a combatant with MP (0 otherwise). */
  mpLeft: number;
  mpMax: number;
  /** Items a fight uses up (CombatantView.items) it carried at the start of each battle. */
  itemsHeld: number;
  /** And at the end: itemsHeld less this is what it used up (or gave away). */
  itemsLeft: number;
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
  /** Battles in which at least one of the players' side was out of the fight at some point. */
  playersSomeoneOut: number;
  /** Battles in which every one of the players' side was out of the fight at once. */
  playersAllOut: number;
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
    playersSomeoneOut: 0,
    playersAllOut: 0,
  };
}

export function emptyTally(c: { id: string; name: string; side: string }): CombatantTally {
  return {
    id: c.id,
    name: c.name,
    side: c.side,
    survived: 0,
    damageDealt: 0,
    damageTaken: 0,
    overkillDealt: 0,
    overkillTaken: 0,
    knockedOut: 0,
    fled: 0,
    hpLeft: 0,
    hpMax: 0,
    mpLeft: 0,
    mpMax: 0,
    itemsHeld: 0,
    itemsLeft: 0,
  };
}

export function mergeAggregates(into: Aggregate, from: Aggregate): Aggregate {
  into.battles += from.battles;
  into.draws += from.draws;
  into.unfinished += from.unfinished;
  into.roundsSum += from.roundsSum;
  into.playersSomeoneOut += from.playersSomeoneOut;
  into.playersAllOut += from.playersAllOut;
  for (const [side, n] of Object.entries(from.wins)) into.wins[side] = (into.wins[side] ?? 0) + n;
  for (const [r, n] of Object.entries(from.rounds)) into.rounds[r] = (into.rounds[r] ?? 0) + n;
  for (const [id, c] of Object.entries(from.combatants)) {
    const mine = into.combatants[id];
    if (mine === undefined) into.combatants[id] = { ...c };
    else {
      mine.survived += c.survived;
      mine.damageDealt += c.damageDealt;
      mine.damageTaken += c.damageTaken;
      mine.overkillDealt += c.overkillDealt;
      mine.overkillTaken += c.overkillTaken;
      mine.knockedOut += c.knockedOut;
      mine.fled += c.fled;
      mine.hpLeft += c.hpLeft;
      mine.hpMax += c.hpMax;
      mine.mpLeft += c.mpLeft;
      mine.mpMax += c.mpMax;
      mine.itemsHeld += c.itemsHeld;
      mine.itemsLeft += c.itemsLeft;
    }
  }
  return into;
}

/**
 * The rounds of every battle counted from a state `before` rounds in rather than from the
 * start: the rounds begun after it (0 for a battle that ends in the round under way). Rounds
 * only go forward in a battle, so no count goes below 0.
 */
export function roundsAfter(aggregate: Aggregate, before: number): Aggregate {
  if (before === 0) return aggregate;
  const rounds: Record<string, number> = {};
  for (const [r, n] of Object.entries(aggregate.rounds)) {
    const after = String(Math.max(0, Number(r) - before));
    rounds[after] = (rounds[after] ?? 0) + n;
  }
  let roundsSum = 0;
  for (const [r, n] of Object.entries(rounds)) roundsSum += Number(r) * n;
  return { ...aggregate, rounds, roundsSum };
}
