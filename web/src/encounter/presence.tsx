import type { Connected, SeenView } from '../types.js';
import { nameOf } from './status.js';

function label(c: Connected, view: SeenView): string {
  if (c.role === 'gm') return 'GM';
  if (c.role === 'spectator') return 'Spectator';
  return nameOf(view, c.character);
}

/**
 * The GM's list of who is connected, kept by the server's presence messages: a GM starting the
 * fight sees whether the players are there yet, and who dropped out.
 */
export function WhoIsHere({
  connected,
  view,
}: {
  connected: readonly Connected[];
  view: SeenView;
}) {
  return (
    <section class="who-is-here" aria-label="Connected">
      <h2>Connected</h2>
      <ul>
        {connected.map((c) => (
          <li key={c.link ?? label(c, view)} data-status={c.status}>
            {label(c, view)}
            {c.status === 'reconnecting'
              ? ' (reconnecting…)'
              : c.sockets > 1
                ? ` (${c.sockets} devices)`
                : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
