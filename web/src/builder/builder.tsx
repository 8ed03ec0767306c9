import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import type { ContentItem, TableInfo } from '../types.js';
import {
  cellName,
  combatantNames,
  type Draft,
  type DraftCombatant,
  type DraftSide,
  encounterFile,
  orderedSides,
  standable,
  startCell,
  terrainAt,
} from './draft.js';
import { OptionsForm } from './options-form.js';
import { type DraftMonster, TunePanel } from './tune-panel.js';

interface Props {
  readonly api: Api;
  readonly info: TableInfo;
  readonly content: readonly ContentItem[];
  readonly reload: () => Promise<TableInfo | null>;
}

type Stringify = (value: unknown) => string;

/** The file's text is YAML (the examples' own format); the writer loads with the builder only. */
async function loadWriter(): Promise<{ stringify: Stringify; gateRows: string[] }> {
  const [yaml, gate] = await Promise.all([
    import('yaml'),
    import('../../../examples/shining-force-gate.yaml?raw'),
  ]);
  const example = yaml.parse(gate.default) as { battlefield: { rows: string[] } };
  return {
    stringify: (value) => yaml.stringify(value, { lineWidth: 0 }),
    gateRows: example.battlefield.rows,
  };
}

const isKind = (item: ContentItem, kind: string) => item.kind.split('/').at(-1) === kind;

function initialDraft(system: string, content: readonly ContentItem[]): Draft {
  const levelTable = content.find((c) => isKind(c, 'level-table'))?.id ?? null;
  return {
    system,
    name: '',
    sides: [
      { key: 1, name: 'The party', combatants: [] },
      { key: 2, name: 'The foes', combatants: [] },
    ],
    players: 1,
    options: {},
    mode: 'battle',
    levelTable,
    events: [],
    rows: [],
  };
}

/**
 * Building an encounter: content picked into sides, the system's options, then the file they
 * make, shown to edit before the fight starts (or a file opened instead). What starts is always
 * a file's text, so the server checks a built fight as it checks any file and names the place.
 */
