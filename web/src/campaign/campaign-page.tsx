import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import type { TableInfo } from '../types.js';
import type {
  CampaignAnswer,
  CampaignCharacter,
  GmCampaign,
  LogEntry,
  PlayerCampaign,
  Quote,
  ServiceForm,
} from './types.js';

interface Props {
  readonly api: Api;
  readonly info: TableInfo;
  readonly onLeave: () => void;
}

/**
 * The campaign between fights (docs/campaign.md, "The campaign page"): for the GM the party in
 * its system's words, every service with its cost shown before Confirm, the campaign log with
 * Undo on its newest entry, and the history of fights; for a player their own sheet and the
 * party. Everything shown comes worked out from `GET /api/table/campaign`.
 */
export function CampaignPage({ api, info, onLeave }: Props) {
  const [data, setData] = useState<CampaignAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setData(await api.get<CampaignAnswer>('/api/table/campaign'));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, [api]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return (
    <main class="page campaign-page">
      <header class="page-head">
        <h1>{info.table.name}: the campaign</h1>
        <p>
          <button type="button" onClick={onLeave}>
            Back to the table
          </button>
        </p>
      </header>
      {error && (
        <p role="alert" class="refusal">
          {error}
        </p>
      )}
      {data === null ? (
        <p aria-busy="true">Reading the campaign…</p>
      ) : 'characters' in data ? (
        <GmCampaignView api={api} data={data} reload={reload} />
      ) : (
        <PlayerView data={data} />
      )}
    </main>
  );
}

