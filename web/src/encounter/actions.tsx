import { useEffect, useState } from 'preact/hooks';
import type { LiveEncounter, LiveSnapshot } from '../live.js';
import type { OfferedAction, SeenView } from '../types.js';
import { type EnteredRoll, misfit, parseEntered } from './entered.js';
import { nameOf } from './status.js';

/** How a refusal reads at the table: what happened, and what to do now. */
export function explainRefusal(code: string, message: string): string {
  if (code === 'submit/stale') {
    return `The fight moved on before this arrived (${message}). Look at the screen again and choose anew.`;
  }
  if (code === 'role/not-your-turn') return `It is not your turn: ${message}`;
  if (code === 'role/not-your-character') return `That is not your character: ${message}`;
  if (code === 'role/not-your-roll') return `You may enter only your own dice: ${message}`;
  return message;
}

function pct(x: number | undefined): string {
  return x === undefined ? '' : `${(x * 100).toFixed(x > 0 && x < 0.01 ? 1 : 0)}%`;
}

/** A compact odds line: hit, damage, knock-out, cost, in the engine's summary words. */
function OddsInline({ action }: { action: OfferedAction }) {
  if (!action.odds) return null;
  return <span class="odds-inline">{action.odds.summary}</span>;
}

/**
 * What was typed into an action's dice, kept while the server answers: a refusal of the dice
 * opens the action again with every value as it was.
 */
interface Draft {
  /** The action's command as JSON: the same action, found again in the list. */
  readonly command: string;
  /** What the submit was called, as a refusal names it. */
  readonly label: string;
  readonly entering: boolean;
  readonly dice: Readonly<Record<string, string>>;
  readonly totals: Readonly<Record<string, boolean>>;
}

/** The one entry that is wrong, and why, beside its field. */
interface Wrong {
  readonly purpose: string;
  readonly message: string;
}

