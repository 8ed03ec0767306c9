import type { OfferedAction, SeenView } from '../types.js';

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

export function BoardView({
  view,
  actions,
  onPick,
}: {
  view: SeenView;
  actions: readonly OfferedAction[];
  onPick: (index: number) => void;
}) {
  const board = view.board ? parseBoard(view.board) : undefined;
  if (!board) return null;
  const units = new Map(
    view.combatants
      .filter((c) => !c.out && typeof c.clock.cell === 'string')
      .map((c) => [c.clock.cell as string, c]),
  );
  const { reach, attack } = cellActions(actions, view);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take keyboard focus to be scrolled without a mouse (WCAG 2.1.1)
    <section class="board-wrap" tabIndex={0} aria-label="The battlefield">
      <table class="board" aria-label="The battlefield">
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
                const move = reach.get(cell);
                const hit = attack.get(cell);
                const index = hit ?? move;
                const what = [
                  cell,
                  unit ? `${unit.name} (${unit.party ? 'ours' : 'foe'})` : terrain,
                  unit && view.actor === unit.id ? 'acting' : '',
                  move !== undefined ? 'reachable' : '',
                  hit !== undefined ? 'can be attacked' : '',
                ]
                  .filter(Boolean)
                  .join(', ');
                const content = (
                  <>
                    {unit ? (
                      <span
                        aria-hidden="true"
                        class={`unit ${unit.party ? 'party' : 'foe'}${view.actor === unit.id ? ' active' : ''}`}
                      >
                        {unit.party ? '●' : '◆'}
                        {unit.name.slice(0, 2)}
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
                return (
                  <td
                    key={cell}
                    class={`cell terrain-${terrain}${move !== undefined ? ' reach' : ''}${hit !== undefined ? ' attack' : ''}`}
                  >
                    {index !== undefined ? (
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
      <p class="small muted">
        ● ours, ◆ foes; a dotted cell can be reached, ⚔ can be attacked: click it to choose.
      </p>
    </section>
  );
}
