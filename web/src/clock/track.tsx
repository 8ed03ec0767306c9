/** A countdown drawn left to right, high to low: FFRPG's Initiative, FFVIII's shots. */

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

const W = 640;
const PAD = 24;
const ROW = 30;

export function Track({
  label,
  high,
  low,
  now,
  nowLabel,
  markers,
}: {
  label: string;
  high: number;
  low: number;
  now: number | null;
  nowLabel: string;
  markers: readonly Marker[];
}) {
  const span = Math.max(1, high - low);
  const x = (v: number) => PAD + ((high - v) / span) * (W - 2 * PAD);
  // Markers share a row unless their labels would overlap; a label near the right end is
  // written to the left of its marker.
  const rowsTaken: [number, number][][] = [];
  const placed = [...markers]
    .sort((a, b) => b.value - a.value)
    .map((m) => {
      const cx = x(m.value);
      const r = m.active ? 10 : 7;
      const width = (labelOf(m).length + 2) * 7.2;
      const leftward = cx + r + width > W;
      const from = leftward ? cx - r - width : cx - r;
      const to = leftward ? cx + r : cx + r + width;
      let level = rowsTaken.findIndex((row) => row.every(([a, b]) => to < a || from > b));
      if (level < 0) level = rowsTaken.push([]) - 1;
      rowsTaken[level]!.push([from, to]);
      return { ...m, level, leftward };
    });
  const rows = Math.max(1, rowsTaken.length);
  const H = 56 + rows * ROW;
  const step = span > 30 ? 5 : 1;
  const ticks: number[] = [];
  for (let v = high; v >= low; v -= 1) if (v % step === 0 || v === high || v === low) ticks.push(v);
  const summary = `${label}: ${markers.map(spoken).join(', ')}`;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take keyboard focus to be scrolled without a mouse (WCAG 2.1.1)
    <section class="track-wrap" tabIndex={0} aria-label={label}>
      <svg class="track" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
        <title>{summary}</title>
        <line x1={PAD} x2={W - PAD} y1={28} y2={28} class="axis" />
        {ticks.map((v) => (
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
            <text x={x(now) + 6} y={H - 6} class="now-label">
              ▼ {nowLabel} {now}
            </text>
          </g>
        )}
        {placed.map((m) => {
          const cx = x(m.value);
          const cy = 50 + m.level * ROW;
          const r = m.active ? 10 : 7;
          const kind = m.kind ?? 'turn';
          return (
            <g
              key={`${kind}:${m.id}`}
              class={`marker ${kind}${m.active ? ' active' : ''}${m.done ? ' done' : ''}${m.party ? ' party' : ' foe'}`}
              data-marker={`${kind}:${m.id}`}
            >
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
                x={m.leftward ? cx - r - 4 : cx + r + 4}
                y={cy + 4}
                class="marker-label"
                text-anchor={m.leftward ? 'end' : 'start'}
              >
                {labelOf(m)}
              </text>
            </g>
          );
        })}
      </svg>
    </section>
  );
}
