import type { Connection } from '../live.js';
import type { Connected, Outcome, SeenView, StatePayload } from '../types.js';

const CONNECTION_TEXT: Record<Connection, string> = {
  open: '● Live',
  connecting: '◌ Reconnecting…',
  offline: '✕ Offline: will reconnect when the network is back',
};

export function ConnectionStatus({
  connection,
  reconnects,
}: {
  connection: Connection;
  reconnects: number;
}) {
  return (
    <p class={`connection connection-${connection}`} role="status" aria-live="polite">
      {CONNECTION_TEXT[connection]}
      {connection === 'open' && reconnects > 0 ? ' (caught up after reconnecting)' : ''}
    </p>
  );
}

export function nameOf(view: SeenView, id: string | null | undefined): string {
  if (!id) return '';
  return view.combatants.find((c) => c.id === id)?.name ?? id;
}

/** Whose turn it is, in words: the screen's main fact. */
export function TurnLine({ view, mine }: { view: SeenView; mine?: string | undefined }) {
  const actor = view.actor;
  return (
    <p class="turn-line" aria-live="polite">
      <span class="timing">{view.timing}</span>
      {' · '}
      {actor === null ? (
        <span>the GM moves the fight on</span>
      ) : actor === mine ? (
        <strong class="your-turn">▶ Your turn, {nameOf(view, actor)}</strong>
      ) : (
        <span>
          ▶ <strong data-testid="actor">{nameOf(view, actor)}</strong> to act
        </span>
      )}
    </p>
  );
}

export function OutcomeBanner({ outcome, view }: { outcome: Outcome; view: SeenView }) {
  if (!outcome.over) return null;
  const winner = view.sides.find((s) => s.id === outcome.winner)?.name ?? outcome.winner;
  return (
    <p class="outcome" role="status">
      ★ The fight is over: {winner ? `${winner} won` : 'no winner'}
      {outcome.reason ? ` (${outcome.reason})` : ''}
    </p>
  );
}

/** A fight the GM finished or abandoned: every screen on it says so as soon as it hears. */
export function ClosedBanner({ status }: { status: StatePayload['status'] }) {
  if (status === 'active') return null;
  return (
    <p class="outcome closed" role="status" data-status={status}>
      {status === 'abandoned'
        ? '⏹ The GM abandoned this fight.'
        : '■ This fight is finished: the GM closed it.'}
    </p>
  );
}

/** The characters whose players are at the fight now (the GM's take-over mark). */
export function playedBy(
  connected: readonly Connected[],
): ReadonlyMap<string, 'connected' | 'reconnecting'> {
  const played = new Map<string, 'connected' | 'reconnecting'>();
  for (const c of connected) {
    if (c.role !== 'player') continue;
    if (c.status === 'connected' || !played.has(c.character)) played.set(c.character, c.status);
  }
  return played;
}