/** A refusal's purpose names a repeat as `damage:heket#2`; its slot is the base purpose. */
const slotOf = (purpose: string): string => purpose.replace(/#\d+$/, '');

function Detail({
  action,
  view,
  live,
  role,
  draft,
  refused,
  onSubmit,
  onDone,
}: {
  action: OfferedAction;
  view: SeenView;
  live: LiveEncounter;
  role: LiveSnapshot['role'];
  /** What was typed before a refusal, to type from again. */
  draft: Draft | undefined;
  /** The server's refusal of one entered roll. */
  refused: Wrong | undefined;
  onSubmit: (draft: Draft) => void;
  onDone: () => void;
}) {
  // A player enters only its own character's dice (the server refuses the rest), so the slots
  // of rolls made against it or by the table are not offered to it at all.
  const slots =
    role?.role === 'player'
      ? action.rolls.filter((slot) => slot.roller === role.characterId)
      : action.rolls;
  const [entering, setEntering] = useState(draft?.entering ?? false);
  const [dice, setDice] = useState<Record<string, string>>({ ...draft?.dice });
  const [totals, setTotals] = useState<Record<string, boolean>>({ ...draft?.totals });
  const [wrong, setWrong] = useState<Wrong | undefined>(
    refused === undefined ? undefined : { ...refused, purpose: slotOf(refused.purpose) },
  );
  const odds = action.odds;
  const commit = (event: Event) => {
    event.preventDefault();
    const entered: Record<string, EnteredRoll> = {};
    if (entering) {
      for (const slot of slots) {
        const text = dice[slot.purpose] ?? '';
        const total = totals[slot.purpose] === true;
        const parsed = parseEntered(text, total);
        const why =
          text.trim() === ''
            ? undefined
            : parsed === undefined
              ? total
                ? 'a total is one number (32)'
                : 'write the dice as they lie (10, or 3 7)'
              : misfit(slot, parsed);
        if (why !== undefined) {
          setWrong({ purpose: slot.purpose, message: why });
          return;
        }
        if (parsed) entered[slot.purpose] = parsed;
      }
    }
    setWrong(undefined);
    onSubmit({
      command: JSON.stringify(action.command),
      label: action.label,
      entering,
      dice,
      totals,
    });
    live.submit({ kind: 'command', command: action.command }, action.label, entered);
    onDone();
  };
  const target = odds?.target !== undefined ? nameOf(view, odds.target) : undefined;
  return (
    <form class="detail panel" onSubmit={commit} aria-labelledby="detail-h">
      <h3 id="detail-h">{action.label}</h3>
      {odds ? (
        <>
          <dl class="odds">
            {target && (
              <>
                <dt>Against</dt>
                <dd>{target}</dd>
              </>
            )}
            {odds.chance !== undefined && (
              <>
                <dt>Chance</dt>
                <dd>{pct(odds.chance)}</dd>
              </>
            )}
            {odds.damage && (
              <>
                <dt>Damage</dt>
                <dd>
                  {odds.damage.min}–{odds.damage.max} (mean {odds.damage.mean.toFixed(1)})
                </dd>
              </>
            )}
            {odds.knockOut !== undefined && (
              <>
                <dt>Knock out</dt>
                <dd>{pct(odds.knockOut)}</dd>
              </>
            )}
            {odds.cost && (
              <>
                <dt>Cost</dt>
                <dd>{odds.cost}</dd>
              </>
            )}
          </dl>
          {odds.lines.length > 0 && <pre class="odds-lines">{odds.lines.join('\n')}</pre>}
        </>
      ) : (
        <p class="muted">No odds to show for this one.</p>
      )}
      {slots.length > 0 && (
        <fieldset class="dice">
          <legend>Dice</legend>
          <label>
            <input
              type="radio"
              name="dice-mode"
              checked={!entering}
              onChange={() => setEntering(false)}
            />{' '}
            The server rolls
          </label>
          <label>
            <input
              type="radio"
              name="dice-mode"
              checked={entering}
              onChange={() => setEntering(true)}
            />{' '}
            Enter dice rolled at the table
          </label>
          {entering && (
            <div class="slots">
              {slots.map((slot) => {
                const range = slot.accepts;
                const bad = wrong?.purpose === slot.purpose ? wrong.message : undefined;
                const errorId = `slot-error-${slot.purpose}`;
                return (
                  <div key={slot.purpose} class="slot">
                    <label>
                      <span>
                        {slot.purpose} <strong class="slot-label">{slot.label}</strong>
                        {range !== '' && <span class="slot-range muted"> ({range})</span>}
                      </span>
                      <input
                        aria-invalid={bad !== undefined ? 'true' : undefined}
                        aria-describedby={bad !== undefined ? errorId : undefined}
                        inputMode="numeric"
                        placeholder={
                          totals[slot.purpose]
                            ? 'the total with modifiers (32)'
                            : 'the dice as they lie (10, or 3 7); blank: server rolls'
                        }
                        data-purpose={slot.purpose}
                        value={dice[slot.purpose] ?? ''}
                        onInput={(e) =>
                          setDice((d) => ({ ...d, [slot.purpose]: e.currentTarget.value }))
                        }
                      />
                    </label>
                    <label class="slot-total">
                      <input
                        type="checkbox"
                        data-total-for={slot.purpose}
                        checked={totals[slot.purpose] === true}
                        onChange={(e) =>
                          setTotals((t) => ({ ...t, [slot.purpose]: e.currentTarget.checked }))
                        }
                      />{' '}
                      total (modifiers added)
                    </label>
                    {bad !== undefined && (
                      <p id={errorId} class="slot-error refusal">
                        {bad}
                      </p>
                    )}
                  </div>
                );
              })}
            </div>
          )}
        </fieldset>
      )}
      {wrong && (
        <p role="alert" class="refusal">
          {wrong.purpose}: {wrong.message}
        </p>
      )}
      <div class="row">
        <button type="submit" class="primary">
          Do it: {action.label}
        </button>
        <button type="button" onClick={onDone}>
          Choose another
        </button>
      </div>
    </form>
  );
}

/**
 * The legal actions with their odds inline; choosing one shows its detail and dice before it
 * is committed. Moves of a grid system come by the hundred: one list of cells stands for them.
 */
export function ActionsPanel({
  snapshot,
  live,
  selected,
  setSelected,
  heading,
}: {
  snapshot: LiveSnapshot;
  live: LiveEncounter;
  selected: number | null;
  setSelected: (i: number | null) => void;
  heading: string;
}) {
  const state = snapshot.state!;
  const actions = state.actions;
  const [draft, setDraft] = useState<Draft | undefined>(undefined);
  useEffect(() => {
    if (selected !== null && selected >= actions.length) setSelected(null);
  }, [actions, selected, setSelected]);
  // A draft is for the state it was typed in: once the fight moves on, nothing reopens it.
  useEffect(() => setDraft(undefined), [state.seq]);
  // Dice the server refused: the action opens again as it was typed, the wrong roll marked.
  const { refusal } = snapshot;
  const diceRefused =
    refusal !== null &&
    draft !== undefined &&
    refusal.what === draft.label &&
    (refusal.purpose !== undefined || refusal.code.startsWith('dice/'));
  const refused =
    diceRefused && refusal.purpose !== undefined
      ? { purpose: refusal.purpose, message: refusal.message }
      : undefined;
  useEffect(() => {
    if (!diceRefused) return;
    const again = actions.findIndex((a) => JSON.stringify(a.command) === draft.command);
    if (again >= 0) setSelected(again);
  }, [refusal]);
  const groups = new Map<string, number[]>();
  const single: number[] = [];
  actions.forEach((a, i) => {
    if (a.group === undefined) single.push(i);
    else groups.set(a.group, [...(groups.get(a.group) ?? []), i]);
  });
  const chosen = selected === null ? undefined : actions[selected];
  // Labels leave out who acts when it is one combatant's actions ("Attack Goblin"): the
  // heading names it once.
  const actors = new Set(actions.map((a) => a.command.actor));
  const only = actors.size === 1 ? [...actors][0] : undefined;
  const actor = typeof only === 'string' ? nameOf(state.view, only) : '';
  return (
    <section class="actions panel" aria-labelledby="actions-h">
      <h2 id="actions-h">
        {heading}
        {actor !== '' && <span class="actions-actor">: {actor}</span>}
      </h2>
      {snapshot.refusal && (
        <div role="alert" class="refusal">
          <p>
            <strong>✕ Refused:</strong> {snapshot.refusal.what}.{' '}
            {explainRefusal(snapshot.refusal.code, snapshot.refusal.message)}
          </p>
          <button type="button" onClick={() => live.dismissRefusal()}>
            Dismiss
          </button>
        </div>
      )}
      {snapshot.pending && (
        <p class="pending" role="status">
          {snapshot.pending.queued ? '◌ Waiting for the connection to send: ' : '◌ Sending: '}
          {snapshot.pending.what}
        </p>
      )}
      {chosen ? (
        <Detail
          key={`${state.seq}-${selected}`}
          action={chosen}
          view={state.view}
          live={live}
          role={snapshot.role}
          draft={
            draft !== undefined && draft.command === JSON.stringify(chosen.command)
              ? draft
              : undefined
          }
          refused={draft?.command === JSON.stringify(chosen.command) ? refused : undefined}
          onSubmit={setDraft}
          onDone={() => setSelected(null)}
        />
      ) : actions.length === 0 ? (
        <p class="muted">Nothing to do here now.</p>
      ) : (
        <>
          <ul class="action-list">
            {single.map((i) => {
              const a = actions[i]!;
              return (
                <li key={`${state.seq}-${i}`}>
                  <button type="button" class="action" onClick={() => setSelected(i)}>
                    <span class="action-label">{a.label}</span>
                    <OddsInline action={a} />
                  </button>
                </li>
              );
            })}
          </ul>
          {[...groups].map(([group, indexes]) => (
            <label key={group} class="group-pick">
              {group === 'move' ? 'Move to a cell (or click one on the grid)' : group}{' '}
              <select
                value=""
                onChange={(e) => {
                  const i = Number(e.currentTarget.value);
                  if (Number.isInteger(i)) setSelected(i);
                }}
              >
                <option value="">choose…</option>
                {indexes.map((i) => (
                  <option key={i} value={i}>
                    {actions[i]!.label}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </>
      )}
    </section>
  );
}
