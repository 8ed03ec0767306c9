import type { SeenCombatant, SeenView } from '../types.js';
import { GmCardControls, StatusChip } from './gm-card.js';
import type { GmTouch } from './touch.js';

function Bar({
  label,
  value,
  max,
  kind,
}: {
  label: string;
  value: number;
  max: number;
  kind: 'hp' | 'mp';
}) {
  return (
    <div class="bar-row">
      <span class="bar-label">
        {label} {value}/{max}
      </span>
      <meter
        class={`bar bar-${kind}`}
        aria-label={label}
        min={0}
        max={max}
        low={max / 4 + 0.01}
        high={max}
        optimum={max}
        value={value}
        title={`${value} of ${max}`}
      />
    </div>
  );
}

function clockText(c: SeenCombatant): string {
  return Object.entries(c.clock)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

export function CombatantCard({
  c,
  view,
  gm,
  onReveal,
  revealed,
  mine,
  touch,
  played,
}: {
  c: SeenCombatant;
  view: SeenView;
  gm: boolean;
  onReveal?: ((id: string, shown: boolean) => void) | undefined;
  revealed?: boolean;
  mine?: boolean;
  /** The GM's overrides by touch, on the GM's screen. */
  touch?: GmTouch | undefined;
  /** On the GM's screen: this character's player is at the fight (or coming back to it). */
  played?: 'connected' | 'reconnecting' | undefined;
}) {
  const hands = gm ? touch : undefined;
  const active = view.actor === c.id;
  const side = view.sides.find((s) => s.id === c.side)?.name ?? c.side;
  return (
    <article
      class={`card${active ? ' card-active' : ''}${c.out ? ' card-out' : ''}${c.party ? ' side-party' : ' side-foe'}`}
      aria-current={active ? 'true' : undefined}
      aria-labelledby={`card-${c.id}`}
      data-combatant={c.id}
    >
      <h3 id={`card-${c.id}`}>
        <span class="side-mark" aria-hidden="true">
          {c.party ? '●' : '◆'}
        </span>{' '}
        {c.name}
        {mine ? ' (you)' : ''}
        {active && <span class="badge badge-active"> ▶ acting now</span>}
        {/* One who fled is gone, not beaten: never marked as knocked out. */}
        {c.out && (
          <span class="badge badge-out" data-testid="out">
            {c.fled ? ' ↗ fled' : ' ✕ out'}
          </span>
        )}
      </h3>
      <p class="muted small">
        {side}
        {clockText(c) ? ` · ${clockText(c)}` : ''}
      </p>
      {gm && played && (
        // The GM may still act for it (the legal actions are the GM's too): the mark says whose
        // turn that would take over.
        <p class={`played-by played-${played}`} data-testid="played-by">
          <span aria-hidden="true">📱 </span>
          {played === 'connected'
            ? 'played by a connected player'
            : 'played by a player (reconnecting…)'}
          {active && ` · you may act for ${c.name} from the legal actions`}
        </p>
      )}
      {c.hp !== null && c.maxHp !== null ? (
        <Bar label="HP" value={c.hp} max={c.maxHp} kind="hp" />
      ) : (
        <p class="band" data-testid="band">
          {c.band === 'fled' ? 'Fled' : `HP: ${c.band}`}
        </p>
      )}
      {c.mp !== null && c.maxMp !== null && c.maxMp > 0 && (
        <Bar label="MP" value={c.mp} max={c.maxMp} kind="mp" />
      )}
      {c.statuses.length > 0 && (
        <ul class="statuses" aria-label="Statuses">
          {c.statuses.map((s) => (
            <StatusChip key={s.name} c={c} s={s} touch={hands} />
          ))}
        </ul>
      )}
      {c.stock !== undefined && c.stock.length > 0 && (
        <ul class="statuses stock" aria-label="Spell Matrix">
          {c.stock.map((s) => (
            <li key={s.name}>
              {s.name} ×{s.count}
            </li>
          ))}
        </ul>
      )}
      {c.notes.length > 0 && (
        <ul class="notes" aria-label="GM notes">
          {c.notes.map((n) => (
            <li key={n}>✎ {n}</li>
          ))}
        </ul>
      )}
      {hands !== undefined && <GmCardControls c={c} touch={hands} />}
      {gm && onReveal && !c.party && (
        <label class="reveal">
          <input
            type="checkbox"
            checked={revealed === true}
            onChange={(e) => onReveal(c.id, e.currentTarget.checked)}
          />{' '}
          Players see its figures
        </label>
      )}
    </article>
  );
}

export function Combatants({
  view,
  gm,
  onReveal,
  mine,
  revealed,
  skip,
  touch,
  played,
}: {
  touch?: GmTouch | undefined;
  /** On the GM's screen: the characters whose players are connected, and how. */
  played?: ReadonlyMap<string, 'connected' | 'reconnecting'> | undefined;
  skip?: string | undefined;
  view: SeenView;
  gm: boolean;
  onReveal?: (id: string, shown: boolean) => void;
  mine?: string | undefined;
  revealed?: ReadonlySet<string>;
}) {
  return (
    <section aria-labelledby="combatants-h" class="combatants">
      <h2 id="combatants-h">Combatants</h2>
      {view.sides.map((side) => (
        <div key={side.id} class="side">
          <h3 class="side-name">{side.name}</h3>
          <div class="cards">
            {view.combatants
              .filter((c) => c.side === side.id && c.id !== skip)
              .map((c) => (
                <CombatantCard
                  key={c.id}
                  c={c}
                  view={view}
                  gm={gm}
                  onReveal={onReveal}
                  revealed={revealed?.has(c.id) ?? false}
                  mine={c.id === mine}
                  touch={touch}
                  played={played?.get(c.id)}
                />
              ))}
          </div>
        </div>
      ))}
    </section>
  );
}
