import { useState } from 'preact/hooks';
import type { Api } from '../api.js';
import type { LiveEncounter, LiveSnapshot } from '../live.js';
import { entrySummary, undoStacks } from './history.js';

/** Undo and redo, each naming first what it would change. */
export function UndoRedo({ snapshot, live }: { snapshot: LiveSnapshot; live: LiveEncounter }) {
  const state = snapshot.state!;
  const { done, undone } = undoStacks(snapshot.entries);
  // A finished or abandoned encounter's log is closed: the server would refuse either.
  const open = state.status === 'active';
  const nextUndo = open && state.undoable > 0 ? done.at(-1) : undefined;
  const nextRedo = open && state.redoable > 0 ? undone.at(-1) : undefined;
  return (
    <section class="panel undo" aria-labelledby="undo-h">
      <h2 id="undo-h">Undo and redo</h2>
      <p class="small" data-testid="undo-preview">
        {!open
          ? `The encounter is ${state.status}: its log can no longer be undone.`
          : nextUndo
            ? `Undo takes back ${entrySummary(nextUndo)}`
            : 'Nothing to undo.'}
      </p>
      <div class="row">
        <button
          type="button"
          disabled={!nextUndo}
          onClick={() =>
            live.submit(
              { kind: 'undo', steps: 1 },
              `undo ${nextUndo ? entrySummary(nextUndo) : ''}`,
            )
          }
        >
          ↶ Undo
        </button>
        <button
          type="button"
          disabled={!nextRedo}
          onClick={() =>
            live.submit(
              { kind: 'redo', steps: 1 },
              `redo ${nextRedo ? entrySummary(nextRedo) : ''}`,
            )
          }
        >
          ↷ Redo
        </button>
      </div>
      {nextRedo && <p class="small">Redo brings back {entrySummary(nextRedo)}</p>}
    </section>
  );
}

/**
 * The GM's overrides, as the battle screen reads them after `gm`: for keyboards, with examples
 * drawn from this fight (the server composes them from its combatants, sides, statuses and
 * content, and sends them with the GM's view); a click on one puts it in the line to edit.
 */
export function GmLine({ snapshot, live }: { snapshot: LiveSnapshot; live: LiveEncounter }) {
  const [line, setLine] = useState('');
  const examples = snapshot.state?.view.gmExamples ?? [];
  return (
    <section class="panel gm-line" aria-labelledby="gm-line-h">
      <h2 id="gm-line-h">GM override</h2>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (line.trim()) {
            live.submit({ kind: 'gm', line: line.trim() }, `gm ${line.trim()}`);
            setLine('');
          }
        }}
      >
        <label class="grow">
          <span class="visually-hidden">GM line</span>
          <input
            name="gm-line"
            value={line}
            placeholder={examples.slice(0, 2).join(' · ') || 'hp <who> 30 · status <who> +<status>'}
            onInput={(e) => setLine(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Apply</button>
      </form>
      {examples.length > 0 && (
        <p class="small muted gm-examples" data-testid="gm-examples">
          <span>Examples, names or ids:</span>
          {examples.map((example) => (
            <button key={example} type="button" onClick={() => setLine(example)}>
              <code>{example}</code>
            </button>
          ))}
        </p>
      )}
    </section>
  );
}

/**
 * Rolls outside the log, kept with the fight for the GM alone (on every GM screen, after any
 * reconnect), each placed after the log entry it followed.
 */
export function GmRoll({ snapshot, live }: { snapshot: LiveSnapshot; live: LiveEncounter }) {
  const [notation, setNotation] = useState('d20');
  const [label, setLabel] = useState('');
  const [secret, setSecret] = useState(true);
  return (
    <section class="panel" aria-labelledby="roll-h">
      <h2 id="roll-h">GM roll</h2>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (notation.trim()) live.roll(notation.trim(), secret, label.trim() || undefined);
        }}
      >
        <label>
          Dice{' '}
          <input value={notation} size={8} onInput={(e) => setNotation(e.currentTarget.value)} />
        </label>
        <label>
          For <input value={label} size={10} onInput={(e) => setLabel(e.currentTarget.value)} />
        </label>
        <label>
          <input
            type="checkbox"
            checked={secret}
            onChange={(e) => setSecret(e.currentTarget.checked)}
          />{' '}
          Secret
        </label>
        <button type="submit">Roll</button>
      </form>
      <ul class="plain-list small" aria-live="polite">
        {snapshot.rolls.map((r, i) => (
          <li key={i} class="gm-roll">
            <span class="muted">after #{r.afterSeq} </span>
            {r.secret ? '🔒 secret ' : ''}
            {r.label ? `${r.label}: ` : ''}
            {r.text}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Ends the fight: the system's campaign rules apply it to the roster, and say what they gave. */
export function FinishFight({
  api,
  encounterId,
  snapshot,
}: {
  api: Api;
  encounterId: string;
  snapshot: LiveSnapshot;
}) {
  const [report, setReport] = useState<readonly string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Abandoning cannot be taken back: a second, explicit click does it.
  const [confirming, setConfirming] = useState(false);
  const state = snapshot.state!;
  const call = async (what: 'finish' | 'abandon') => {
    try {
      const answer = await api.post<{ report?: string[] }>(
        `/api/encounters/${encounterId}/${what}`,
      );
      setReport(answer.report ?? ['The encounter was abandoned: the roster is as it was.']);
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section class="panel" aria-labelledby="finish-h">
      <h2 id="finish-h">End the fight</h2>
      {state.status === 'active' ? (
        <div class="row">
          <button
            type="button"
            class="primary"
            disabled={!state.outcome.over}
            onClick={() => call('finish')}
          >
            Finish the fight{state.outcome.over ? '' : ' (once it is over)'}
          </button>
          {!confirming && (
            <button type="button" onClick={() => setConfirming(true)}>
              Abandon…
            </button>
          )}
        </div>
      ) : (
        <p>This encounter is {state.status}.</p>
      )}
      {confirming && state.status === 'active' && (
        <div class="confirm">
          <p>Abandon this fight? Nothing it did reaches the roster, and it cannot be taken back.</p>
          <div class="row">
            <button
              type="button"
              onClick={() => {
                setConfirming(false);
                void call('abandon');
              }}
            >
              Yes, abandon it
            </button>
            <button type="button" class="primary" onClick={() => setConfirming(false)}>
              Keep the fight
            </button>
          </div>
        </div>
      )}
      {report && (
        <div class="report" role="status">
          <h3>Report</h3>
          <pre>{report.join('\n')}</pre>
        </div>
      )}
      {error && (
        <p role="alert" class="refusal">
          {error}
        </p>
      )}
    </section>
  );
}
