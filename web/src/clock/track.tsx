/** A countdown drawn left to right, high to low: FFRPG's Initiative, FFVIII's shots. */

import { useClockMove } from './drag.js';
import { FINGER_PX, textWidth, useFingertips, useWidth } from './width.js';

export interface Marker {
  readonly id: string;
  readonly name: string;
  readonly value: number;
  readonly party: boolean;
  readonly active: boolean;
  /** Already acted this round (FFRPG: above the count). */
  readonly done: boolean;
  readonly note?: string;
  /**
   * What stands at this count: a combatant's turn (the default), a Slow ability's Charge Time
   * running out (FFRPG), or a fixed-Initiative event. Each has its own shape and sign.
   */
  readonly kind?: 'turn' | 'charge' | 'event';
}

const SIGN = { turn: '', charge: '', event: '⚑ ' } as const;

function labelOf(m: Marker): string {
  const sign = SIGN[m.kind ?? 'turn'];
  const charging = m.kind === 'charge' ? ' (charging)' : '';
  return `${m.active ? '▶ ' : ''}${sign}${m.name}${charging}${m.note ? ` (${m.note})` : ''}${m.done ? ' ✓' : ''}`;
}

/** How the accessible name reads a marker: `Hiro at 15`, `Mint's Sleep goes off at 10`. */
function spoken(m: Marker): string {
  const where =
    m.kind === 'charge'
      ? `${m.name} goes off at ${m.value}`
      : m.kind === 'event'
        ? `event ${m.name} at ${m.value}`
        : `${m.name} at ${m.value}`;
  return `${where}${m.active ? ' (acting)' : ''}${m.done ? ' (done)' : ''}`;
}

const PAD = 24;
const ROW = 30;
/** Where the first row of markers is centred: under the axis, and under it by half a fingertip. */
const FIRST = 50;
const FIRST_FINGERS = 36 + FINGER_PX / 2 + 2;
/** Below this a label is hard to read on a phone held at arm's length. */
const LABEL_PX = 13;
/** A label that fits on neither side of its marker is written under it, this much lower. */
const UNDER = 16;

/** The smallest of 1, 2, 5, 10, 20, 50… that keeps tick labels this far apart. */
function tickStep(span: number, width: number): number {
  const perUnit = width / span;
  for (let step = 1; ; step *= 10) {
    for (const s of [step, 2 * step, 5 * step]) if (s * perUnit >= 28) return s;
  }
}

