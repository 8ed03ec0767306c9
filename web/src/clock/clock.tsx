import type { OfferedAction, SeenView } from '../types.js';
import { BoardView } from './board.js';
import { Track } from './track.js';

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** FFRPG: who acts at which Initiative, counting down; those above the count have acted. */
function InitiativeTrack({ view }: { view: SeenView }) {
  const now = num(view.clock.initiative);
  const placed = view.combatants.filter((c) => !c.out && num(c.clock.initiative) !== null);
  const values = placed.map((c) => num(c.clock.initiative)!);
  const high = Math.max(10, ...values);
  return (
    <Track
      label="Initiative countdown"
      high={high}
      low={0}
      now={now}
      nowLabel="Initiative"
      markers={placed.map((c) => ({
        id: c.id,
        name: c.name,
        value: num(c.clock.initiative)!,
        party: c.party,
        active: view.actor === c.id,
        done: now !== null && num(c.clock.initiative)! > now,
      }))}
    />
  );
}

/** FFVIII: the round's shots from the highest down to 1, each combatant on its next shot. */
function ShotTrack({ view }: { view: SeenView }) {
  const shots = num(view.clock.shots) ?? 0;
  const now = num(view.clock.shot);
  const placed = view.combatants.filter((c) => !c.out && num(c.clock.shot) !== null);
  const high = Math.max(shots, 1, ...placed.map((c) => num(c.clock.shot)!));
  return (
    <Track
      label="Shot track"
      high={high}
      low={1}
      now={now}
      nowLabel="Shot"
      markers={placed.map((c) => {
        const debt = num(c.clock.debt) ?? 0;
        return {
          id: c.id,
          name: c.name,
          value: num(c.clock.shot)!,
          party: c.party,
          active: view.actor === c.id,
          done: false,
          ...(debt > 0 ? { note: `shot debt ${debt}` } : {}),
        };
      })}
    />
  );
}

/** ZODIAC: each combatant's Speed Points as a bar, against its Speed, with the tick. */
function SpeedPoints({ view }: { view: SeenView }) {
  const rows = view.combatants.filter((c) => !c.out);
  const top = Math.max(
    10,
    ...rows.map((c) => Math.max(num(c.clock.sp) ?? 0, (num(c.clock.speed) ?? 0) + 8)),
  );
  const W = 640;
  const left = 150;
  const H = 20 + rows.length * 32;
  const x = (v: number) => left + (v / top) * (W - left - 20);
  const summary = `Speed Points, ${view.timing}: ${rows
    .map((c) => `${c.name} ${num(c.clock.sp) ?? 0} SP (Speed ${num(c.clock.speed) ?? 0})`)
    .join(', ')}`;
  const grid: number[] = [];
  for (let v = 0; v <= top; v += 8) grid.push(v);
  return (
    <svg class="sp" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
      <title>{summary}</title>
      {grid.map((v) => (
        <g key={v}>
          <line x1={x(v)} x2={x(v)} y1={4} y2={H - 4} class="tick" />
          <text x={x(v)} y={H - 2} class="tick-label" text-anchor="middle">
            {v}
          </text>
        </g>
      ))}
      {rows.map((c, i) => {
        const sp = num(c.clock.sp) ?? 0;
        const speed = num(c.clock.speed) ?? 0;
        const y = 8 + i * 32;
        const active = view.actor === c.id;
        return (
          <g key={c.id} class={`sp-row${active ? ' active' : ''}${c.party ? ' party' : ' foe'}`}>
            <text x={4} y={y + 14} class="marker-label">
              {active ? '▶ ' : ''}
              {c.party ? '● ' : '◆ '}
              {c.name}
            </text>
            <rect x={left} y={y} width={Math.max(0, x(sp) - left)} height={18} class="sp-bar" />
            <line x1={x(speed)} x2={x(speed)} y1={y - 2} y2={y + 20} class="speed-mark" />
            <text x={x(sp) + 4} y={y + 14} class="marker-label">
              {sp} SP
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export function Clock({
  system,
  view,
  actions,
  onPick,
}: {
  system: string;
  view: SeenView;
  actions: readonly OfferedAction[];
  onPick: (index: number) => void;
}) {
  return (
    <section class="clock panel" aria-labelledby="clock-h">
      <h2 id="clock-h">{view.timing}</h2>
      {system === 'ffrpg' && <InitiativeTrack view={view} />}
      {system === 'ffviii' && <ShotTrack view={view} />}
      {system === 'zodiac' && <SpeedPoints view={view} />}
      {system === 'shining-force' && <BoardView view={view} actions={actions} onPick={onPick} />}
      {view.order.length > 0 && (
        <details>
          <summary>Order as text</summary>
          <pre class="order">{view.order.join('\n')}</pre>
        </details>
      )}
    </section>
  );
}
