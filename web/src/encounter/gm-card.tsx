import { useRef, useState } from 'preact/hooks';
import type { GmStatusChoice, SeenCombatant } from '../types.js';
import { busy, type GmTouch, isAbout, sendGm, signed } from './touch.js';

/**
 * A value the GM changes by one with − and +, or sets by typing in place: Enter or leaving the
 * field sends it, Escape puts back what it was. The engine bounds it (a maximum, 0) and says so.
 */
export function Stepper({
  who,
  label,
  value,
  max,
  min,
  disabled,
  onChange,
}: {
  who: string;
  label: string;
  value: number;
  max?: number | undefined;
  min: number;
  disabled: boolean;
  onChange: (value: number, relative: boolean) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const cancelled = useRef(false);
  const commit = () => {
    const text = draft?.trim() ?? '';
    setDraft(null);
    if (cancelled.current) {
      cancelled.current = false;
      return;
    }
    if (!/^-?\d{1,7}$/.test(text)) return;
    const wanted = Number(text);
    if (wanted !== value) onChange(wanted, false);
  };
  return (
    <div class="stepper" data-stepper={label}>
      <span class="stepper-label">{label}</span>
      <button
        type="button"
        class="step"
        aria-label={`${who} ${label} minus 1`}
        disabled={disabled || value <= min}
        onClick={() => onChange(-1, true)}
      >
        −
      </button>
      <input
        class="step-value"
        inputMode="numeric"
        aria-label={`${who} ${label}`}
        value={draft ?? String(value)}
        disabled={disabled}
        size={4}
        onFocus={(e) => {
          setDraft(String(value));
          e.currentTarget.select();
        }}
        onInput={(e) => setDraft(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            e.currentTarget.blur();
          } else if (e.key === 'Escape') {
            cancelled.current = true;
            e.currentTarget.blur();
          }
        }}
        onBlur={commit}
      />
      <button
        type="button"
        class="step"
        aria-label={`${who} ${label} plus 1`}
        disabled={disabled || (max !== undefined && value >= max)}
        onClick={() => onChange(1, true)}
      >
        +
      </button>
    </div>
  );
}

/** What a timer field takes: a count, `infinite` or `∞`; empty for the status' usual length. */
function timerOf(text: string): number | 'infinite' | undefined | null {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  if (t === '∞' || t === 'infinite') return 'infinite';
  if (/^\d{1,3}$/.test(t) && Number(t) >= 1) return Number(t);
  return null;
}

function usualText(s: GmStatusChoice | undefined): string {
  if (s === undefined || s.timer === 'none') return '';
  if (s.timer === 'required') return 'needed';
  if (s.usual === null) return 'until cured';
  return s.usual === 'infinite' ? '∞' : `usual ${s.usual}`;
}

/** A status from the system's list, with its duration where the system times statuses. */
function StatusPicker({ c, touch }: { c: SeenCombatant; touch: GmTouch }) {
  const menu = touch.kit?.menu;
  const [status, setStatus] = useState('');
  const [timer, setTimer] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (menu === undefined) return null;
  const id = status.trim().toLowerCase().replace(/\s+/g, '-');
  const choice = menu.statuses.find((s) => s.id === id);
  const timed = choice?.timer !== 'none';
  const unit = choice?.unit ?? menu.timerUnit;
  const listId = `statuses-${c.id}`;
  return (
    <form
      class="status-picker row"
      onSubmit={(e) => {
        e.preventDefault();
        if (id === '') return;
        const t = timed ? timerOf(timer) : undefined;
        if (t === null) {
          setProblem(`a duration is a number of ${unit} from 1, or ∞`);
          return;
        }
        setProblem(null);
        sendGm(
          touch,
          { type: 'gm-status', target: c.id, status: id, ...(t === undefined ? {} : { timer: t }) },
          `gm status ${c.id} +${id}${t === undefined ? '' : ` ${t}`}`,
        );
        setStatus('');
        setTimer('');
      }}
    >
      {menu.freeStatuses ? (
        <>
          <input
            aria-label={`${c.name} status to add`}
            list={listId}
            value={status}
            maxLength={40}
            placeholder="status"
            onInput={(e) => setStatus(e.currentTarget.value)}
          />
          <datalist id={listId}>
            {menu.statuses.map((s) => (
              <option key={s.id} value={s.id} />
            ))}
          </datalist>
        </>
      ) : (
        <select
          aria-label={`${c.name} status to add`}
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value)}
        >
          <option value="">Add a status…</option>
          {menu.statuses.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      )}
      {timed && (
        <input
          class="status-timer"
          aria-label={`${c.name} status duration in ${unit}`}
          value={timer}
          size={5}
          maxLength={8}
          placeholder={usualText(choice) || unit}
          onInput={(e) => setTimer(e.currentTarget.value)}
        />
      )}
      <button type="submit" disabled={busy(touch) || id === ''}>
        Add status
      </button>
      {problem && <p class="refusal small">{problem}</p>}
    </form>
  );
}