export function Track({
  label,
  high,
  low,
  now,
  nowLabel,
  markers,
  onMove,
}: {
  label: string;
  high: number;
  low: number;
  now: number | null;
  nowLabel: string;
  markers: readonly Marker[];
  /** The GM's: a combatant's marker dragged, or picked and then placed, to a value. */
  onMove?: ((id: string, value: number) => void) | undefined;
}) {
  const [ref, W] = useWidth<HTMLElement>(640);
  const span = Math.max(1, high - low);
  const x = (v: number) => PAD + ((high - v) / span) * (W - 2 * PAD);
  const valueAt = (px: number) =>
    Math.max(low, Math.min(high, Math.round(high - ((px - PAD) / (W - 2 * PAD)) * span)));
  const { svg, picked, setPicked, drag, grab, handlers } = useClockMove(valueAt, onMove);
  // The GM's markers on a phone or a touch screen: each a fingertip's target, its rows apart.
  const fingers = useFingertips() && onMove !== undefined;
  const pickedMarker = markers.find((m) => (m.kind ?? 'turn') === 'turn' && m.id === picked);
  // Markers share a row unless their labels would overlap. A label goes right of its marker,
  // else left, else under it, never past the drawing's edge.
  const rowsTaken: [number, number][][] = [];
  const under: boolean[] = [];
  const placed = [...markers]
    .sort((a, b) => b.value - a.value)
    .map((m) => {
      const cx = x(m.value);
      const r = m.active ? 10 : 7;
      const width = textWidth(labelOf(m), LABEL_PX);
      const side: 'right' | 'left' | 'under' =
        cx + r + 4 + width <= W - 2 ? 'right' : cx - r - 4 - width >= 2 ? 'left' : 'under';
      const tx =
        side === 'right'
          ? cx + r + 4
          : side === 'left'
            ? cx - r - 4
            : Math.min(Math.max(2, cx - width / 2), W - 2 - width);
      let from = side === 'left' ? tx - width : Math.min(tx, cx - r);
      let to = side === 'left' ? cx + r : Math.max(tx + width, cx + r);
      if (fingers) {
        from = Math.min(from, cx - FINGER_PX / 2);
        to = Math.max(to, cx + FINGER_PX / 2);
      }
      let level = rowsTaken.findIndex((row) => row.every(([a, b]) => to + 6 < a || from - 6 > b));
      if (level < 0) level = rowsTaken.push([]) - 1;
      rowsTaken[level]!.push([from, to]);
      if (side === 'under') under[level] = true;
      return { ...m, level, side, tx, from, to };
    });
  const rows = Math.max(1, rowsTaken.length);
  const top: number[] = [];
  let y = fingers ? FIRST_FINGERS : FIRST;
  for (let level = 0; level < rows; level++) {
    top.push(y);
    y += (fingers ? FINGER_PX + 2 : ROW) + (under[level] ? UNDER : 0);
  }
  const H = y + 6;
  const step = tickStep(span, W - 2 * PAD);
  const ticks: number[] = [];
  for (let v = high; v >= low; v -= 1) if (v % step === 0 || v === high || v === low) ticks.push(v);
  // The ends are always labelled; a tick label too close to an end's gives way to it.
  const shown = ticks.filter(
    (v) =>
      v === high || v === low || (Math.abs(x(v) - x(high)) >= 24 && Math.abs(x(v) - x(low)) >= 24),
  );
  const nowText = now === null ? '' : `▼ ${nowLabel} ${now}`;
  const nowLeft = now !== null && x(now) + 6 + textWidth(nowText, LABEL_PX) > W - 2;
  const summary = `${label}: ${markers.map(spoken).join(', ')}`;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take keyboard focus to be scrolled without a mouse (WCAG 2.1.1)
    <section class="track-wrap" tabIndex={0} aria-label={label} ref={ref}>
      <svg
        ref={svg}
        class={`track${onMove ? ' movable' : ''}`}
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role={onMove ? 'group' : 'img'}
        aria-label={summary}
        {...handlers}
      >
        <title>{summary}</title>
        <line x1={PAD} x2={W - PAD} y1={28} y2={28} class="axis" />
        {shown.map((v) => (
          <g key={v}>
            <line x1={x(v)} x2={x(v)} y1={22} y2={34} class="tick" />
            <text x={x(v)} y={16} class="tick-label" text-anchor="middle">
              {v}
            </text>
          </g>
        ))}
        {now !== null && now >= low && now <= high && (
          <g class="now">
            <rect x={x(now) - 3} y={36} width={6} height={H - 40} />
            <text
              x={nowLeft ? x(now) - 6 : x(now) + 6}
              y={H - 6}
              class="now-label"
              text-anchor={nowLeft ? 'end' : 'start'}
            >
              {nowText}
            </text>
          </g>
        )}
        {placed.map((m) => {
          const cx = x(m.value);
          const cy = top[m.level]!;
          const r = m.active ? 10 : 7;
          const kind = m.kind ?? 'turn';
          const movable = onMove !== undefined && kind === 'turn';
          const dx = drag !== null && movable && drag.id === m.id ? drag.x - drag.from : 0;
          return (
            <g
              key={`${kind}:${m.id}`}
              class={`marker ${kind}${m.active ? ' active' : ''}${m.done ? ' done' : ''}${m.party ? ' party' : ' foe'}${picked === m.id && movable ? ' picked' : ''}`}
              data-marker={`${kind}:${m.id}`}
              {...(movable
                ? {
                    role: 'button',
                    tabIndex: 0,
                    'aria-label': `${labelOf(m)} at ${m.value}: move`,
                    'aria-pressed': picked === m.id,
                    transform: dx === 0 ? undefined : `translate(${dx} 0)`,
                    onPointerDown: grab(m.id),
                    onKeyDown: (e: KeyboardEvent) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        setPicked(picked === m.id ? null : m.id);
                      }
                    },
                  }
                : {})}
            >
              {movable && fingers && (
                // What a fingertip touches: the marker and its label, at least 44 px each way.
                <rect
                  class="marker-hit"
                  x={m.from}
                  y={cy - FINGER_PX / 2}
                  width={m.to - m.from}
                  height={FINGER_PX + (m.side === 'under' ? UNDER : 0)}
                />
              )}
              {kind === 'charge' ? (
                // An hourglass: the Charge Time runs out here.
                <polygon
                  points={`${cx - r},${cy - r} ${cx + r},${cy - r} ${cx - r},${cy + r} ${cx + r},${cy + r}`}
                />
              ) : kind === 'event' ? (
                <polygon
                  points={`${cx - r},${cy + r} ${cx - r},${cy - r} ${cx + r},${cy - r / 3}`}
                />
              ) : m.party ? (
                <circle cx={cx} cy={cy} r={r} />
              ) : (
                <rect
                  x={cx - r}
                  y={cy - r}
                  width={2 * r}
                  height={2 * r}
                  transform={`rotate(45 ${cx} ${cy})`}
                />
              )}
              <text
                x={m.tx}
                y={m.side === 'under' ? cy + r + 14 : cy + 4}
                class="marker-label"
                text-anchor={m.side === 'left' ? 'end' : 'start'}
              >
                {labelOf(m)}
              </text>
            </g>
          );
        })}
      </svg>
      {onMove !== undefined && pickedMarker !== undefined && (
        <MoveBar
          name={pickedMarker.name}
          value={pickedMarker.value}
          low={low}
          // Higher counts stand to the left on a countdown.
          arrows={['◀', '▶']}
          step={-1}
          onMove={(value) => {
            setPicked(null);
            onMove(pickedMarker.id, value);
          }}
          onCancel={() => setPicked(null)}
        />
      )}
    </section>
  );
}

/**
 * The keyboard's and a fingertip's way to move a picked marker: one step either way, or tap
 * the drawing where it goes.
 */
export function MoveBar({
  name,
  value,
  low,
  arrows,
  step,
  onMove,
  onCancel,
}: {
  name: string;
  value: number;
  low: number;
  arrows: readonly [string, string];
  /** What the right-hand arrow adds: -1 on a countdown, +1 on a bar that grows right. */
  step: 1 | -1;
  onMove: (value: number) => void;
  onCancel: () => void;
}) {
  const left = value - step;
  const right = value + step;
  return (
    <fieldset class="move-bar row" aria-label={`Moving ${name}`}>
      <span class="small">
        {name} at {value}: tap where it goes, or
      </span>
      <button
        type="button"
        aria-label={`Move ${name} to ${left}`}
        disabled={left < low}
        onClick={() => onMove(left)}
      >
        {arrows[0]} {left}
      </button>
      <button
        type="button"
        aria-label={`Move ${name} to ${right}`}
        disabled={right < low}
        onClick={() => onMove(right)}
      >
        {right} {arrows[1]}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </fieldset>
  );
}
