/**
 * The draft's balance while it is built: the players' predicted win rate (a few hundred battles
 * on the server, again 600 ms after the last change, the previous run cancelled), and "Tune to
 * N%": the balance search over one monster's HP or count, with progress, Cancel, and the answer
 * with its 95% interval.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Api, ApiError } from '../api.js';
import { defaultHpRange } from '../systems.js';
import { postEvents } from './stream.js';

/** A monster of the draft: its content id, name and how many of it fight. */
export interface DraftMonster {
  readonly ref: string;
  readonly name: string;
  readonly count: number;
}

interface Props {
  readonly api: Api;
  readonly system: string;
  /** The encounter file the draft makes (or the GM's edit of it). */
  readonly file: string;
  readonly monsters: readonly DraftMonster[];
  /** "Use this" for a count: the draft gets that many of the monster. */
  readonly onUseCount: (ref: string, count: number) => void;
  /** "Use this" for HP: the monster's entries in the draft get that maximum HP (`maxHp:`). */
  readonly onUseHp: (ref: string, hp: number) => void;
}

interface Prediction {
  readonly rate: number;
  readonly low: number;
  readonly high: number;
  readonly battles: number;
}

interface TuneResult {
  readonly value: number | null;
  readonly winRate: { rate: number; low: number; high: number } | null;
  readonly onTarget: boolean;
  readonly outside: 'above' | 'below' | null;
  readonly battles: number;
  readonly ms: number;
  readonly vary: { combatant: string; field: string };
}

/** The battles a tune may play at most (the search's default budget): the bar's end. */
const TUNE_BUDGET = 10_000;
const DEBOUNCE_MS = 600;

const pct = (x: number) => `${Math.round(x * 100)}%`;

export function TunePanel({ api, system, file, monsters, onUseCount, onUseHp }: Props) {
  const [prediction, setPrediction] = useState<Prediction | null>(null);
  const [predicting, setPredicting] = useState(false);
  const [predictError, setPredictError] = useState<string | null>(null);
  const [tuning, setTuning] = useState<AbortController | null>(null);

  // The prediction follows the draft, but waits while a tune holds the table's run.
  useEffect(() => {
    if (tuning !== null || file.trim() === '' || monsters.length === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setPredicting(true);
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await postEvents(api, '/api/table/predict', { file }, controller.signal, (event, d) => {
            if (event === 'prediction') {
              setPrediction(d as unknown as Prediction);
              setPredictError(null);
            } else if (event === 'failed') setPredictError(String(d.message));
          });
          break;
        } catch (e) {
          if (controller.signal.aborted) return;
          // The run just cancelled may still hold the table's one run for a moment.
          const busy = e instanceof ApiError && e.status === 429;
          if (!busy || attempt === 4) {
            setPredictError(e instanceof Error ? e.message : String(e));
            break;
          }
          await new Promise((r) => setTimeout(r, 400));
        }
      }
      if (!controller.signal.aborted) setPredicting(false);
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, file, tuning, monsters.length]);

  return (
    <section aria-labelledby="tune-h" class="tune stack" data-testid="tune-panel">
      <h3 id="tune-h">Balance</h3>
      <p aria-live="polite" data-testid="predicted">
        {prediction === null ? (
          monsters.length === 0 ? (
            'Add a monster to see the party’s predicted win rate.'
          ) : (
            'Predicting the party’s win rate…'
          )
        ) : (
          <>
            Predicted party win rate: <strong>{pct(prediction.rate)}</strong> (95% interval{' '}
            {pct(prediction.low)}–{pct(prediction.high)}, {prediction.battles} battles)
            {predicting ? ' — updating…' : ''}
          </>
        )}
      </p>
      {predictError && <p class="refusal">{predictError}</p>}
      {monsters.length > 0 && (
        <TuneForm
          api={api}
          system={system}
          file={file}
          monsters={monsters}
          onUseCount={onUseCount}
          onUseHp={onUseHp}
          onRunning={setTuning}
        />
      )}
    </section>
  );
}

