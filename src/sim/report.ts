import type { Aggregate } from './aggregate.js';

/** Wilson score interval at 95%: honest near 0% and 100%, where the normal one is not. */
export function wilson(successes: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959963984540054;
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

export interface SimReport {
  readonly battles: number;
  readonly seed: string;
  readonly policy: string;
  readonly workers: number;
  readonly interrupted: boolean;
  readonly wins: Record<
    string,
    {
      readonly name: string;
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
  }[];
}

export function buildReport(
  aggregate: Aggregate,
  context: {
    seed: string;
    policy: string;
    workers: number;
    interrupted: boolean;
    sides: readonly { id: string; name: string }[];
  },
): SimReport {
  const n = aggregate.battles;
  const per = (x: number): number => (n === 0 ? 0 : x / n);
  const wins: SimReport['wins'] = {};
  for (const side of context.sides) {
    const count = aggregate.wins[side.id] ?? 0;
    wins[side.id] = { name: side.name, count, rate: per(count), ci95: wilson(count, n) };
  }
  return {
    battles: n,
    seed: context.seed,
    policy: context.policy,
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
    })),
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** The report as a person reads it. */
export function renderReport(report: SimReport): string[] {
  const lines: string[] = [];
  const head = `${report.battles.toLocaleString('en-US')} battles (seed ${report.seed}, policy ${report.policy}, ${report.workers} worker${report.workers === 1 ? '' : 's'})`;
  lines.push(report.interrupted ? `${head}: interrupted, partial result` : head);
  for (const [, w] of Object.entries(report.wins)) {
    // Two decimals: with many battles the interval is narrower than a tenth of a percent.
    const fine = (x: number): string => `${(x * 100).toFixed(2)}%`;
    lines.push(`  ${w.name} win ${fine(w.rate)} (95% CI ${fine(w.ci95[0])} to ${fine(w.ci95[1])})`);
  }
  lines.push(
    `  draws ${report.draws}${report.unfinished > 0 ? `, unfinished ${report.unfinished}` : ''}`,
  );
  lines.push(`Rounds: mean ${report.rounds.mean.toFixed(2)}, median ${report.rounds.median}`);
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
  lines.push('Combatants: survival, mean damage dealt, mean damage taken');
  const width = Math.max(...report.combatants.map((c) => c.name.length), 4);
  for (const c of report.combatants) {
    lines.push(
      `  ${c.name.padEnd(width)}  ${pct(c.survival).padStart(6)}  ${c.meanDamageDealt.toFixed(1).padStart(8)}  ${c.meanDamageTaken.toFixed(1).padStart(8)}`,
    );
  }
  return lines;
}
