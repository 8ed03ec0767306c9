import { useState } from 'preact/hooks';
import type { SeenEntry } from '../types.js';
import { undoneSeqs } from './history.js';

const KINDS = ['everything', 'actions', 'dice', 'undo and redo'] as const;
type Kind = (typeof KINDS)[number];

function entryText(entry: SeenEntry): string[] {
  // An undo or redo names what it moved (`Undid #12: ...`); one that moved nothing, just itself.
  if (entry.kind !== 'command' && entry.lines.length === 0) {
    return [`${entry.kind === 'undo' ? 'Undid' : 'Redid'} nothing`];
  }
  return entry.lines.length > 0 ? [...entry.lines] : [entry.command?.type ?? 'GM change'];
}

/** The log, newest first, every roll's explanation as the engine wrote it; filterable. */
export function LogPanel({ entries }: { entries: readonly SeenEntry[] }) {
  const [text, setText] = useState('');
  const [kind, setKind] = useState<Kind>('everything');
  const needle = text.trim().toLowerCase();
  const taken = undoneSeqs(entries);
  const shown = entries
    .filter((e) => {
      if (kind === 'actions' && e.kind !== 'command') return false;
      if (kind === 'undo and redo' && e.kind === 'command') return false;
      return true;
    })
    .map((e) => {
      let lines = entryText(e);
      if (kind === 'dice') lines = lines.filter((l) => /\[[^\]]*\]|\bd\d|d%/.test(l));
      if (needle) lines = lines.filter((l) => l.toLowerCase().includes(needle));
      return { e, lines };
    })
    .filter((x) => x.lines.length > 0)
    .reverse();
  return (
    <section class="log panel" aria-labelledby="log-h">
      <h2 id="log-h">Log</h2>
      <div class="row">
        <label>
          Filter{' '}
          <input type="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <label>
          Show{' '}
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ol
        class="log-list"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take keyboard focus to be scrolled without a mouse (WCAG 2.1.1)
        tabIndex={0}
        aria-label="Log entries, newest first"
        reversed
        aria-live="polite"
        aria-relevant="additions"
      >
        {shown.map(({ e, lines }) => (
          <li
            key={e.seq}
            value={e.seq}
            data-seq={e.seq}
            class={`log-${e.kind}${taken.has(e.seq) ? ' log-undone' : ''}`}
          >
            {taken.has(e.seq) && <strong class="small">(undone) </strong>}
            {lines.map((l, i) => (
              <div key={i} class={l.startsWith(' ') ? 'log-detail' : 'log-line'}>
                {l.trim()}
              </div>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}
