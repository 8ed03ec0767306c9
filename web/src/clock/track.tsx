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
  const stacks = new Map<number, number>();
  const placed = markers.map((m) => {
    const level = stacks.get(m.value) ?? 0;
    stacks.set(m.value, level + 1);
    return { ...m, level };
  });
  const rows = Math.max(1, ...[...stacks.values()]);
  const H = 56 + rows * ROW;
  const step = span > 30 ? 5 : 1;
  const ticks: number[] = [];
  for (let v = high; v >= low; v -= 1) if (v % step === 0 || v === high || v === low) ticks.push(v);
  const summary = `${label}: ${markers
    .map((m) => `${m.name} at ${m.value}${m.active ? ' (acting)' : ''}${m.done ? ' (done)' : ''}`)
    .join(', ')}`;
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
          return (
            <g
              key={m.id}
              class={`marker${m.active ? ' active' : ''}${m.done ? ' done' : ''}${m.party ? ' party' : ' foe'}`}
            >
              {m.party ? (
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
              <text x={cx + r + 4} y={cy + 4} class="marker-label">
                {m.active ? '▶ ' : ''}
                {m.name}
                {m.note ? ` (${m.note})` : ''}
                {m.done ? ' ✓' : ''}
              </text>
            </g>
          );
        })}
      </svg>
    </section>
  );
}
