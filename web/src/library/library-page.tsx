import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { type Api, ApiError } from '../api.js';
import { labelOf, pathText } from '../forms/fields.js';
import { type RefChoices, SchemaForm } from '../forms/form.js';
import { defaultFor, type JsonObject, type JsonValue } from '../forms/schema.js';
import { SYSTEM_NAMES } from '../systems.js';
import type { TableInfo } from '../types.js';
import {
  bodyOf,
  type ContentIssue,
  issuesOf,
  type LibraryKind,
  type LibraryListEntry,
  type LibraryListing,
  libraryApi,
} from './content-api.js';
import { PackUpload } from './pack-upload.js';
import { PreviewPanel } from './preview.js';

/** What the editor holds: a new entry, a copy, or an entry as the server last gave it. */
interface Editing {
  readonly mode: 'new' | 'copy' | 'edit';
  readonly kind: LibraryKind;
  /** The entry's version when opened (edits only): a save names it, so a stale one is refused. */
  readonly version?: number;
  /** The entry's address; its body (the form) has no id of its own. */
  readonly id: string;
  readonly draft: JsonValue;
}

/** `ffrpg/guardian-force` -> `Guardian force`: a kind as a GM reads it in a list. */
export function kindLabel(kind: string): string {
  return labelOf(kind.slice(kind.indexOf('/') + 1));
}

/**
 * The GM's content library for a table: every entry by kind, with search, and one form per
 * kind made from the kind's schema to create, edit and copy entries; content packs upload here,
 * and the whole library downloads as one.
 */
