import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { OfferedAction, SeenView } from '../types.js';
import { useWidth } from './width.js';

/** Shining Force's battlefield, read from the view's text board and the units' cells. */

export interface Board {
  readonly columns: readonly string[];
  readonly rows: readonly { readonly label: string; readonly cells: readonly string[] }[];
  readonly legend: Readonly<Record<string, string>>;
}

export function parseBoard(lines: readonly string[]): Board | undefined {
  const header = lines[0];
  if (header === undefined) return undefined;
  const columns = header.trim().split(/\s+/);
  const rows: { label: string; cells: string[] }[] = [];
  const legend: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const row = /^\s*(\d+)\s(.*)$/.exec(line);
    if (row) {
      const cells = row[2]!.split(' ').filter((c) => c.length > 0);
      rows.push({ label: row[1]!, cells: cells.slice(0, columns.length) });
      continue;
    }
    // The terrain legend: `. plain, , grass, f forest (2 to enter), ...`.
    for (const match of line.matchAll(/(?:^|, )(\S) ([a-z]+)/g)) {
      if (
        /plain|grass|forest|hills|water|rock|sand|bridge|road|mountain|wall|river/.test(match[2]!)
      ) {
        legend[match[1]!] = match[2]!;
      }
    }
  }
  return { columns, rows, legend };
}

/** What clicking a cell would do: the actions whose command moves there or aims at who stands there. */
export function cellActions(
  actions: readonly OfferedAction[],
  view: SeenView,
): { reach: Map<string, number>; attack: Map<string, number> } {
  const reach = new Map<string, number>();
  const attack = new Map<string, number>();
  const sideOf = new Map(view.combatants.map((c) => [c.id, c.side]));
  const cellOf = new Map(
    view.combatants
      .filter((c) => !c.out && typeof c.clock.cell === 'string')
      .map((c) => [c.id, c.clock.cell as string]),
  );
  actions.forEach((a, i) => {
    const to = a.command.to;
    if (a.command.type === 'move' && typeof to === 'string') {
      if (!reach.has(to)) reach.set(to, i);
      return;
    }
    const target = a.command.target;
    const actor = a.command.actor;
    // Healing a friend is no attack: only foes' cells are marked.
    if (typeof target === 'string' && sideOf.get(target) !== sideOf.get(String(actor))) {
      const cell = cellOf.get(target);
      if (cell !== undefined && !attack.has(cell)) attack.set(cell, i);
    }
  });
  return { reach, attack };
}

/**
 * Each unit's mark on its cell, two or three characters and never shared: `Go` for a lone
 * Goblin, `G1` and `G2` for two (a number in the name is kept), `DM` and `DD` for a Dark Mage
 * beside a Dark Dwarf. Two units read the same way were told apart only by hovering.
 */
export function unitMarks(units: readonly { id: string; name: string }[]): Map<string, string> {
  const marks = new Map<string, string>();
  const groups = new Map<string, { id: string; name: string }[]>();
  for (const u of units) {
    const key = u.name.replace(/\s+/g, '').slice(0, 2);
    groups.set(key, [...(groups.get(key) ?? []), u]);
  }
  const taken = new Set<string>();
  for (const [key, group] of groups) {
    if (group.length === 1) {
      marks.set(group[0]!.id, key);
      taken.add(key);
      continue;
    }
    // Initials first, when they differ within the group and no name carries a number.
    const initials = group.map((u) =>
      u.name
        .split(/\s+/)
        .filter((w) => w.length > 0)
        .map((w) => w[0]!.toUpperCase())
        .join('')
        .slice(0, 3),
    );
    const numbered = group.some((u) => /\d+$/.test(u.name));
    if (
      !numbered &&
      new Set(initials).size === group.length &&
      initials.every((i) => i.length > 1)
    ) {
      for (const [i, u] of group.entries()) marks.set(u.id, initials[i]!);
      for (const i of initials) taken.add(i);
      continue;
    }
    const first = key.slice(0, 1).toUpperCase();
    const used = new Set(group.map((u) => /(\d+)$/.exec(u.name)?.[1]).filter(Boolean));
    let next = 1;
    for (const u of group) {
      let n = /(\d+)$/.exec(u.name)?.[1];
      if (n === undefined) {
        while (used.has(String(next)) || taken.has(`${first}${next}`)) next++;
        n = String(next);
        used.add(n);
      }
      let mark = `${first}${n}`;
      // A clash with another group's mark (rare): the id's tail tells them apart.
      if (taken.has(mark)) mark = `${first}${u.id.slice(-2)}`;
      marks.set(u.id, mark);
      taken.add(mark);
    }
  }
  return marks;
}

