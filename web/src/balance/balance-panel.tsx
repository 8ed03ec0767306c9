import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import type { SimReport } from '../types.js';

/** The largest run the server takes (src/server/balance-route.ts). */
const MAX_BATTLES = 20_000;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Win rates as bars, each with its 95% interval as a whisker. */
function WinChart({ report }: { report: SimReport }) {
  const sides = Object.entries(report.wins);
  const W = 360;
  const left = 120;
  const H = 16 + sides.length * 28;
  const x = (v: number) => left + v * (W - left - 50);
  const summary = sides
    .map(([, w]) => `${w.name} wins ${pct(w.rate)} (95% ${pct(w.ci95[0])} to ${pct(w.ci95[1])})`)
    .join('; ');
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Win rates: ${summary}`}>
      <title>{summary}</title>
      {sides.map(([id, w], i) => {
        const y = 8 + i * 28;
        return (
          <g key={id}>
            <text x={4} y={y + 13} class="marker-label">
              {w.name}
            </text>
            <rect x={left} y={y} width={x(w.rate) - left} height={18} class="chart-bar" />
            <line x1={x(w.ci95[0])} x2={x(w.ci95[1])} y1={y + 9} y2={y + 9} class="whisker" />
            <line x1={x(w.ci95[0])} x2={x(w.ci95[0])} y1={y + 3} y2={y + 15} class="whisker" />
            <line x1={x(w.ci95[1])} x2={x(w.ci95[1])} y1={y + 3} y2={y + 15} class="whisker" />
            <text x={x(Math.max(w.ci95[1], w.rate)) + 4} y={y + 13} class="marker-label">
              {pct(w.rate)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function RoundsChart({ report }: { report: SimReport }) {
  const bins = Object.entries(report.rounds.histogram)
    .map(([k, n]) => [Number(k), n] as const)
    .sort((a, b) => a[0] - b[0]);
  if (bins.length === 0) return null;
  const W = 360;
  const H = 120;
  const most = Math.max(...bins.map(([, n]) => n));
  const bw = (W - 20) / bins.length;
  const what = report.from === 'now' ? 'Rounds begun after now' : 'Rounds to finish';
  const summary = `${what}: mean ${report.rounds.mean.toFixed(1)}, median ${report.rounds.median}`;
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
      <title>{summary}</title>
      {bins.map(([rounds, n], i) => {
        const h = (n / most) * (H - 30);
        return (
          <g key={rounds}>
            <rect
              x={10 + i * bw}
              y={H - 18 - h}
              width={Math.max(1, bw - 2)}
              height={h}
              class="chart-bar"
            />
            {(bins.length <= 20 || i % Math.ceil(bins.length / 20) === 0) && (
              <text x={10 + i * bw + bw / 2} y={H - 4} class="tick-label" text-anchor="middle">
                {rounds}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

function SurvivalChart({ report }: { report: SimReport }) {
  const rows = report.combatants;
  const W = 360;
  const left = 120;
  const H = 8 + rows.length * 22;
  const x = (v: number) => left + v * (W - left - 50);
  const summary = rows.map((c) => `${c.name} survives ${pct(c.survival)}`).join('; ');
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Survival: ${summary}`}>
      <title>{summary}</title>
      {rows.map((c, i) => {
        const y = 4 + i * 22;
        return (
          <g key={c.id}>
            <text x={4} y={y + 12} class="marker-label">
              {c.name}
            </text>
            <rect x={left} y={y} width={x(c.survival) - left} height={15} class="chart-bar" />
            <text x={x(c.survival) + 4} y={y + 12} class="marker-label">
              {pct(c.survival)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Where a report's battles started, in words. */
function startedFrom(report: SimReport): string {
  if (report.from === 'start') return "from the encounter's start";
  return report.entry === undefined ? 'from now' : `from now (entry ${report.entry})`;
}

/**
 * Simulated battles of the encounter, run by the server: a progress bar, a cancel button, and
 * the results as charts with their numbers in words. By default they start from the encounter
 * as it stands at entry `entry` (HP lost, statuses, newcomers, the clock), or from its start.
 */
export function BalancePanel({
  api,
  encounterId,
  entry,
}: {
  api: Api;
  encounterId: string;
  entry: number;
}) {
  const [battles, setBattles] = useState(1000);
  const [from, setFrom] = useState<'now' | 'start'>('now');
  const [progress, setProgress] = useState<{ done: number; battles: number } | null>(null);
  const [report, setReport] = useState<SimReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const source = useRef<EventSource | null>(null);
  useEffect(() => () => source.current?.close(), []);
  const stop = () => {
    source.current?.close();
    source.current = null;
    setProgress(null);
  };
  const run = (event: Event) => {
    event.preventDefault();
    stop();
    setReport(null);
    setError(null);
    const es = new EventSource(
      api.eventsUrl(
        `/api/encounters/${encodeURIComponent(encounterId)}/balance?battles=${battles}&from=${from}`,
      ),
    );
    source.current = es;
    setProgress({ done: 0, battles });
    es.addEventListener('progress', (e) => setProgress(JSON.parse((e as MessageEvent).data)));
    es.addEventListener('report', (e) => {
      setReport(JSON.parse((e as MessageEvent).data) as SimReport);
      stop();
    });
    es.addEventListener('failed', (e) => {
      setError(JSON.parse((e as MessageEvent).data).message);
      stop();
    });
    es.onerror = () => {
      if (source.current === es) {
        setError('the simulation could not run (the server may be busy with others)');
        stop();
      }
    };
  };
  return (
    <section class="panel balance" aria-labelledby="balance-h">
      <h2 id="balance-h">Balance</h2>
      <form class="row" onSubmit={run}>
        <label>
          Battles{' '}
          <input
            type="number"
            min={1}
            max={MAX_BATTLES}
            value={battles}
            onInput={(e) =>
              setBattles(Math.max(1, Math.min(MAX_BATTLES, Number(e.currentTarget.value) || 1)))
            }
          />
        </label>
        <fieldset class="balance-from">
          <legend>Start</legend>
          <label class="check">
            <input
              type="radio"
              name="balance-from"
              value="now"
              checked={from === 'now'}
              onChange={() => setFrom('now')}
            />{' '}
            from now (entry {entry})
          </label>
          <label class="check">
            <input
              type="radio"
              name="balance-from"
              value="start"
              checked={from === 'start'}
              onChange={() => setFrom('start')}
            />{' '}
            from the start
          </label>
        </fieldset>
        <button type="submit" disabled={progress !== null}>
          Simulate
        </button>
        {progress && (
          <button type="button" onClick={stop}>
            Cancel
          </button>
        )}
      </form>
      {progress && (
        <p>
          <label>
            {progress.done} of {progress.battles} battles{' '}
            <progress max={progress.battles} value={progress.done} />
          </label>
        </p>
      )}
      {error && (
        <p role="alert" class="refusal">
          {error}
        </p>
      )}
      {report && (
        <div class="balance-report" role="status">
          <p>
            {report.battles} battles {startedFrom(report)} ({report.policy} play)
            {report.interrupted ? ', cut short' : ''}.
          </p>
          <h3>Win rate (95% interval)</h3>
          <WinChart report={report} />
          <h3>
            {report.from === 'now'
              ? 'Rounds begun after now (0: it ends in the round under way)'
              : 'Rounds to finish'}
          </h3>
          <RoundsChart report={report} />
          <h3>Survival</h3>
          <SurvivalChart report={report} />
        </div>
      )}
    </section>
  );
}
