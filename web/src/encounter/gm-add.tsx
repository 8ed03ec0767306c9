import { useState } from 'preact/hooks';
import type { SeenView } from '../types.js';
import { busy, type GmTouch, sendGmLine } from './touch.js';

/**
 * A combatant joins from the table's content: the sheets `gm add` takes, the side, and a name
 * if the GM gives one. Sent as the `gm add` line (the server reads the sheet from content), by
 * content and side id, the name quoted.
 */
export function AddCombatant({ touch, view }: { touch: GmTouch; view: SeenView }) {
  const newcomers = touch.kit?.newcomers ?? [];
  const [content, setContent] = useState('');
  const [side, setSide] = useState(view.sides.at(-1)?.id ?? '');
  const [name, setName] = useState('');
  const refusal = touch.snapshot.refusal;
  if (touch.kit === null) return null;
  const kinds = [...new Set(newcomers.map((n) => n.kind))];
  return (
    <section class="panel" aria-labelledby="gm-add-h">
      <h2 id="gm-add-h">Add a combatant</h2>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (content === '' || side === '') return;
          // The name is one quoted word of the line: a quote inside it would end it early.
          const shown = name.replace(/"/g, '').trim();
          sendGmLine(touch, `add ${content} to ${side}${shown ? ` as "${shown}"` : ''}`);
          setName('');
        }}
      >
        <label>
          Who{' '}
          <select value={content} onChange={(e) => setContent(e.currentTarget.value)}>
            <option value="">Choose…</option>
            {kinds.map((kind) => (
              <optgroup key={kind} label={kind === 'monster' ? 'Monsters' : 'Characters'}>
                {newcomers
                  .filter((n) => n.kind === kind)
                  .map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.name}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label>
          Side{' '}
          <select value={side} onChange={(e) => setSide(e.currentTarget.value)}>
            {view.sides.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Name{' '}
          <input
            value={name}
            maxLength={60}
            size={10}
            placeholder="optional"
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy(touch) || content === ''}>
          Add
        </button>
      </form>
      {refusal?.what.startsWith('gm add ') && (
        <p role="alert" class="refusal small">
          {refusal.message}
        </p>
      )}
    </section>
  );
}