/**
 * The board's zoom, as a factor of its cells' fingertip size (2.75rem, 44 px): the steps − and +
 * go through, or `fit`, the whole board as wide as the screen's room for it. Below 1 a cell is
 * smaller than a fingertip: only a zoom the user chose goes there.
 */
export const ZOOMS = [0.5, 0.625, 0.75, 0.875, 1, 1.25, 1.5, 2] as const;
export type Zoom = number | 'fit';

const ZOOM_KEY = 'moogle.board-zoom';
/** The zoom chosen on this page: kept across renders, and the screens the page opens after. */
let chosenZoom: Zoom | undefined;

function rememberedZoom(): Zoom {
  if (chosenZoom !== undefined) return chosenZoom;
  try {
    // The tab's session: a reload keeps it, another tab or a new visit starts at 100%.
    const kept = sessionStorage.getItem(ZOOM_KEY);
    if (kept === 'fit') return 'fit';
    const n = Number(kept);
    if (kept !== null && (ZOOMS as readonly number[]).includes(n)) return n;
  } catch {
    // Storage refused (a private window's settings): kept for this page only.
  }
  return 1;
}

function rememberZoom(zoom: Zoom): void {
  chosenZoom = zoom;
  try {
    sessionStorage.setItem(ZOOM_KEY, String(zoom));
  } catch {
    // Kept for this page only.
  }
}

/** The next step out from `scale` (smaller cells), or in: undefined past the last. */
export function zoomStep(scale: number, direction: -1 | 1): number | undefined {
  return direction < 0
    ? [...ZOOMS].reverse().find((z) => z < scale - 0.001)
    : ZOOMS.find((z) => z > scale + 0.001);
}

/**
 * The scale at which `columns` cells of `cellPx` at 100%, beside the row labels' column
 * (`head` px), fit `room` px: one px of border per column and one more.
 */
export function fitScale(room: number, head: number, columns: number, cellPx: number): number {
  const scale = (room - head - (columns + 1)) / (columns * cellPx);
  const first = ZOOMS[0];
  const last = ZOOMS[ZOOMS.length - 1]!;
  return Math.max(first, Math.min(last, Math.floor(scale * 1000) / 1000));
}

/** The zoom of the board: what was chosen, the scale it draws at, and the means to change it. */
function useBoardZoom(columns: number) {
  const [zoom, setZoom] = useState<Zoom>(rememberedZoom);
  const [wrap, room] = useWidth<HTMLElement>(0);
  const [head, setHead] = useState(24);
  // The point of the board in the middle of the view, kept there as the zoom changes.
  const anchor = useRef<number | null>(null);
  // Fit: the cells' size at 100% is 2.75rem, in the page's px.
  const rem = () => Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const scale = zoom !== 'fit' ? zoom : room > 0 ? fitScale(room, head, columns, 2.75 * rem()) : 1;
  useLayoutEffect(() => {
    const el = wrap.current;
    if (el === null) return;
    const label = el.querySelector('tbody th');
    if (label !== null) setHead(Math.ceil(label.getBoundingClientRect().width));
    if (anchor.current !== null) {
      el.scrollLeft = anchor.current * el.scrollWidth - el.clientWidth / 2;
      anchor.current = null;
    }
  }, [scale, wrap]);
  const choose = (next: Zoom) => {
    const el = wrap.current;
    if (el !== null && el.scrollWidth > 0)
      anchor.current = (el.scrollLeft + el.clientWidth / 2) / el.scrollWidth;
    rememberZoom(next);
    setZoom(next);
  };
  return { zoom, scale, wrap, choose };
}

