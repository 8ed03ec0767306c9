import type { Aggregate } from './aggregate.js';
import type { PlayersSide } from './players.js';
import type { SidePolicies } from './policy-spec.js';

/** The normal quantile of a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval, at 95% unless `z` says otherwise: honest near 0% and 100%, where the
 * normal one is not.
 */
export function wilson(successes: number, n: number, z = Z95): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const centre = p + (z * z) / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  const scale = 1 + (z * z) / n;
  return [Math.max(0, (centre - margin) / scale), Math.min(1, (centre + margin) / scale)];
}

/** The median of a histogram of whole numbers. */
export function medianOf(histogram: Readonly<Record<string, number>>): number {
  const entries = Object.entries(histogram)
    .map(([k, n]) => [Number(k), n] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  let seen = 0;
  for (const [value, n] of entries) {
    seen += n;
    if (seen * 2 >= total) return value;
  }
  return 0;
}

/** How often something happened, with its 95% Wilson interval. */
export interface Rate {
  readonly count: number;
  readonly rate: number;
  readonly ci95: [number, number];
}

/** What a GM asks about the players' side: will someone drop, could they all, what is left. */
export interface PlayersReport {
  readonly side: string;
  readonly name: string;
  readonly policy: string;
  /** `marked`: the setup marks the side (party/force); `first`: no side is, so the first one. */
  readonly chosenBy: 'marked' | 'first';
  /** At least one of them out of the fight at some point in the battle. */
  readonly someoneKnockedOut: Rate;
  /** All of them out of the fight at once. */
  readonly everyoneKnockedOut: Rate;
  /** Their HP left at the end over their maximum HP, all of them together. */
  readonly hpLeft: number;
  /** The same for MP; null when none of them has MP. */
  readonly mpLeft: number | null;
  /**
   * Items a fight uses up (Potions, Herbs), a battle: carried at the start, and used up (or
   * left with a fallen enemy: whatever they no longer hold at the end); null when the side
   * carries none or its system has none.
   */
  readonly items: { readonly meanHeld: number; readonly meanUsed: number } | null;
  /** HP they took off the other sides, and they lost, a battle (overkill apart). */
  readonly meanDamageDealt: number;
  readonly meanDamageTaken: number;
  readonly meanOverkillDealt: number;
  readonly meanOverkillTaken: number;
}

export interface SimReport {
  readonly battles: number;
  /**
   * Where every battle started: the setup's initial state, or the encounter as it stood ('now').
   * From 'now' the rounds are those begun after it, and damage, knock-outs and survival are what
   * happened from it on (a combatant already out then counts as knocked out in every battle).
   */
  readonly from: 'start' | 'now';
  /** From 'now': the log entry the encounter stood at, when the caller knows it. */
  readonly entry?: number;
  readonly seed: string;
  /** The policy spec in its shortest form: one name when every side has it. */
  readonly policy: string;
  /** Each side's policy, by side id. */
  readonly policies: SidePolicies;
  readonly workers: number;
  readonly interrupted: boolean;
  readonly wins: Record<
    string,
    {
      readonly name: string;
      readonly policy: string;
      readonly count: number;
      readonly rate: number;
      readonly ci95: [number, number];
    }
  >;
  readonly draws: number;
  readonly unfinished: number;
  readonly rounds: {
    readonly mean: number;
    readonly median: number;
    readonly histogram: Record<string, number>;
  };
  readonly combatants: readonly {
    readonly id: string;
    readonly name: string;
    readonly side: string;
    readonly survival: number;
    readonly meanDamageDealt: number;
    readonly meanDamageTaken: number;
    /** Battles in which it was out of the fight at some point, over all battles; fleeing aside. */
    readonly knockedOut: number;
    /** Battles it ended having fled, over all battles. */
    readonly fled: number;
    readonly meanOverkillDealt: number;
    readonly meanOverkillTaken: number;
    readonly meanHpLeft: number;
    readonly meanMpLeft: number;
  }[];
  /** Null only for an encounter without sides. */
  readonly players: PlayersReport | null;
}

export function buildReport(
  aggregate: Aggregate,
  context: {
    seed: string;
    policy: string;
    policies: SidePolicies;
    players: PlayersSide | undefined;
    workers: number;
    interrupted: boolean;
    sides: readonly { id: string; name: string }[];
    /** 'start' when not given: what a run without SimOptions.start plays. */
    from?: 'start' | 'now';
    entry?: number;
  },
): SimReport {
  const n = aggregate.battles;
  const per = (x: number): number => (n === 0 ? 0 : x / n);
  const rate = (count: number): Rate => ({ count, rate: per(count), ci95: wilson(count, n) });
  const policyOf = (side: string): string => context.policies[side] ?? context.policy;
  const wins: SimReport['wins'] = {};
  for (const side of context.sides) {
    const count = aggregate.wins[side.id] ?? 0;
    wins[side.id] = { name: side.name, policy: policyOf(side.id), ...rate(count) };
  }
  const from = context.from ?? 'start';
  return {
    battles: n,
    from,
    ...(from === 'now' && context.entry !== undefined ? { entry: context.entry } : {}),
    seed: context.seed,
    policy: context.policy,
    policies: context.policies,
    workers: context.workers,
    interrupted: context.interrupted,
    wins,
    draws: aggregate.draws,
    unfinished: aggregate.unfinished,
    rounds: {
      mean: per(aggregate.roundsSum),
      median: medianOf(aggregate.rounds),
      histogram: aggregate.rounds,
    },
    combatants: Object.values(aggregate.combatants).map((c) => ({
      id: c.id,
      name: c.name,
      side: c.side,
      survival: per(c.survived),
      meanDamageDealt: per(c.damageDealt),
      meanDamageTaken: per(c.damageTaken),
      knockedOut: per(c.knockedOut),
      fled: per(c.fled),
      meanOverkillDealt: per(c.overkillDealt),
      meanOverkillTaken: per(c.overkillTaken),
      meanHpLeft: per(c.hpLeft),
      meanMpLeft: per(c.mpLeft),
    })),
    players: playersReport(aggregate, context, rate, per),
  };
}

function playersReport(
  aggregate: Aggregate,
  context: {
    players: PlayersSide | undefined;
    policies: SidePolicies;
    policy: string;
    sides: readonly { id: string; name: string }[];
  },
  rate: (count: number) => Rate,
  per: (x: number) => number,
): PlayersReport | null {
  const side = context.players;
  if (side === undefined) return null;
  // Ratios of whole-number sums: the same for any split of the battles among workers.
  let hpLeft = 0;
  let hpMax = 0;
  let mpLeft = 0;
  let mpMax = 0;
  let dealt = 0;
  let taken = 0;
  let overDealt = 0;
  let overTaken = 0;
  let itemsHeld = 0;
  let itemsLeft = 0;
  for (const c of Object.values(aggregate.combatants)) {
    if (c.side !== side.id) continue;
    hpLeft += c.hpLeft;
    hpMax += c.hpMax;
    mpLeft += c.mpLeft;
    mpMax += c.mpMax;
    dealt += c.damageDealt;
    taken += c.damageTaken;
    overDealt += c.overkillDealt;
    overTaken += c.overkillTaken;
    itemsHeld += c.itemsHeld;
    itemsLeft += c.itemsLeft;
  }
  return {
    side: side.id,
    name: context.sides.find((s) => s.id === side.id)?.name ?? side.id,
    policy: context.policies[side.id] ?? context.policy,
    chosenBy: side.marked ? 'marked' : 'first',
    someoneKnockedOut: rate(aggregate.playersSomeoneOut),
    everyoneKnockedOut: rate(aggregate.playersAllOut),
    hpLeft: hpMax === 0 ? 0 : hpLeft / hpMax,
    mpLeft: mpMax === 0 ? null : mpLeft / mpMax,
    items:
      itemsHeld === 0
        ? null
        : { meanHeld: per(itemsHeld), meanUsed: per(Math.max(0, itemsHeld - itemsLeft)) },
    meanDamageDealt: per(dealt),
    meanDamageTaken: per(taken),
    meanOverkillDealt: per(overDealt),
    meanOverkillTaken: per(overTaken),
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** The report as a person reads it. */
export function renderReport(report: SimReport): string[] {
  const lines: string[] = [];
  const where =
    report.from === 'start'
      ? ''
      : ` from now${report.entry === undefined ? '' : ` (entry ${report.entry})`}`;
  const head = `${report.battles.toLocaleString('en-US')} battles${where} (seed ${report.seed}, policy ${report.policy}, ${report.workers} worker${report.workers === 1 ? '' : 's'})`;
  lines.push(report.interrupted ? `${head}: interrupted, partial result` : head);
  // Per side only when the sides differ: the head already names a policy every side shares.
  const mixed = new Set(Object.values(report.policies)).size > 1;
  // Two decimals: with many battles the interval is narrower than a tenth of a percent.
  const fine = (x: number): string => `${(x * 100).toFixed(2)}%`;
  for (const [, w] of Object.entries(report.wins)) {
    lines.push(
      `  ${w.name} win ${fine(w.rate)} (95% CI ${fine(w.ci95[0])} to ${fine(w.ci95[1])})${mixed ? ` [${w.policy}]` : ''}`,
    );
  }
  lines.push(
    `  draws ${report.draws}${report.unfinished > 0 ? `, unfinished ${report.unfinished}` : ''}`,
  );
  lines.push(
    `Rounds${report.from === 'now' ? ' begun after now' : ''}: mean ${report.rounds.mean.toFixed(2)}, median ${report.rounds.median}`,
  );
  const entries = Object.entries(report.rounds.histogram)
    .map(([k, v]) => [Number(k), v] as const)
    .sort((a, b) => a[0] - b[0]);
  const top = Math.max(1, ...entries.map(([, v]) => v));
  for (const [rounds, count] of entries) {
    const bar = '█'.repeat(Math.round((count / top) * 40));
    lines.push(
      `  ${String(rounds).padStart(4)}  ${pct(count / Math.max(1, report.battles)).padStart(6)}  ${bar}`,
    );
  }
  const p = report.players;
  if (p !== null) {
    const which = p.chosenBy === 'marked' ? 'the players' : 'the first side, taken as the players';
    lines.push(`${p.name} (${which}, policy ${p.policy}):`);
    const ci = (r: Rate): string =>
      `${fine(r.rate)} (95% CI ${fine(r.ci95[0])} to ${fine(r.ci95[1])})`;
    lines.push(`  someone knocked out  ${ci(p.someoneKnockedOut)}`);
    lines.push(`  all knocked out      ${ci(p.everyoneKnockedOut)}`);
    lines.push(
      `  left at the end      HP ${pct(p.hpLeft)}${p.mpLeft === null ? '' : `, MP ${pct(p.mpLeft)}`}`,
    );
    if (p.items !== null)
      lines.push(
        `  items used           ${p.items.meanUsed.toFixed(2)} a battle, of ${p.items.meanHeld.toFixed(1)} carried`,
      );
    lines.push(
      `  a battle             dealt ${p.meanDamageDealt.toFixed(1)} HP (+${p.meanOverkillDealt.toFixed(1)} overkill), lost ${p.meanDamageTaken.toFixed(1)} HP (+${p.meanOverkillTaken.toFixed(1)} overkill)`,
    );
  }
  // A fled column only when someone fled: the usual table stays as it was.
  const anyFled = report.combatants.some((c) => c.fled > 0);
  lines.push(
    `Combatants: survival, knocked out, ${anyFled ? 'fled, ' : ''}mean HP dealt, HP lost, overkill taken, HP left at the end`,
  );
  const width = Math.max(...report.combatants.map((c) => c.name.length), 4);
  for (const c of report.combatants) {
    const fled = anyFled ? `  ${pct(c.fled).padStart(6)}` : '';
    lines.push(
      `  ${c.name.padEnd(width)}  ${pct(c.survival).padStart(6)}  ${pct(c.knockedOut).padStart(6)}${fled}  ${c.meanDamageDealt.toFixed(1).padStart(8)}  ${c.meanDamageTaken.toFixed(1).padStart(8)}  ${c.meanOverkillTaken.toFixed(1).padStart(8)}  ${c.meanHpLeft.toFixed(1).padStart(8)}`,
    );
  }
  return lines;
}