export function LibraryPage({ api, info }: { api: Api; info: TableInfo }) {
  const library = useMemo(() => libraryApi(api, info.table.id), [api, info.table.id]);
  const [listing, setListing] = useState<LibraryListing | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [newKind, setNewKind] = useState('');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [issues, setIssues] = useState<readonly ContentIssue[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<LibraryListEntry | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      const next = await library.list();
      setListing(next);
      setFailure(null);
      return next;
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e));
      return null;
    }
  }, [library]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const refs: RefChoices = useMemo(() => {
    const out: Record<string, { id: string; name: string }[]> = {};
    for (const e of listing?.entries ?? []) {
      out[e.kind] = [...(out[e.kind] ?? []), { id: e.id, name: e.name }];
    }
    return out;
  }, [listing]);

  if (listing === null) {
    return (
      <main class="page library-page" aria-busy={failure === null}>
        <p>
          <a href="#/">← Back to the table</a>
        </p>
        {failure === null ? (
          <p>Opening the library…</p>
        ) : (
          <p role="alert" class="refusal">
            The library does not open: {failure}
          </p>
        )}
      </main>
    );
  }

  const kindOf = (name: string) => listing.kinds.find((k) => k.kind === name);
  const start = (next: Editing) => {
    setEditing(next);
    setIssues([]);
    setConflict(null);
    setNotice(null);
  };
  const open = async (entry: LibraryListEntry, mode: 'edit' | 'copy') => {
    const kind = kindOf(entry.kind);
    if (kind === undefined) return;
    try {
      const got = await library.get(entry.kind, entry.id);
      const draft = bodyOf(got.body);
      if (mode === 'edit') start({ mode, kind, version: got.version, id: entry.id, draft });
      else start({ mode, kind, id: freeId(listing, entry.kind, entry.id), draft });
    } catch (e) {
      setNotice(e instanceof Error ? e.message : String(e));
    }
  };
  const create = () => {
    const kind = kindOf(newKind) ?? listing.kinds[0];
    if (kind === undefined) return;
    start({ mode: 'new', kind, id: '', draft: defaultFor(kind.schema) });
  };

  const save = async () => {
    if (editing === null) return;
    const draft = editing.draft as JsonObject;
    const id = editing.id;
    const taken = listing.entries.some((e) => e.kind === editing.kind.kind && e.id === id);
    // The id is the entry's address: checked here, since the body the server checks has none.
    if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) {
      setIssues([
        { path: ['id'], message: 'an id: lowercase letters, digits and "-", like "fire-sword"' },
      ]);
      return;
    }
    if (editing.mode !== 'edit' && taken) {
      setIssues([
        { path: ['id'], message: `there is already a ${kindLabel(editing.kind.kind)} "${id}"` },
      ]);
      return;
    }
    setBusy(true);
    try {
      // A new entry is version 0: saving it is refused if the id was taken meanwhile.
      await library.save(editing.kind.kind, id, draft, editing.version ?? 0);
      setEditing(null);
      setIssues([]);
      setNotice(
        `Saved ${kindLabel(editing.kind.kind)} "${typeof draft.name === 'string' ? draft.name : id}".`,
      );
      await reload();
    } catch (e) {
      const found = issuesOf(e);
      if (e instanceof ApiError && e.status === 409) {
        setConflict(e.message);
      } else if (found.length > 0) {
        setIssues(found);
      } else {
        setIssues([{ path: [], message: e instanceof Error ? e.message : String(e) }]);
      }
    } finally {
      setBusy(false);
    }
  };

  const remove = async (entry: LibraryListEntry) => {
    setBusy(true);
    try {
      await library.remove(entry.kind, entry.id, entry.version);
      setNotice(`Deleted ${kindLabel(entry.kind)} "${entry.name}".`);
      await reload();
    } catch (e) {
      setNotice(`Not deleted: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setDeleting(null);
      setBusy(false);
    }
  };

  const needle = search.trim().toLowerCase();
  const shown = listing.entries.filter(
    (e) =>
      needle === '' ||
      e.name.toLowerCase().includes(needle) ||
      e.id.includes(needle) ||
      e.kind.includes(needle),
  );

  return (
    <main class="page library-page">
      <p>
        <a href="#/">← Back to the table</a>
      </p>
      <header class="page-head">
        <h1>Content library</h1>
        <p class="muted">
          {info.table.name} · {SYSTEM_NAMES[info.table.systemId] ?? info.table.systemId} ·{' '}
          {listing.entries.length} entries
        </p>
      </header>
      {notice !== null && (
        <p role="status" class="notice">
          {notice}
        </p>
      )}
      {editing !== null ? (
        <section class="panel library-editor" aria-labelledby="editor-h">
          <h2 id="editor-h">
            {editing.mode === 'edit' ? 'Edit' : editing.mode === 'copy' ? 'Copy of' : 'New'}{' '}
            {kindLabel(editing.kind.kind).toLowerCase()}
          </h2>
          <p class="muted">{editing.kind.label}</p>
          {issues.length > 0 && (
            <div role="alert" class="refusal">
              Not saved: {issues.length === 1 ? 'one problem' : `${issues.length} problems`}, shown
              beside {issues.length === 1 ? 'its field' : 'their fields'}.
              <ul>
                {issues.map((i) => (
                  <li key={`${pathText(i.path)}:${i.message}`}>
                    {pathText(i.path) === '' ? '' : `${pathText(i.path)}: `}
                    {i.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {conflict !== null && (
            <div role="alert" class="refusal">
              {editing.mode === 'edit'
                ? `Not saved: someone changed this entry since you opened it (${conflict}).`
                : `Not saved: someone saved an entry under this id meanwhile (${conflict}).`}{' '}
              <button
                type="button"
                onClick={async () => {
                  const fresh = await reload();
                  const entry = fresh?.entries.find(
                    (e) => e.kind === editing.kind.kind && e.id === editing.id,
                  );
                  if (entry !== undefined) await open(entry, 'edit');
                }}
              >
                Load their version
              </button>
            </div>
          )}
          <form
            noValidate
            class="content-form"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <div class="form-field" data-field="id">
              <label class="field-label" for="entry-id">
                Id
              </label>{' '}
              <input
                id="entry-id"
                name="id"
                type="text"
                value={editing.id}
                readOnly={editing.mode === 'edit'}
                pattern="[a-z0-9][a-z0-9\-]*"
                onInput={(e) => setEditing({ ...editing, id: e.currentTarget.value })}
              />
              {issues
                .filter((i) => i.path.length === 1 && i.path[0] === 'id')
                .map((i) => (
                  <span key={i.message} class="field-issue" role="alert" data-path="id">
                    {i.message}
                  </span>
                ))}
            </div>
            <SchemaForm
              schema={editing.kind.schema}
              value={editing.draft}
              onChange={(draft) => setEditing({ ...editing, draft })}
              issues={issues.filter((i) => !(i.path.length === 1 && i.path[0] === 'id'))}
              refs={refs}
              hidden={['$schema']}
              trailing={['source', 'sample']}
            />
            <p class="actions">
              <button type="submit" class="primary" disabled={busy}>
                Save
              </button>{' '}
              <button type="button" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </p>
          </form>
          {/^[^/]+\/(character|monster)$/.test(editing.kind.kind) && (
            <PreviewPanel
              library={library}
              system={listing.system}
              kind={editing.kind.kind}
              id={editing.id}
              draft={editing.draft}
              foes={listing.entries.filter((e) => /\/(character|monster)$/.test(e.kind))}
            />
          )}
        </section>
      ) : (
        <section class="panel" aria-labelledby="new-h">
          <h2 id="new-h">New entry</h2>
          <label>
            Kind{' '}
            <select
              name="new-kind"
              value={newKind}
              onChange={(e) => setNewKind(e.currentTarget.value)}
            >
              {listing.kinds.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {kindLabel(k.kind)}
                </option>
              ))}
            </select>
          </label>{' '}
          <button type="button" name="new" onClick={create}>
            New
          </button>
        </section>
      )}
      <section class="panel" aria-labelledby="entries-h">
        <h2 id="entries-h">Entries</h2>
        <label>
          Search{' '}
          <input
            type="search"
            name="search"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
        {listing.kinds.map((k) => {
          const of = shown.filter((e) => e.kind === k.kind);
          if (of.length === 0) return null;
          return (
            <section key={k.kind} class="library-kind" data-kind={k.kind}>
              <h3 title={k.label}>
                {kindLabel(k.kind)} <span class="muted">({of.length})</span>
              </h3>
              <ul class="plain-list">
                {of.map((e) => (
                  <li key={e.id} data-entry={`${e.kind}/${e.id}`}>
                    <span class="entry-name">{e.name}</span> <span class="muted">{e.id}</span>{' '}
                    <button type="button" onClick={() => void open(e, 'edit')}>
                      Edit
                    </button>{' '}
                    <button type="button" onClick={() => void open(e, 'copy')}>
                      Duplicate
                    </button>{' '}
                    {deleting === e ? (
                      <span role="alertdialog" aria-label={`Delete ${e.name}?`}>
                        Delete {e.name} for good?{' '}
                        <button
                          type="button"
                          class="danger"
                          disabled={busy}
                          onClick={() => void remove(e)}
                        >
                          Yes, delete
                        </button>{' '}
                        <button type="button" onClick={() => setDeleting(null)}>
                          Keep it
                        </button>
                      </span>
                    ) : (
                      <button type="button" onClick={() => setDeleting(e)}>
                        Delete
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
        {shown.length === 0 && <p>Nothing matches.</p>}
      </section>
      <PackUpload library={library} onImported={reload} />
      <section class="panel" aria-labelledby="download-h">
        <h2 id="download-h">Download the library</h2>
        <p class="muted">
          Every entry as one content pack, a .zip of content files: what{' '}
          <code>moogle table content export</code> writes. Upload it to another table above, or
          unpack it for <code>moogle battle --content</code> and <code>moogle sim --content</code>.
        </p>
        <p>
          <a class="button" href={library.exportUrl()} download={`${listing.system}-library.zip`}>
            Download the library (.zip)
          </a>
        </p>
      </section>
    </main>
  );
}

/** `goblin` -> `goblin-2` (or -3...): a copy's id that no entry of the kind has yet. */
export function freeId(listing: LibraryListing, kind: string, id: string): string {
  const taken = new Set(listing.entries.filter((e) => e.kind === kind).map((e) => e.id));
  const stem = id.replace(/-\d+$/, '');
  for (let n = 2; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`;
}
