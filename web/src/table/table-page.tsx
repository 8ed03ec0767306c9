import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import { EncounterBuilder } from '../builder/builder.js';
import { SYSTEM_NAMES } from '../systems.js';
import type { ContentItem, TableInfo } from '../types.js';
import { Seats } from './seats.js';

interface Props {
  readonly api: Api;
  readonly info: TableInfo;
  readonly reload: () => Promise<TableInfo | null>;
}

/** A table between fights: its encounters, and for the GM the roster, the seats and a new fight. */
export function TablePage({ api, info, reload }: Props) {
  const gm = info.role.role === 'gm';
  const [content, setContent] = useState<readonly ContentItem[]>([]);
  useEffect(() => {
    if (!gm) return;
    void api
      .get<{ content: ContentItem[] }>('/api/table/content')
      .then((c) => setContent(c.content))
      .catch(() => setContent([]));
  }, [api, gm]);
  return (
    <main class="page table-page">
      <header class="page-head">
        <h1>{info.table.name}</h1>
        <p class="muted">
          {SYSTEM_NAMES[info.table.systemId] ?? info.table.systemId} ·{' '}
          {gm
            ? 'you are the GM'
            : info.role.role === 'player'
              ? `you play ${info.role.characterId}`
              : 'you are watching'}
        </p>
        <p>
          <a class="button" href="#/campaign">
            {gm ? 'The campaign: party, services, log, history' : 'Your character sheet'}
          </a>
        </p>
        {gm && (
          <p>
            <a class="button" href="#/library">
              Content library
            </a>{' '}
            <span class="muted">characters, monsters, weapons… and content packs</span>
          </p>
        )}
      </header>
      <Encounters info={info} />
      {gm && <EncounterBuilder api={api} info={info} content={content} reload={reload} />}
      {gm && <Roster api={api} info={info} content={content} reload={reload} />}
      {gm && <Seats api={api} info={info} />}
    </main>
  );
}

function Encounters({ info }: { info: TableInfo }) {
  const list = [...info.encounters].reverse();
  return (
    <section aria-labelledby="encounters-h" class="panel">
      <h2 id="encounters-h">Encounters</h2>
      {list.length === 0 ? (
        <p>No encounter yet.</p>
      ) : (
        <ul class="plain-list">
          {list.map((e) => (
            <li key={e.id}>
              <a class="button" href={`#/e/${e.id}`}>
                Open {e.name}
              </a>{' '}
              <span class={`status status-${e.status}`}>{e.status}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Roster({ api, info, content, reload }: Props & { content: readonly ContentItem[] }) {
  const [pick, setPick] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Kinds read `ffrpg/character`: a character is any kind ending so.
  const characters = content.filter((i) => i.kind.split('/').at(-1) === 'character');
  const members = info.roster.filter((r) => !r.character.startsWith('@'));
  const act = async (job: () => Promise<void>) => {
    try {
      await job();
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section aria-labelledby="roster-h" class="panel">
      <h2 id="roster-h">Roster</h2>
      {members.length === 0 ? (
        <p class="muted">No character yet.</p>
      ) : (
        <ul class="plain-list">
          {members.map((r) => (
            <li key={r.character} data-character={r.character}>
              <strong>{characters.find((c) => c.id === r.character)?.name ?? r.character}</strong>
            </li>
          ))}
        </ul>
      )}
      <p class="muted">Each character's links, and who holds them, are under Seats.</p>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (pick)
            void act(async () => {
              await api.post('/api/table/roster', { character: pick });
              await reload();
            });
        }}
      >
        <label>
          Character{' '}
          <select value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
            <option value="">choose…</option>
            {characters
              .filter((c) => !members.some((m) => m.character === c.id))
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
          </select>
        </label>
        <button type="submit">Add to the roster</button>
      </form>
      {error && (
        <p role="alert" class="refusal">
          {error}
        </p>
      )}
    </section>
  );
}
