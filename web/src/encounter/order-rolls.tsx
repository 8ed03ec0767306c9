import { useEffect, useState } from 'preact/hooks';
import type { LiveEncounter, LiveSnapshot } from '../live.js';
import type { RollSlot, SeenView, StatePayload } from '../types.js';
import { misfit, parseEntered } from './entered.js';
import { nameOf } from './status.js';

/**
 * The rolls that order the next round (Initiative, Speed Points, turn order), when the
 * encounter's option gives them to the players: a player's phone enters its own character's
 * ahead of the GM's command that rolls it, and the GM's screen shows whose are in. The server
 * holds each until that command uses it (docs/web.md).
 */

type OrderRolls = NonNullable<StatePayload['orderRolls']>;

/** An entered roll as the table wrote it: `7`, `3 5`, `total 15`. */
export function enteredText(
  roll: readonly number[] | { readonly sum: number } | { readonly total: number },
): string {
  if ('total' in roll) return `total ${roll.total}`;
  if ('sum' in roll) return String(roll.sum);
  return roll.join(' ');
}

/** A player's own roll, entered on its phone and held by the server until the round begins. */
export function OrderRollEntry({
  snapshot,
  live,
}: {
  snapshot: LiveSnapshot;
  live: LiveEncounter;
}) {
  const order = snapshot.state?.orderRolls;
  const slot = order?.slots[0];
  if (order === undefined || slot === undefined) return null;
  return <OwnSlot key={slot.purpose} order={order} slot={slot} snapshot={snapshot} live={live} />;
}

function OwnSlot({
  order,
  slot,
  snapshot,
  live,
}: {
  order: OrderRolls;
  slot: RollSlot;
  snapshot: LiveSnapshot;
  live: LiveEncounter;
}) {
  const held = order.held.find((h) => h.purpose === slot.purpose);
  const [text, setText] = useState('');
  const [total, setTotal] = useState(false);
  const [wrong, setWrong] = useState<string | undefined>(undefined);
  // The server's refusal of this roll marks the field; the text stays as typed.
  const refusal = snapshot.refusal;
  useEffect(() => {
    if (refusal?.purpose === slot.purpose) setWrong(refusal.message);
  }, [refusal]);
  // Once the server holds what was typed, the field is cleared for a change of mind.
  useEffect(() => {
    if (held !== undefined) {
      setText('');
      setWrong(undefined);
    }
  }, [held?.at]);
  const errorId = `order-roll-error-${slot.purpose}`;
  const submit = (event: Event) => {
    event.preventDefault();
    const parsed = parseEntered(text, total);
    const why =
      parsed === undefined
        ? total
          ? 'a total is one number (15)'
          : 'write the die as it lies (7)'
        : misfit(slot, parsed);
    if (why !== undefined || parsed === undefined) {
      setWrong(why);
      return;
    }
    setWrong(undefined);
    live.hold(slot.purpose, parsed);
  };
  return (
    <form class="order-roll panel" aria-labelledby="order-roll-h" onSubmit={submit}>
      <h2 id="order-roll-h">Your {order.name} for the next round</h2>
      <p class="order-roll-held" role="status" data-held={held === undefined ? '' : 'yes'}>
        {held === undefined
          ? 'Not entered yet: roll it and enter the die, or the GM rolls it for you.'
          : `Entered: ${enteredText(held.roll)}. The GM's command that begins the round uses it; you may change it until then.`}
      </p>
      <label>
        <span>
          <strong class="slot-label">{slot.label}</strong>
          {slot.accepts !== '' && <span class="slot-range muted"> ({slot.accepts})</span>}
        </span>
        <input
          inputMode="numeric"
          data-order-purpose={slot.purpose}
          aria-invalid={wrong !== undefined ? 'true' : undefined}
          aria-describedby={wrong !== undefined ? errorId : undefined}
          placeholder={total ? 'the total with modifiers (15)' : 'the die as it lies (7)'}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </label>
      <label class="slot-total">
        <input
          type="checkbox"
          checked={total}
          onChange={(e) => setTotal(e.currentTarget.checked)}
        />{' '}
        total (modifiers added)
      </label>
      {wrong !== undefined && (
        <p id={errorId} class="slot-error refusal">
          {wrong}
        </p>
      )}
      <div class="row">
        <button type="submit" class="primary">
          {held === undefined ? `Enter my ${order.name}` : `Change my ${order.name}`}
        </button>
        {held !== undefined && (
          <button type="button" onClick={() => live.hold(slot.purpose, null)}>
            Take it back
          </button>
        )}
      </div>
    </form>
  );
}

/** The GM's view of the same: which players have entered theirs, and what. */
export function OrderRollsEntered({ order, view }: { order: OrderRolls; view: SeenView }) {
  const entered = order.held.length;
  return (
    <section class="order-rolls panel" aria-labelledby="order-rolls-h">
      <h2 id="order-rolls-h">
        {order.name} entered by players ({entered} of {order.slots.length})
      </h2>
      <ul>
        {order.slots.map((slot) => {
          const held = order.held.find((h) => h.purpose === slot.purpose);
          const who = slot.roller === undefined ? slot.purpose : nameOf(view, slot.roller);
          return (
            <li key={slot.purpose} data-purpose={slot.purpose} data-held={held ? 'yes' : 'no'}>
              {held ? '✓' : '–'} {who}: {held ? enteredText(held.roll) : 'not yet'}
            </li>
          );
        })}
      </ul>
      <p class="muted">
        The command that begins the round uses these; the rest are rolled, or entered there.
      </p>
    </section>
  );
}
