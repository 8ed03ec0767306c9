import type { OfferedAction, SeenView } from '../types.js';
import { BoardView } from './board.js';
import { useClockMove } from './drag.js';
import { type Marker, MoveBar, Track } from './track.js';
import { FINGER_PX, textWidth, useFingertips, useWidth } from './width.js';

/** The GM's: a combatant moved on the clock to a value. */
type OnMove = ((id: string, value: number) => void) | undefined;

/** The clocks' labels, in px: 13 reads on a phone (style.css draws them so). */
const LABEL_PX = 13;

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * FFRPG: who acts at which Initiative, counting down; those above the count have acted. Slow
 * abilities stand where their Charge Time runs out, fixed events on their counts.
 */
function InitiativeTrack({ view, onMove }: { view: SeenView; onMove: OnMove }) {
  const now = num(view.clock.initiative);
  const standing = view.combatants.filter((c) => !c.out);
  const turns: Marker[] = standing
    .filter((c) => num(c.clock.initiative) !== null)
    .map((c) => ({
      id: c.id,
      name: c.name,
      value: num(c.clock.initiative)!,
      party: c.party,
      active: view.actor === c.id,
      done: now !== null && num(c.clock.initiative)! > now,
    }));
  const charges: Marker[] = standing
    .filter((c) => num(c.clock.charge) !== null)
    .map((c) => ({
      id: c.id,
      name: `${c.name}'s ${typeof c.clock.charging === 'string' ? c.clock.charging : 'Slow ability'}`,
      value: num(c.clock.charge)!,
      party: c.party,
      active: false,
      done: false,
      kind: 'charge',
    }));
  const events: Marker[] = Object.keys(view.clock)
    .filter((key) => /^event:[^:]+$/.test(key) && num(view.clock[key]) !== null)
    .map((key) => {
      const name = view.clock[`${key}:name`];
      return {
        id: key.slice('event:'.length),
        name: typeof name === 'string' ? name : key.slice('event:'.length),
        value: num(view.clock[key])!,
        party: false,
        active: false,
        done: view.clock[`${key}:done`] === 1,
        kind: 'event',
      };
    });
  const markers = [...events, ...charges, ...turns];
  const high = Math.max(10, ...markers.map((m) => m.value));
  return (
    <Track
      label="Initiative countdown"
      high={high}
      low={0}
      now={now}
      nowLabel="Initiative"
      markers={markers}
      onMove={onMove}
    />
  );
}