function Sheet({ character }: { character: CampaignCharacter }) {
  return (
    <article class="panel sheet" aria-label={character.name} data-character={character.id}>
      <h3>
        {character.name}
        {character.down && <span class="status status-down"> down</span>}
      </h3>
      <dl class="sheet-lines">
        {character.lines.map((l) => (
          <div key={l.label}>
            <dt>{l.label}</dt>
            <dd>{l.value}</dd>
          </div>
        ))}
      </dl>
      {character.stats.length > 0 && (
        <>
          <h4>Statistics</h4>
          <dl class="sheet-stats">
            {character.stats.map((l) => (
              <div key={l.label} class={l.value.length > 10 ? 'wide' : undefined}>
                <dt>{l.label}</dt>
                <dd>{l.value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <h4>{character.abilitiesHeading}</h4>
      {character.abilities.length > 0 ? (
        <ul class="sheet-abilities">
          {character.abilities.map((a) => (
            <li key={a.label}>
              <strong>{a.label}</strong> <span>{a.value}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">none</p>
      )}
      {character.items.length > 0 && (
        <p class="items">
          <strong>Items:</strong> {character.items.join(', ')}
        </p>
      )}
    </article>
  );
}

function PlayerView({ data }: { data: PlayerCampaign }) {
  return (
    <>
      {data.sheet ? (
        <section aria-labelledby="sheet-h">
          <h2 id="sheet-h">Your character</h2>
          <Sheet character={data.sheet} />
        </section>
      ) : (
        <p>You watch this table: no character of your own.</p>
      )}
      <section aria-labelledby="party-h" class="panel">
        <h2 id="party-h">The party</h2>
        <ul class="plain-list">
          {data.party.map((m) => (
            <li key={m.id}>
              {m.name} {m.down ? <span class="status status-down">down</span> : 'standing'}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function GmCampaignView({
  api,
  data,
  reload,
}: {
  api: Api;
  data: GmCampaign;
  reload: () => Promise<void>;
}) {
  return (
    <>
      <section aria-labelledby="party-h">
        <h2 id="party-h">The party</h2>
        {data.party.length > 0 && (
          <dl class="sheet-lines party-lines">
            {data.party.map((l) => (
              <div key={l.label}>
                <dt>{l.label}</dt>
                <dd data-party={l.label}>{l.value}</dd>
              </div>
            ))}
          </dl>
        )}
        <div class="sheets">
          {data.characters.map((c) => (
            <Sheet key={c.id} character={c} />
          ))}
        </div>
      </section>
      <Services api={api} data={data} reload={reload} />
      <CampaignLog api={api} log={data.log} reload={reload} />
      <History data={data} />
    </>
  );
}

type Values = Record<string, string | string[]>;

function serviceBody(form: ServiceForm, values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = { type: form.type };
  for (const field of form.fields) {
    const value = values[field.name];
    if (field.kind === 'characters') {
      if (Array.isArray(value) && value.length > 0) body[field.name] = value;
    } else if (typeof value === 'string' && value !== '') {
      body[field.name] = field.kind === 'number' ? Number(value) : value;
    }
  }
  return body;
}

function costText(quote: Quote): string {
  if (quote.cost === null || quote.cost.amount === 0) return 'Costs nothing.';
  return quote.cost.amount > 0
    ? `Costs ${quote.cost.amount} ${quote.cost.unit}.`
    : `Gives ${-quote.cost.amount} ${quote.cost.unit}.`;
}

function Services({
  api,
  data,
  reload,
}: {
  api: Api;
  data: GmCampaign;
  reload: () => Promise<void>;
}) {
  const [form, setForm] = useState<ServiceForm | null>(null);
  const [values, setValues] = useState<Values>({});
  const [quote, setQuote] = useState<Quote | null>(null);
  const [done, setDone] = useState<readonly string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pick = (f: ServiceForm) => {
    setForm(f);
    setValues({});
    setQuote(null);
    setError(null);
    setDone(null);
  };
  const ask = async (confirm: boolean) => {
    if (form === null) return;
    try {
      const body = serviceBody(form, values);
      if (confirm) {
        const bought = await api.post<Quote>('/api/table/services', body);
        setDone(bought.report);
        setQuote(null);
        setForm(null);
        await reload();
      } else {
        setQuote(await api.post<Quote>('/api/table/services/quote', body));
      }
      setError(null);
    } catch (e) {
      setQuote(null);
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section aria-labelledby="services-h" class="panel">
      <h2 id="services-h">Services between fights</h2>
      <div class="row wrap">
        {data.services.map((f) => (
          <button
            type="button"
            key={f.type}
            aria-pressed={form?.type === f.type}
            onClick={() => pick(f)}
          >
            {f.type}
          </button>
        ))}
      </div>
      {form && (
        <form
          class="service-form"
          aria-label={`service ${form.type}`}
          onSubmit={(e) => {
            e.preventDefault();
            void ask(false);
          }}
        >
          {form.fields.map((field) => (
            <ServiceInput
              key={field.name}
              field={field}
              data={data}
              value={values[field.name]}
              onChange={(v) => {
                setValues((old) => ({ ...old, [field.name]: v }));
                setQuote(null);
              }}
            />
          ))}
          <button type="submit">What would it cost?</button>
        </form>
      )}
      {quote && (
        <div class="quote" role="status">
          <p>
            <strong>{costText(quote)}</strong>
          </p>
          <ul>
            {quote.report.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <button type="button" class="primary" onClick={() => void ask(true)}>
            Confirm
          </button>
        </div>
      )}
      {done && (
        <ul class="done" role="status">
          {done.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" class="refusal">
          {error}
        </p>
      )}
    </section>
  );
}

function ServiceInput({
  field,
  data,
  value,
  onChange,
}: {
  field: ServiceForm['fields'][number];
  data: GmCampaign;
  value: string | string[] | undefined;
  onChange: (value: string | string[]) => void;
}) {
  const label = `${field.name}${field.optional ? ' (optional)' : ''}`;
  if (field.kind === 'characters') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset>
        <legend>{field.name} (none: everyone)</legend>
        {data.characters.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              checked={chosen.includes(c.id)}
              onChange={(e) =>
                onChange(
                  e.currentTarget.checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id),
                )
              }
            />{' '}
            {c.name}
          </label>
        ))}
      </fieldset>
    );
  }
  if (field.kind === 'character' || field.kind === 'item') {
    const options =
      field.kind === 'character'
        ? data.characters.map((c) => ({ id: c.id, name: c.name }))
        : data.items;
    return (
      <label>
        {label}{' '}
        <select
          name={field.name}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value)}
        >
          <option value="">choose…</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <label>
      {label}{' '}
      <input
        name={field.name}
        type={field.kind === 'number' ? 'number' : 'text'}
        min={field.kind === 'number' ? 0 : undefined}
        value={typeof value === 'string' ? value : ''}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    </label>
  );
}

function CampaignLog({
  api,
  log,
  reload,
}: {
  api: Api;
  log: readonly LogEntry[];
  reload: () => Promise<void>;
}) {
  const [error, setError] = useState<string | null>(null);
  const newest = log.find((e) => e.undoneAt === null);
  const undo = async (n: number) => {
    try {
      await api.post('/api/table/campaign-log/undo', { n });
      setError(null);
      await reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section aria-labelledby="log-h" class="panel">
      <h2 id="log-h">Campaign log</h2>
      {log.length === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <ol class="campaign-log plain-list" reversed>
          {log.map((e) => (
            <li key={e.n} class={e.undoneAt === null ? '' : 'undone'} data-entry={e.n}>
              <span class="muted">
                {e.n}. {new Date(e.at).toLocaleString()} · {e.kind}
                {e.undoneAt !== null && ' · undone'}
              </span>
              <ul>
                {e.report.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              {newest?.n === e.n && (
                <button type="button" onClick={() => void undo(e.n)}>
                  Undo entry {e.n}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {error && (
        <p role="alert" class="refusal">
          {error}
        </p>
      )}
    </section>
  );
}

function History({ data }: { data: GmCampaign }) {
  return (
    <section aria-labelledby="history-h" class="panel">
      <h2 id="history-h">History</h2>
      {data.history.length === 0 ? (
        <p>No fight yet.</p>
      ) : (
        <ul class="plain-list history">
          {data.history.map((f) => (
            <li key={f.id} data-fight={f.id}>
              <strong>{f.name}</strong>{' '}
              <span class="muted">{new Date(f.createdAt).toLocaleDateString()}</span>{' '}
              <span class={`status status-${f.status}`}>{f.status}</span>
              {f.participants.length > 0 && <p>Took part: {f.participants.join(', ')}</p>}
              {f.fell.length > 0 && <p>Fell: {f.fell.join(', ')}</p>}
              {f.rewards.length > 0 && (
                <ul class={f.rewardsUndone ? 'undone' : ''}>
                  {f.rewards.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                  {f.rewardsUndone && <li>(rewards taken back)</li>}
                </ul>
              )}
              <a class="button" href={`#/e/${f.id}`}>
                Open the fight's log
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
