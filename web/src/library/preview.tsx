import { useState } from 'preact/hooks';
import { isObject, type JsonValue } from '../forms/schema.js';
import type { LibraryApi, LibraryListEntry, Preview } from './content-api.js';

/**
 * What the rules make of the character or monster being written, before it is saved: its
 * numbers as an encounter would have them, and, against a foe the GM picks, the odds of its
 * actions. Asked for on demand: the draft may be half-written.
 */
export function PreviewPanel({
  library,
  kind,
  draft,
  foes,
}: {
  library: LibraryApi;
  kind: string;
  draft: JsonValue;
  foes: readonly LibraryListEntry[];
}) {
  const [foe, setFoe] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = isObject(draft) && typeof draft.id === 'string' ? draft.id : '';
  const ask = async () => {
    try {
      setPreview(await library.preview(kind, id || 'preview', draft, foe === '' ? undefined : foe));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setPreview(null);
    }
  };
  return (
    <section class="preview" aria-labelledby="preview-h">
      <h3 id="preview-h">What the rules make of it</h3>
      <label>
        Against{' '}
        <select name="preview-foe" value={foe} onChange={(e) => setFoe(e.currentTarget.value)}>
          <option value="">nobody (its numbers only)</option>
          {foes.map((f) => (
            <option key={`${f.kind}/${f.id}`} value={f.id}>
              {f.name} ({f.kind.split('/').at(-1)})
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="button" name="preview" onClick={() => void ask()}>
        Preview
      </button>
      {error !== null && (
        <p role="alert" class="refusal">
          {error}
        </p>
      )}
      {preview !== null && (
        <>
          <dl class="preview-numbers">
            {preview.numbers.map((n) => (
              <div key={n.label}>
                <dt>{n.label}</dt>
                <dd>{n.value}</dd>
              </div>
            ))}
          </dl>
          {preview.odds !== undefined && preview.odds.length > 0 && (
            <ul class="preview-odds">
              {preview.odds.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