/** Out of the fight at the GM's word, after a second, explicit choice of why. */
function RemoveButton({ c, touch }: { c: SeenCombatant; touch: GmTouch }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button
        type="button"
        aria-label={`Remove ${c.name}…`}
        disabled={busy(touch)}
        onClick={() => setConfirming(true)}
      >
        Remove…
      </button>
    );
  const remove = (reason: 'fled' | 'dismissed') => {
    setConfirming(false);
    sendGm(touch, { type: 'gm-remove', target: c.id, reason }, `gm remove ${c.id} ${reason}`);
  };
  return (
    <fieldset class="confirm" aria-label={`Remove ${c.name}?`}>
      <p class="small">Take {c.name} out of the fight?</p>
      <div class="row">
        <button type="button" onClick={() => remove('fled')}>
          It fled
        </button>
        <button type="button" onClick={() => remove('dismissed')}>
          Dismiss it
        </button>
        <button type="button" class="primary" onClick={() => setConfirming(false)}>
          Keep it
        </button>
      </div>
    </fieldset>
  );
}

/** The GM's touch controls on one card: HP, MP, its place on the clock, statuses, removal. */
export function GmCardControls({ c, touch }: { c: SeenCombatant; touch: GmTouch }) {
  const off = busy(touch);
  const clock = touch.kit?.menu.clock;
  const place = clock === undefined ? null : c.clock[clock.key];
  const refusal = touch.snapshot.refusal;
  const resource = (name: 'hp' | 'mp') => (value: number, relative: boolean) =>
    sendGm(
      touch,
      { type: 'gm-set', target: c.id, resource: name, value, relative },
      `gm ${name} ${c.id} ${signed(value, relative)}`,
    );
  return (
    <div class="gm-controls" data-gm-controls={c.id}>
      {c.hp !== null && c.maxHp !== null && (
        <Stepper
          who={c.name}
          label="HP"
          value={c.hp}
          max={c.maxHp}
          min={0}
          disabled={off}
          onChange={resource('hp')}
        />
      )}
      {c.mp !== null && c.maxMp !== null && c.maxMp > 0 && (
        <Stepper
          who={c.name}
          label="MP"
          value={c.mp}
          max={c.maxMp}
          min={0}
          disabled={off}
          onChange={resource('mp')}
        />
      )}
      {clock !== undefined && typeof place === 'number' && (
        <Stepper
          who={c.name}
          label={clock.label}
          value={place}
          min={clock.min}
          disabled={off}
          onChange={(value, relative) =>
            sendGm(
              touch,
              { type: 'gm-clock', target: c.id, value, relative },
              `gm clock ${c.id} ${signed(value, relative)}`,
            )
          }
        />
      )}
      {touch.kit?.menu.counters.map((counter) => {
        const n = c.clock[counter.key];
        if (typeof n !== 'number') return null;
        return (
          <Stepper
            key={counter.key}
            who={c.name}
            label={counter.label}
            value={n}
            min={counter.min}
            disabled={off}
            onChange={(value, relative) =>
              sendGm(
                touch,
                { type: 'gm-set', target: c.id, resource: counter.resource, value, relative },
                `gm ${counter.resource} ${c.id} ${signed(value, relative)}`,
              )
            }
          />
        );
      })}
      {!c.fled && <StatusPicker c={c} touch={touch} />}
      {!c.fled && <RemoveButton c={c} touch={touch} />}
      {refusal !== null && isAbout(refusal.what, c.id) && (
        <p role="alert" class="refusal small">
          {refusal.message}
        </p>
      )}
    </div>
  );
}

/** One status on a card; the GM ends it with one click. */
export function StatusChip({
  c,
  s,
  touch,
}: {
  c: SeenCombatant;
  s: SeenCombatant['statuses'][number];
  touch?: GmTouch | undefined;
}) {
  const id = s.id;
  return (
    <li>
      {s.name}
      {s.timer ? ` (${s.timer})` : ''}
      {touch !== undefined && id !== undefined && (
        <button
          type="button"
          class="chip-remove"
          aria-label={`End ${s.name} on ${c.name}`}
          disabled={busy(touch)}
          onClick={() =>
            sendGm(
              touch,
              { type: 'gm-status', target: c.id, status: id, remove: true },
              `gm status ${c.id} -${id}`,
            )
          }
        >
          ×
        </button>
      )}
    </li>
  );
}