/** − and + a step, the whole board, or its cells a fingertip again: each a 44 px target. */
function ZoomBar({
  zoom,
  scale,
  choose,
}: {
  zoom: Zoom;
  scale: number;
  choose: (zoom: Zoom) => void;
}) {
  const out = zoomStep(scale, -1);
  const into = zoomStep(scale, 1);
  const percent = Math.round(scale * 100);
  return (
    <fieldset class="board-zoom row" aria-label="Zoom the battlefield">
      <button
        type="button"
        class="zoom-step"
        aria-label="Zoom out"
        disabled={out === undefined}
        onClick={() => out !== undefined && choose(out)}
      >
        −
      </button>
      <button
        type="button"
        class="zoom-step"
        aria-label="Zoom in"
        disabled={into === undefined}
        onClick={() => into !== undefined && choose(into)}
      >
        +
      </button>
      <button
        type="button"
        aria-pressed={zoom === 'fit'}
        aria-label="Fit the whole battlefield in view"
        onClick={() => choose('fit')}
      >
        Fit
      </button>
      <button
        type="button"
        aria-pressed={zoom === 1}
        aria-label="100%: cells a fingertip wide"
        onClick={() => choose(1)}
      >
        100%
      </button>
      <span class="small muted" aria-live="polite" data-testid="board-zoom">
        {percent}%{scale < 1 ? ', cells smaller than a fingertip' : ''}
      </span>
    </fieldset>
  );
}

