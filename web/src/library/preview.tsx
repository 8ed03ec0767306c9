import { useState } from 'preact/hooks';
import { isObject, type JsonValue } from '../forms/schema.js';
import type { LibraryApi, LibraryListEntry, Preview } from './content-api.js';
import { duelEncounter } from './duel.js';

type Sheet = 'character' | 'monster';

function sheetOf(kind: string): Sheet {
  return kind.endsWith('/monster') ? 'monster' : 'character';
}

/**
 * What the rules make of the character or monster being written, before it is saved: its
 * numbers in an encounter, and the odds of its first turn against a foe the GM picks. Asked
 * for on demand: a half-written draft is refused, at its fields, as saving it would be.
 */
export function PreviewPanel({
  library,
  system,
  kind,
  id: draftId,
  draft,
  foes,
}: {
  library: LibraryApi;
  system: string;
  kind: string;
  /** The draft's id: '' for a new one not yet named. */
  id: string;
  draft: JsonValue;
  foes: readonly LibraryListEntry[];
}) {
  const firstMonster = foes.find((f) => f.kind.endsWith('/monster')) ?? foes[0];
  const [foeKey, setFoeKey] = useState(
    firstMonster === undefined ? '' : `${firstMonster.kind}/${firstMonster.id}`,
  );
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = draftId === '' ? 'draft' : draftId;
  const name = isObject(draft) && typeof draft.name === 'string' ? draft.name : id;
  const foe = foes.find((f) => `${f.kind}/${f.id}` === foeKey);
  const ask = async () => {
    if (foe === undefined) return;
    const encounter = duelEncounter(
      system,
      { sheet: sheetOf(kind), id, name },
      { sheet: sheetOf(foe.kind), id: foe.id, name: foe.name },
    );
    try {
      setPreview(await library.preview(kind, id, draft, encounter));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setPreview(null);
    }
  };
  return (
    <section class="preview panel" aria-labelledby="preview-h">
      <h3 id="preview-h">What the rules make of it</h3>
      <label>
        Against{' '}
        <select
          name="preview-foe"
          value={foeKey}
          onChange={(e) => setFoeKey(e.currentTarget.value)}
        >
          {foes.map((f) => (
            <option key={`${f.kind}/${f.id}`} value={`${f.kind}/${f.id}`}>
              {f.name} ({f.kind.split('/').at(-1)})
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="button" name="preview" disabled={foe === undefined} onClick={() => void ask()}>
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
          {preview.odds.length === 0 ? (
            <p class="muted">No action of its first turn reaches {foe?.name ?? 'the foe'}.</p>
          ) : (
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
