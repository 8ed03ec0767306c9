import { useState } from 'preact/hooks';
import { pathText } from '../forms/fields.js';
import { type ContentIssue, issuesOf, type LibraryApi } from './content-api.js';
import { packFiles } from './pack-files.js';

/**
 * A content pack into the table's library: YAML or JSON files, several at once, or a .zip of
 * them. The server takes all or nothing; what it refuses is listed by file, path and what it
 * expected.
 */
export function PackUpload({
  library,
  onImported,
}: {
  library: LibraryApi;
  onImported: () => Promise<unknown>;
}) {
  const [issues, setIssues] = useState<readonly ContentIssue[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (list: FileList | null) => {
    if (list === null || list.length === 0) return;
    setBusy(true);
    setIssues([]);
    setMessage(null);
    try {
      const picked = await Promise.all(
        [...list].map(async (f) => ({
          name: f.name,
          bytes: new Uint8Array(await f.arrayBuffer()),
        })),
      );
      const read = packFiles(picked);
      if (!read.ok) {
        setMessage(`Not imported: ${read.message}`);
        return;
      }
      await library.importPack(read.pack);
      setMessage(`Imported ${read.what}.`);
      await onImported();
    } catch (e) {
      const found = issuesOf(e);
      setIssues(found);
      setMessage(
        found.length > 0
          ? 'Not imported: nothing was saved. Fix these and upload again.'
          : `Not imported: ${e instanceof Error ? e.message : String(e)}`,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="pack-h">
      <h2 id="pack-h">Upload a content pack</h2>
      <p class="muted">
        YAML or JSON content files (several at once), or a .zip of them (as the export writes it).
        All are checked together; if any is wrong, none is saved.
      </p>
      <label>
        Files{' '}
        <input
          type="file"
          name="pack"
          multiple
          accept=".yaml,.yml,.json,.zip"
          disabled={busy}
          onChange={(e) => {
            const input = e.currentTarget;
            void upload(input.files).then(() => {
              input.value = '';
            });
          }}
        />
      </label>
      {message !== null && (
        <p role={issues.length > 0 ? 'alert' : 'status'} class={issues.length > 0 ? 'refusal' : ''}>
          {message}
        </p>
      )}
      {issues.length > 0 && (
        <table class="pack-issues">
          <thead>
            <tr>
              <th>File</th>
              <th>Where</th>
              <th>Problem</th>
            </tr>
          </thead>
          <tbody>
            {issues.map((i) => (
              <tr key={`${i.file}:${pathText(i.path)}:${i.message}`}>
                <td>
                  {i.file ?? ''}
                  {i.line === undefined ? '' : `:${i.line}`}
                </td>
                <td>{pathText(i.path)}</td>
                <td>
                  {i.message}
                  {i.expected === undefined ? '' : ` (expected ${i.expected})`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