function TuneForm({
  api,
  system,
  file,
  monsters,
  onUseCount,
  onUseHp,
  onRunning,
}: Props & {
  readonly onRunning: (c: AbortController | null) => void;
}) {
  const [monster, setMonster] = useState(monsters[0]!.ref);
  const canCount = system !== 'shining-force';
  const [field, setField] = useState<'hp' | 'count'>('hp');
  const [low, setLow] = useState(defaultHpRange(system).low);
  const [high, setHigh] = useState(defaultHpRange(system).high);
  const [target, setTarget] = useState(75);
  const [battles, setBattles] = useState<number | null>(null);
  const [result, setResult] = useState<TuneResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);
  const chosen = monsters.some((m) => m.ref === monster) ? monster : monsters[0]!.ref;

  useEffect(() => () => running.current?.abort(), []);

  const pickField = (next: 'hp' | 'count') => {
    setField(next);
    if (next === 'count') {
      setLow(1);
      setHigh(8);
    } else {
      setLow(defaultHpRange(system).low);
      setHigh(defaultHpRange(system).high);
    }
  };

  const start = async () => {
    const controller = new AbortController();
    running.current = controller;
    onRunning(controller);
    setResult(null);
    setError(null);
    setBattles(0);
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await postEvents(
            api,
            '/api/table/tune',
            { file, monster: chosen, field, low, high, target: target / 100 },
            controller.signal,
            (event, d) => {
              if (event === 'progress') setBattles(Number(d.battles));
              else if (event === 'result') setResult(d as unknown as TuneResult);
              else if (event === 'failed') setError(String(d.message));
            },
          );
          break;
        } catch (e) {
          // The prediction just cancelled for this tune may hold the table's run a moment more.
          if (e instanceof ApiError && e.status === 429 && attempt < 5) {
            await new Promise((r) => setTimeout(r, 400));
            continue;
          }
          throw e;
        }
      }
    } catch (e) {
      if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
    } finally {
      running.current = null;
      setBattles(null);
      onRunning(null);
    }
  };
  const cancel = () => running.current?.abort();
  const busy = battles !== null;
  const name = monsters.find((m) => m.ref === result?.vary.combatant)?.name;

  return (
    <div class="stack" data-testid="tune">
      <h4>Tune to {target}%</h4>
      <div class="row">
        <label>
          Monster
          <select
            name="tune-monster"
            value={chosen}
            disabled={busy}
            onChange={(e) => setMonster(e.currentTarget.value)}
          >
            {monsters.map((m) => (
              <option key={m.ref} value={m.ref}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Vary
          <select
            name="tune-field"
            value={field}
            disabled={busy}
            onChange={(e) => pickField(e.currentTarget.value as 'hp' | 'count')}
          >
            <option value="hp">its HP</option>
            {canCount && <option value="count">how many fight</option>}
          </select>
        </label>
        <label>
          From
          <input
            name="tune-low"
            type="number"
            min={1}
            value={low}
            disabled={busy}
            onInput={(e) => setLow(Number(e.currentTarget.value))}
          />
        </label>
        <label>
          To
          <input
            name="tune-high"
            type="number"
            min={2}
            value={high}
            disabled={busy}
            onInput={(e) => setHigh(Number(e.currentTarget.value))}
          />
        </label>
        <label>
          Party win rate wanted (%)
          <input
            name="tune-target"
            type="number"
            min={0}
            max={100}
            value={target}
            disabled={busy}
            onInput={(e) => setTarget(Number(e.currentTarget.value))}
          />
        </label>
      </div>
      <div class="row">
        <button type="button" class="primary" disabled={busy} onClick={start}>
          Start the tune
        </button>
        <button type="button" disabled={!busy} onClick={cancel}>
          Cancel
        </button>
      </div>
      {busy && (
        <label>
          Battles played: {battles}
          <progress data-testid="tune-progress" max={TUNE_BUDGET} value={battles ?? 0} />
        </label>
      )}
      {error && (
        <p role="alert" class="refusal">
          {error}
        </p>
      )}
      {result && (
        <div aria-live="polite" data-testid="tune-result">
          {result.value === null || result.winRate === null ? (
            <p>
              No value in {low}–{high} gives the party {target}%: its win rate stays{' '}
              {result.outside === 'above' ? 'below' : 'above'} the target across the range. Widen
              the range or vary something else.
            </p>
          ) : (
            <>
              <p>
                {result.vary.field === 'count'
                  ? `${result.value} × ${name}`
                  : `${name} at ${result.value} HP`}
                : party win rate <strong>{pct(result.winRate.rate)}</strong> (95% interval{' '}
                {pct(result.winRate.low)}–{pct(result.winRate.high)}, {result.battles} battles,{' '}
                {(result.ms / 1000).toFixed(1)} s) —{' '}
                {result.onTarget ? 'on target' : 'the closest we could get'}.
              </p>
              <button
                type="button"
                onClick={() =>
                  result.vary.field === 'count'
                    ? onUseCount(result.vary.combatant, result.value!)
                    : onUseHp(result.vary.combatant, result.value!)
                }
              >
                Use this
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