/** FFVIII: the round's shots from the highest down to 1, each combatant on its next shot. */
function ShotTrack({ view, onMove }: { view: SeenView; onMove: OnMove }) {
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
      onMove={onMove}
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

/** How ZODIAC's view says where a combatant stands in the tick: acted, or yet to act. */
function tickMark(c: SeenView['combatants'][number]): string {
  return c.clock.tick === 'acted' ? ' ✓' : '';
}

/**
 * ZODIAC: each combatant's Speed Points as a bar, against its Speed, with the tick; those who
 * have acted this tick are ticked off and dimmed.
 */
function SpeedPoints({ view, onMove }: { view: SeenView; onMove: OnMove }) {
  const [ref, W] = useWidth<HTMLDivElement>(640);
  const rows = view.combatants.filter((c) => !c.out);
  const top = Math.max(
    10,
    ...rows.map((c) => Math.max(num(c.clock.sp) ?? 0, (num(c.clock.speed) ?? 0) + 8)),
  );
  const nameOf = (c: (typeof rows)[number], active: boolean) =>
    `${active ? '▶ ' : ''}${c.party ? '● ' : '◆ '}${c.name}${tickMark(c)}`;
  // The names' column as wide as the widest name (up to half the drawing), and room on the
  // right for the widest "n SP" written past its bar's end.
  const left = Math.min(
    W / 2,
    8 + Math.max(60, ...rows.map((c) => textWidth(nameOf(c, view.actor === c.id), LABEL_PX))),
  );
  const right =
    12 + Math.max(...rows.map((c) => textWidth(`${num(c.clock.sp) ?? 0} SP`, LABEL_PX)), 0);
  // The GM's rows on a phone or a touch screen: each a fingertip's target (44 px), 46 apart.
  const fingers = useFingertips() && onMove !== undefined;
  const pitch = fingers ? FINGER_PX + 2 : 32;
  // The first bar's top: its row's target starts at the drawing's top edge or below it.
  const first = fingers ? 4 + (FINGER_PX - 18) / 2 : 8;
  const H = first + 16 + rows.length * pitch;
  const x = (v: number) => left + (v / top) * (W - left - right);
  const valueAt = (px: number) =>
    Math.max(0, Math.min(top, Math.round(((px - left) / (W - left - right)) * top)));
  const { svg, picked, setPicked, drag, grab, handlers } = useClockMove(valueAt, onMove);
  const pickedRow = rows.find((c) => c.id === picked);
  const summary = `Speed Points, ${view.timing}: ${rows
    .map(
      (c) =>
        `${c.name} ${num(c.clock.sp) ?? 0} SP (Speed ${num(c.clock.speed) ?? 0})${c.clock.tick === 'acted' ? ' (acted this tick)' : ''}`,
    )
    .join(', ')}`;
  // Grid lines every 8 SP, fewer when they would crowd their labels.
  const every = (W - left - right) / top >= 3.5 ? 8 : 16;
  const grid: number[] = [];
  for (let v = 0; v <= top; v += every) grid.push(v);
  return (
    <div ref={ref} class="sp-wrap">
      <svg
        ref={svg}
        class={`sp${onMove ? ' movable' : ''}`}
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role={onMove ? 'group' : 'img'}
        aria-label={summary}
        {...handlers}
      >
        <title>{summary}</title>
        {grid.map((v) => (
          <g key={v}>
            <line x1={x(v)} x2={x(v)} y1={4} y2={H - 18} class="tick" />
            <text x={x(v)} y={H - 4} class="tick-label" text-anchor="middle">
              {v}
            </text>
          </g>
        ))}
        {rows.map((c, i) => {
          const at = num(c.clock.sp) ?? 0;
          // While dragged, the bar ends where the finger is.
          const sp = drag?.id === c.id ? valueAt(drag.x) : at;
          const speed = num(c.clock.speed) ?? 0;
          const y = first + i * pitch;
          const active = view.actor === c.id;
          return (
            <g
              key={c.id}
              class={`sp-row${active ? ' active' : ''}${c.party ? ' party' : ' foe'}${c.clock.tick === 'acted' ? ' acted' : ''}${picked === c.id ? ' picked' : ''}`}
              data-sp-row={c.id}
              {...(onMove ? { onPointerDown: grab(c.id) } : {})}
            >
              {/* The row's button is a shape without text: its name is the row's words. */}
              {onMove && (
                // biome-ignore lint/a11y/useSemanticElements: an SVG drawing holds no <button>; a shape takes the role
                <rect
                  x={0}
                  y={fingers ? y + 9 - FINGER_PX / 2 : y - 4}
                  width={W}
                  height={fingers ? FINGER_PX : 28}
                  class="sp-hit"
                  role="button"
                  tabIndex={0}
                  aria-label={`${c.name} ${at} SP: move`}
                  aria-pressed={picked === c.id}
                  onKeyDown={(e: KeyboardEvent) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      setPicked(picked === c.id ? null : c.id);
                    }
                  }}
                />
              )}
              <text x={4} y={y + 14} class="marker-label">
                {nameOf(c, active)}
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
      {onMove !== undefined && pickedRow !== undefined && (
        <MoveBar
          name={pickedRow.name}
          value={num(pickedRow.clock.sp) ?? 0}
          low={0}
          arrows={['◀', '▶']}
          step={1}
          onMove={(value) => {
            setPicked(null);
            onMove(pickedRow.id, value);
          }}
          onCancel={() => setPicked(null)}
        />
      )}
    </div>
  );
}

export function Clock({
  system,
  view,
  actions,
  onPick,
  onMove,
  onPlace,
}: {
  system: string;
  view: SeenView;
  actions: readonly OfferedAction[];
  onPick: (index: number) => void;
  /** The GM's: a combatant moved on the clock (its Initiative, next shot, SP). */
  onMove?: OnMove;
  /** The GM's: a Shining Force unit put on a cell. */
  onPlace?: ((id: string, cell: string) => void) | undefined;
}) {
  return (
    <section class="clock panel" aria-labelledby="clock-h">
      <h2 id="clock-h">{view.timing}</h2>
      {system === 'ffrpg' && <InitiativeTrack view={view} onMove={onMove} />}
      {system === 'ffviii' && <ShotTrack view={view} onMove={onMove} />}
      {system === 'zodiac' && <SpeedPoints view={view} onMove={onMove} />}
      {system === 'shining-force' && (
        <BoardView view={view} actions={actions} onPick={onPick} onPlace={onPlace} />
      )}
      {view.order.length > 0 && (
        <details>
          <summary>Order as text</summary>
          <pre class="order">{view.order.join('\n')}</pre>
        </details>
      )}
    </section>
  );
}