export function EncounterBuilder({ api, info, content, reload }: Props) {
  const system = info.table.systemId;
  const [writer, setWriter] = useState<Awaited<ReturnType<typeof loadWriter>> | null>(null);
  const [draft, setDraft] = useState<Draft>(() => initialDraft(system, content));
  const [edited, setEdited] = useState<string | null>(null);
  const [seed, setSeed] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [placing, setPlacing] = useState<number | null>(null);
  const nextKey = useRef(100);
  const key = () => nextKey.current++;

  useEffect(() => {
    void loadWriter().then((loaded) => {
      setWriter(loaded);
      setDraft((d) => (d.rows.length > 0 ? d : { ...d, rows: loaded.gateRows }));
    });
  }, []);
  // The content arrives after the page: its level table is then the default, once.
  const seeded = useRef(content.length > 0);
  useEffect(() => {
    if (seeded.current || content.length === 0) return;
    seeded.current = true;
    const levelTable = content.find((c) => isKind(c, 'level-table'))?.id ?? null;
    setDraft((d) => ({ ...d, levelTable }));
  }, [content]);

  const names = useMemo(() => new Map(content.map((c) => [c.id, c.name])), [content]);
  const named = useMemo(() => combatantNames(draft, names), [draft, names]);
  const generated = useMemo(
    () => (writer ? writer.stringify(encounterFile(draft, names)) : ''),
    [writer, draft, names],
  );
  const file = edited ?? generated;

  const change = (next: Partial<Draft>) => setDraft((d) => ({ ...d, ...next }));
  const changeSide = (sideKey: number, next: (s: DraftSide) => DraftSide) =>
    setDraft((d) => ({ ...d, sides: d.sides.map((s) => (s.key === sideKey ? next(s) : s)) }));
  const add = (sideKey: number, sheet: DraftCombatant['sheet'], ref: string, count: number) =>
    setDraft((d) => {
      let next = d;
      for (let i = 0; i < count; i++) {
        const at = system === 'shining-force' ? startCell(next, sideKey) : undefined;
        const combatant: DraftCombatant = { key: key(), sheet, ref, ...(at ? { at } : {}) };
        next = {
          ...next,
          sides: next.sides.map((s) =>
            s.key === sideKey ? { ...s, combatants: [...s.combatants, combatant] } : s,
          ),
        };
      }
      return next;
    });
  const place = (cell: string) => {
    if (placing === null) return;
    setDraft((d) => ({
      ...d,
      sides: d.sides.map((s) => ({
        ...s,
        combatants: s.combatants.map((c) => (c.key === placing ? { ...c, at: cell } : c)),
      })),
    }));
    setPlacing(null);
  };

  const start = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const created = await api.post<{ id: string }>('/api/table/encounters', {
        file,
        ...(seed ? { seed } : {}),
      });
      setError(null);
      await reload();
      location.hash = `#/e/${created.id}`;
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const draftMonsters: DraftMonster[] = [];
  for (const c of draft.sides.flatMap((s) => s.combatants)) {
    if (c.sheet !== 'monster') continue;
    const known = draftMonsters.findIndex((m) => m.ref === c.ref);
    if (known >= 0) {
      const m = draftMonsters[known]!;
      draftMonsters[known] = { ...m, count: m.count + 1 };
    } else draftMonsters.push({ ref: c.ref, name: names.get(c.ref) ?? c.ref, count: 1 });
  }
  /** A tune's count, into the draft: that many of the monster on the side it first fights on. */
  const useCount = (ref: string, count: number) =>
    setDraft((d) => {
      const side = d.sides.find((s) =>
        s.combatants.some((c) => c.ref === ref && c.sheet === 'monster'),
      );
      if (side === undefined) return d;
      const first = side.combatants.findIndex((c) => c.ref === ref);
      const maxHp = side.combatants[first]?.maxHp;
      const others = side.combatants.filter((c) => c.ref !== ref);
      // The copies keep a tuned maximum HP the monster already had.
      const copies = Array.from({ length: count }, () => ({
        key: key(),
        sheet: 'monster' as const,
        ref,
        ...(maxHp === undefined ? {} : { maxHp }),
      }));
      const combatants = [...others.slice(0, first), ...copies, ...others.slice(first)];
      return {
        ...d,
        sides: d.sides.map((s) => (s.key === side.key ? { ...s, combatants } : s)),
      };
    });

  /** A tune's HP, into the draft: each of the monster's entries fights at that maximum HP. */
  const useHp = (ref: string, hp: number) =>
    setDraft((d) => ({
      ...d,
      sides: d.sides.map((s) => ({
        ...s,
        combatants: s.combatants.map((c) =>
          c.sheet === 'monster' && c.ref === ref ? { ...c, maxHp: hp } : c,
        ),
      })),
    }));

  const roster = new Set(info.roster.map((r) => r.character));
  const picked = new Set(draft.sides.flatMap((s) => s.combatants.map((c) => c.ref)));
  const characters = content.filter((c) => isKind(c, 'character') && !picked.has(c.id));
  const monsters = content.filter((c) => isKind(c, 'monster'));
  const maxSides = system === 'shining-force' ? 4 : 6;

  return (
    <section aria-labelledby="start-h" class="panel builder">
      <h2 id="start-h">Start an encounter</h2>
      <form onSubmit={start} class="stack">
        <label>
          Name{' '}
          <input
            name="encounter-name"
            value={draft.name}
            onInput={(e) => change({ name: e.currentTarget.value })}
          />
        </label>
        <h3>Sides</h3>
        <div class="sides">
          {draft.sides.map((side, i) => (
            <SideEditor
              key={side.key}
              index={i}
              side={side}
              system={system}
              players={draft.players === side.key}
              canRemove={draft.sides.length > 1}
              named={named}
              roster={roster}
              characters={characters}
              monsters={monsters}
              placing={placing}
              onRename={(name) => changeSide(side.key, (s) => ({ ...s, name }))}
              onPlayers={() => change({ players: side.key })}
              onAdd={(sheet, ref, count) => add(side.key, sheet, ref, count)}
              onDrop={(combatant) =>
                changeSide(side.key, (s) => ({
                  ...s,
                  combatants: s.combatants.filter((c) => c.key !== combatant),
                }))
              }
              onPlace={(combatant) => setPlacing(placing === combatant ? null : combatant)}
              onSheetHp={(combatant) =>
                changeSide(side.key, (s) => ({
                  ...s,
                  combatants: s.combatants.map((c) => {
                    if (c.key !== combatant) return c;
                    const { maxHp: _, ...rest } = c;
                    return rest;
                  }),
                }))
              }
              onRemove={() =>
                setDraft((d) => ({
                  ...d,
                  sides: d.sides.filter((s) => s.key !== side.key),
                  players: d.players === side.key ? null : d.players,
                }))
              }
            />
          ))}
        </div>
        {draft.sides.length < maxSides && (
          <button
            type="button"
            onClick={() =>
              change({
                sides: [
                  ...draft.sides,
                  { key: key(), name: `Side ${draft.sides.length + 1}`, combatants: [] },
                ],
              })
            }
          >
            Add a side
          </button>
        )}
        {system === 'shining-force' && (
          <Battlefield
            draft={draft}
            placing={placing}
            named={named}
            onCell={place}
            onRows={(rows) => change({ rows })}
          />
        )}
        {system === 'ffrpg' && (
          <FfrpgSetup draft={draft} content={content} change={change} newKey={key} />
        )}
        <OptionsForm
          system={system}
          values={draft.options}
          onChange={(options) => change({ options })}
        />
        <TunePanel
          api={api}
          system={system}
          file={file}
          monsters={draftMonsters}
          onUseCount={useCount}
          onUseHp={useHp}
        />
        <h3>The encounter file</h3>
        <label>
          <span>
            Encounter file (YAML or JSON, as <code>moogle battle</code> reads one): built from the
            choices above; edit it here before starting, or open a file instead
          </span>
          <textarea
            name="file"
            rows={14}
            required
            value={file}
            onInput={(e) => setEdited(e.currentTarget.value)}
            spellcheck={false}
          />
        </label>
        {edited !== null && (
          <p class="note" data-testid="edited-note">
            Edited by hand: the choices above no longer change it.{' '}
            <button type="button" onClick={() => setEdited(null)}>
              Rebuild the file from the choices
            </button>
          </p>
        )}
        <label>
          Or open a file{' '}
          <input
            type="file"
            accept=".yaml,.yml,.json,text/yaml,application/json"
            onChange={async (e) => {
              const chosen = e.currentTarget.files?.[0];
              if (chosen) setEdited(await chosen.text());
            }}
          />
        </label>
        <label>
          Dice seed <input value={seed} onInput={(e) => setSeed(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy || file.trim() === ''}>
          Start the encounter
        </button>
        {error && (
          <p role="alert" class="refusal">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}

interface SideProps {
  readonly index: number;
  readonly side: DraftSide;
  readonly system: string;
  readonly players: boolean;
  readonly canRemove: boolean;
  readonly named: ReadonlyMap<number, { readonly name: string }>;
  readonly roster: ReadonlySet<string>;
  readonly characters: readonly ContentItem[];
  readonly monsters: readonly ContentItem[];
  readonly placing: number | null;
  readonly onRename: (name: string) => void;
  readonly onPlayers: () => void;
  readonly onAdd: (sheet: DraftCombatant['sheet'], ref: string, count: number) => void;
  readonly onDrop: (combatant: number) => void;
  /** Drops a tuned maximum HP: the monster fights at its sheet's again. */
  readonly onSheetHp: (combatant: number) => void;
  readonly onPlace: (combatant: number) => void;
  readonly onRemove: () => void;
}

function SideEditor(p: SideProps) {
  const [pick, setPick] = useState('');
  const [count, setCount] = useState(1);
  const label = p.side.name || `Side ${p.index + 1}`;
  const monster = pick.startsWith('monster:');
  const fromRoster = p.characters.filter((c) => p.roster.has(c.id));
  const others = p.characters.filter((c) => !p.roster.has(c.id));
  return (
    <fieldset class="side" data-side={p.index}>
      <legend>
        {p.players ? '● ' : '◆ '}
        {label}
      </legend>
      <label>
        Side name <input value={p.side.name} onInput={(e) => p.onRename(e.currentTarget.value)} />
      </label>
      <label class="check">
        <input type="radio" name="players-side" checked={p.players} onChange={p.onPlayers} /> The
        players’ side
      </label>
      {p.side.combatants.length === 0 ? (
        <p class="muted">Nobody yet.</p>
      ) : (
        <ul class="plain-list picked">
          {p.side.combatants.map((c) => {
            const name = p.named.get(c.key)?.name ?? c.ref;
            return (
              <li key={c.key} data-combatant={c.ref}>
                {name}
                {c.sheet === 'character' && p.roster.has(c.ref) ? ' (roster)' : ''}
                {c.maxHp !== undefined && (
                  <>
                    {' '}
                    at <strong data-testid="max-hp">{c.maxHp} HP</strong>{' '}
                    <button type="button" onClick={() => p.onSheetHp(c.key)}>
                      Back to the sheet’s HP
                    </button>
                  </>
                )}
                {p.system === 'shining-force' && (
                  <>
                    {' '}
                    on <strong data-testid="cell">{c.at ?? 'no cell'}</strong>{' '}
                    <button
                      type="button"
                      aria-pressed={p.placing === c.key}
                      onClick={() => p.onPlace(c.key)}
                    >
                      {p.placing === c.key ? 'Click a cell…' : `Move ${name}`}
                    </button>
                  </>
                )}{' '}
                <button type="button" onClick={() => p.onDrop(c.key)}>
                  Remove {name}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div class="row">
        <label>
          Add to {label}{' '}
          <select value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
            <option value="">choose…</option>
            {fromRoster.length > 0 && (
              <optgroup label="The roster">
                {fromRoster.map((c) => (
                  <option key={c.id} value={`character:${c.id}`}>
                    {c.name}
                  </option>
                ))}
              </optgroup>
            )}
            {others.length > 0 && (
              <optgroup label="Characters">
                {others.map((c) => (
                  <option key={c.id} value={`character:${c.id}`}>
                    {c.name}
                  </option>
                ))}
              </optgroup>
            )}
            <optgroup label="Monsters">
              {p.monsters.map((c) => (
                <option key={c.id} value={`monster:${c.id}`}>
                  {c.name}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        {monster && (
          <label>
            How many{' '}
            <input
              type="number"
              min={1}
              max={20}
              value={count}
              onInput={(e) =>
                setCount(Math.max(1, Math.min(20, Number(e.currentTarget.value) || 1)))
              }
            />
          </label>
        )}
        <button
          type="button"
          disabled={pick === ''}
          onClick={() => {
            const [sheet, ref] = pick.split(':') as [DraftCombatant['sheet'], string];
            p.onAdd(sheet, ref, sheet === 'monster' ? count : 1);
            setPick('');
            setCount(1);
          }}
        >
          Add
        </button>
      </div>
      {p.canRemove && (
        <button type="button" class="quiet" onClick={p.onRemove}>
          Remove the side {label}
        </button>
      )}
    </fieldset>
  );
}

/** Shining Force: the battlefield's rows, and the units on it; a click places the chosen one. */
function Battlefield({
  draft,
  placing,
  named,
  onCell,
  onRows,
}: {
  draft: Draft;
  placing: number | null;
  named: ReadonlyMap<number, { readonly name: string }>;
  onCell: (cell: string) => void;
  onRows: (rows: string[]) => void;
}) {
  const units = new Map<string, { name: string; players: boolean }>();
  for (const side of orderedSides(draft)) {
    for (const c of side.combatants) {
      if (c.at)
        units.set(c.at.toUpperCase(), {
          name: named.get(c.key)?.name ?? c.ref,
          players: side.key === draft.players,
        });
    }
  }
  const width = draft.rows[0]?.length ?? 0;
  return (
    <div class="stack">
      <h3>Battlefield</h3>
      <label>
        <span>
          Rows (<code>.</code> plain, <code>,</code> grass, <code>f</code> forest, <code>h</code>{' '}
          hills, <code>~</code> water, <code>#</code> rock); the example’s field to start with
        </span>
        <textarea
          name="battlefield"
          rows={Math.max(3, draft.rows.length)}
          spellcheck={false}
          value={draft.rows.join('\n')}
          onInput={(e) => onRows(e.currentTarget.value.split('\n').filter((r) => r !== ''))}
        />
      </label>
      <p class="muted" aria-live="polite">
        {placing === null
          ? 'Units start on free cells, the players’ side from the left; “Move” one, then click a cell.'
          : 'Click a free cell to place the unit.'}
      </p>
      <div class="board-wrap">
        <table class="board builder-board">
          <caption class="visually-hidden">The battlefield as the encounter starts</caption>
          <thead>
            <tr>
              <th scope="col">
                <span class="visually-hidden">row</span>
              </th>
              {Array.from({ length: width }, (_, x) => (
                <th key={x} scope="col">
                  {String.fromCharCode(65 + x)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {draft.rows.map((row, y) => (
              <tr key={y}>
                <th scope="row">{y + 1}</th>
                {Array.from({ length: width }, (_, x) => {
                  const cell = cellName(x, y);
                  const unit = units.get(cell);
                  const free = unit === undefined && standable(terrainAt(draft.rows, cell));
                  return (
                    <td key={x} class={`cell terrain-${terrainClass(row[x])}`} data-cell={cell}>
                      {placing !== null && free ? (
                        <button type="button" data-cell={cell} onClick={() => onCell(cell)}>
                          {row[x]}
                          <span class="visually-hidden"> place on {cell}</span>
                        </button>
                      ) : unit ? (
                        <span class={unit.players ? 'unit party' : 'unit foe'}>
                          {unit.players ? '●' : '◆'}
                          <span class="visually-hidden">
                            {' '}
                            {unit.name} on {cell}
                          </span>
                        </span>
                      ) : (
                        <span aria-hidden="true">{row[x]}</span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function terrainClass(letter: string | undefined): string {
  switch (letter) {
    case ',':
      return 'grass';
    case 'f':
      return 'forest';
    case 'h':
      return 'hills';
    case '~':
      return 'water';
    case '#':
      return 'rock';
    default:
      return 'plain';
  }
}

/** FFRPG: a battle or a Scene, the level table, and fixed-Initiative events. */
function FfrpgSetup({
  draft,
  content,
  change,
  newKey,
}: {
  draft: Draft;
  content: readonly ContentItem[];
  change: (next: Partial<Draft>) => void;
  newKey: () => number;
}) {
  const tables = content.filter((c) => isKind(c, 'level-table'));
  const setEvent = (k: number, next: Partial<Draft['events'][number]>) =>
    change({ events: draft.events.map((e) => (e.key === k ? { ...e, ...next } : e)) });
  return (
    <div class="stack">
      <h3>Battle</h3>
      <div class="row">
        <label>
          Kind{' '}
          <select
            value={draft.mode}
            onChange={(e) => change({ mode: e.currentTarget.value as Draft['mode'] })}
          >
            <option value="battle">a battle</option>
            <option value="scene">a Scene</option>
          </select>
        </label>
        <label>
          Level table{' '}
          <select
            value={draft.levelTable ?? ''}
            onChange={(e) => change({ levelTable: e.currentTarget.value || null })}
          >
            <option value="">none (no level-ups)</option>
            {tables.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <h4>Fixed-Initiative events</h4>
      {draft.events.map((e, i) => (
        <div class="row" key={e.key} data-event={i}>
          <label>
            Event{' '}
            <input
              value={e.name}
              onInput={(v) => setEvent(e.key, { name: v.currentTarget.value })}
            />
          </label>
          <label>
            Initiative{' '}
            <input
              type="number"
              min={0}
              max={999}
              value={e.initiative}
              onInput={(v) => setEvent(e.key, { initiative: Number(v.currentTarget.value) || 0 })}
            />
          </label>
          <label>
            Round (blank: the first){' '}
            <input
              type="number"
              min={1}
              value={e.round ?? ''}
              onInput={(v) => {
                const round = Number(v.currentTarget.value);
                setEvent(e.key, round >= 1 ? { round } : { round: undefined });
              }}
            />
          </label>
          <button
            type="button"
            onClick={() => change({ events: draft.events.filter((x) => x.key !== e.key) })}
          >
            Remove the event {e.name}
          </button>
        </div>
      ))}
      <button
        type="button"
        onClick={() =>
          change({
            events: [
              ...draft.events,
              { key: newKey(), name: `Event ${draft.events.length + 1}`, initiative: 10 },
            ],
          })
        }
      >
        Add a fixed event
      </button>
    </div>
  );
}