export function BoardView({
  view,
  actions,
  onPick,
  onPlace,
}: {
  view: SeenView;
  actions: readonly OfferedAction[];
  onPick: (index: number) => void;
  /**
   * The GM's: a unit put on a cell (`gm move`), dragged there, or in "move units" mode tapped
   * and then the cell tapped. The rules refuse a taken or impassable cell.
   */
  onPlace?: ((id: string, cell: string) => void) | undefined;
}) {
  const [moving, setMoving] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const board = view.board ? parseBoard(view.board) : undefined;
  const { zoom, scale, wrap, choose } = useBoardZoom(board?.columns.length ?? 1);
  if (!board) return null;
  const units = new Map(
    view.combatants
      .filter((c) => !c.out && typeof c.clock.cell === 'string')
      .map((c) => [c.clock.cell as string, c]),
  );
  const { reach, attack } = cellActions(actions, view);
  // From every combatant, out or not: a Goblin 2 stays G2 after the first Goblin falls.
  const marks = unitMarks(view.combatants);
  // The legend names only the terrain this field has.
  const used = new Set(board.rows.flatMap((r) => r.cells));
  const terrains = Object.entries(board.legend).filter(([char]) => used.has(char));
  return (
    <section class="board-area" aria-label="The battlefield">
      <ZoomBar zoom={zoom} scale={scale} choose={choose} />
      {/* Only the grid scrolls sideways: the zoom, the notes and the legend stay in view. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take keyboard focus to be scrolled without a mouse (WCAG 2.1.1) */}
      <section class="board-wrap" tabIndex={0} aria-label="The battlefield's grid" ref={wrap}>
        <table class="board" aria-label="The battlefield" style={{ '--zoom': String(scale) }}>
          <thead>
            <tr>
              <th scope="col">
                <span class="visually-hidden">row</span>
              </th>
              {board.columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {board.rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {board.columns.map((col, i) => {
                  const cell = `${col}${row.label}`;
                  const unit = units.get(cell);
                  const terrainChar = row.cells[i] ?? '.';
                  // Other marks on the text board (units, reach) are drawn from the data instead.
                  const terrain = board.legend[terrainChar] ?? 'plain';
                  const mark = board.legend[terrainChar] !== undefined && terrainChar !== '.';
                  const placing = onPlace !== undefined && moving;
                  const move = placing ? undefined : reach.get(cell);
                  const hit = placing ? undefined : attack.get(cell);
                  const index = hit ?? move;
                  const what = [
                    cell,
                    unit ? `${unit.name} (${unit.party ? 'ours' : 'foe'})` : terrain,
                    unit && view.actor === unit.id ? 'acting' : '',
                    move !== undefined ? 'reachable' : '',
                    hit !== undefined ? 'can be attacked' : '',
                    placing && unit && chosen === unit.id ? 'chosen to move' : '',
                  ]
                    .filter(Boolean)
                    .join(', ');
                  const content = (
                    <>
                      {unit ? (
                        <span
                          aria-hidden="true"
                          class={`unit ${unit.party ? 'party' : 'foe'}${view.actor === unit.id ? ' active' : ''}${placing && chosen === unit.id ? ' chosen' : ''}`}
                          draggable={onPlace !== undefined}
                          data-unit={unit.id}
                          onDragStart={(e) => e.dataTransfer?.setData('text/plain', unit.id)}
                        >
                          {unit.party ? '●' : '◆'}
                          {marks.get(unit.id)}
                        </span>
                      ) : (
                        <span class="terrain-char" aria-hidden="true">
                          {mark ? terrainChar : ''}
                        </span>
                      )}
                      {move !== undefined && !unit && (
                        <span class="mark-reach" aria-hidden="true">
                          ·
                        </span>
                      )}
                      {hit !== undefined && (
                        <span class="mark-attack" aria-hidden="true">
                          ⚔
                        </span>
                      )}
                      <span class="visually-hidden">{what}</span>
                    </>
                  );
                  const drop =
                    onPlace === undefined
                      ? {}
                      : {
                          onDragOver: (e: DragEvent) => e.preventDefault(),
                          onDrop: (e: DragEvent) => {
                            e.preventDefault();
                            const id = e.dataTransfer?.getData('text/plain');
                            const from = view.combatants.find((c) => c.id === id);
                            if (from !== undefined && from.clock.cell !== cell)
                              onPlace(from.id, cell);
                          },
                        };
                  return (
                    <td
                      key={cell}
                      class={`cell terrain-${terrain}${move !== undefined ? ' reach' : ''}${hit !== undefined ? ' attack' : ''}`}
                      {...drop}
                    >
                      {placing ? (
                        <button
                          type="button"
                          data-cell={cell}
                          aria-pressed={unit !== undefined ? chosen === unit.id : undefined}
                          onClick={() => {
                            if (unit !== undefined) setChosen(chosen === unit.id ? null : unit.id);
                            else if (chosen !== null) {
                              onPlace?.(chosen, cell);
                              setChosen(null);
                            }
                          }}
                        >
                          {content}
                        </button>
                      ) : index !== undefined ? (
                        <button type="button" data-cell={cell} onClick={() => onPick(index)}>
                          {content}
                        </button>
                      ) : (
                        <span title={what} data-cell={cell}>
                          {content}
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <p class="small muted">
        ● ours, ◆ foes; a dotted cell can be reached, ⚔ can be attacked: click it to choose.
      </p>
      {onPlace !== undefined && (
        <p class="row">
          <button
            type="button"
            aria-pressed={moving}
            onClick={() => {
              setMoving(!moving);
              setChosen(null);
            }}
          >
            {moving ? 'Done moving units' : 'Move units (GM)'}
          </button>
          <span class="small muted">
            {moving
              ? chosen === null
                ? 'Tap a unit, then the cell it goes to.'
                : `Now tap the cell ${view.combatants.find((c) => c.id === chosen)?.name ?? chosen} goes to.`
              : 'Or drag a unit to a cell.'}
          </span>
        </p>
      )}
      {terrains.length > 0 && (
        <ul class="terrain-legend small" aria-label="Terrain">
          {terrains.map(([char, name]) => (
            <li key={char}>
              <span class={`swatch terrain-${name}`} aria-hidden="true">
                {char === '.' ? '' : char}
              </span>{' '}
              {name}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
