import type {
  AnyEncounter,
  CommandBase,
  EventBase,
  LegalAction,
  Outcome,
} from '../../engine/index.js';
import { StatesAfterEntries, undoneSeqs } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';
import { groupsOf, menuOf, oddsOf } from '../../session/index.js';

/**
 * The state of a battle as the table reads it: the timing in the system's own terms, everyone
 * by side with HP, MP and statuses, whose turn it is and the numbered legal actions.
 */
export function stateLines(system: AnySystem, encounter: AnyEncounter): string[] {
  const view = system.view(encounter.state);
  const lines = [view.timing, ...view.order.map((line) => `  ${line}`)];
  if (view.board !== undefined) lines.push(...view.board);
  const width = Math.max(0, ...view.combatants.map((c) => c.name.length));
  for (const side of view.sides) {
    lines.push(`${side.name}:`);
    for (const c of view.combatants.filter((c) => c.side === side.id)) {
      const statuses = [
        ...c.statuses.map((s) => `${s.name} (${s.timer})`),
        ...(c.stock ?? []).map((s) => `${s.name} (x${s.count})`),
      ].join(', ');
      const hp = `HP ${c.hp}/${c.maxHp}`.padEnd(12);
      // A system without MP (FFVIII) shows none rather than a row of 0/0.
      const mp = c.maxMp === 0 ? '' : `MP ${c.mp}/${c.maxMp}`.padEnd(10);
      const notes = c.notes.length === 0 ? '' : `(${c.notes.join('; ')})`;
      const extra = [c.fled ? 'FLED' : c.out ? 'OUT' : '', statuses, notes]
        .filter((s) => s !== '')
        .join('  ');
      lines.push(`  ${c.name.padEnd(width)}  ${hp} ${mp}${mp === '' ? '' : ' '}${extra}`.trimEnd());
    }
  }
  const actor = view.combatants.find((c) => c.id === view.actor);
  if (actor !== undefined) lines.push(`${actor.name}'s turn.`);
  lines.push(...actionLines(system, encounter.state, encounter.legalActions()));
  return lines;
}

/**
 * The numbered legal actions, each with its odds inline; a group of actions too many to list
 * (moves to every cell) is one line saying how to type them.
 */
export function actionLines(
  system: AnySystem,
  state: unknown,
  actions: readonly LegalAction<CommandBase>[],
): string[] {
  const menu = menuOf(actions);
  const listed = menu.filter((a) => a.group === undefined);
  const width = Math.min(48, Math.max(0, ...listed.map((a) => a.label.length)));
  const lines = listed.map((a, i) => {
    const summary = oddsOf(system, state, a.command)?.summary ?? '';
    const label = summary === '' ? a.label : `${a.label.padEnd(width)}  ${summary}`;
    return `  ${String(i + 1).padStart(2)}. ${label}`;
  });
  // The menu keeps each group's actions together after the listed ones: one run of numbers each.
  let first = listed.length + 1;
  for (const [group, members] of groupsOf(menu)) {
    lines.push(
      `  ${String(first).padStart(2)}-${first + members.length - 1}. ${members.length} x ${group}, typed by name: ${members[0]!.label}`,
    );
    first += members.length;
  }
  return lines;
}

/** What a command did, from the system's describe; a command that prints nothing shows its label. */
export function eventLines(
  system: AnySystem,
  events: readonly EventBase[],
  after: unknown,
  label: string,
): string[] {
  const lines = system.describe(events, after);
  return lines.length > 0 ? lines : [label];
}

/** `save`, `load` and `log` know a command only by its fields: `attack actor=hiro target=heket`. */
export function commandText(command: CommandBase): string {
  const fields = Object.entries(command)
    .filter(([key]) => key !== 'type')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [command.type, ...fields].join(' ');
}

/**
 * Every entry of the log, each command with its events described against the state right after
 * it, so names and counts read as they did at the time. A command undone and never redone is
 * marked so for good, even after later commands; an undo or redo names what it moved.
 */
export function logLines(system: AnySystem, encounter: AnyEncounter): string[] {
  const states = StatesAfterEntries.of(encounter.ruleset, encounter.setup, encounter.log);
  const undone = undoneSeqs(encounter.log);
  const lines: string[] = [];
  for (const entry of encounter.log) {
    if (entry.type === 'command') {
      const mark = undone.has(entry.seq) ? '(undone) ' : '';
      lines.push(`[${entry.seq}] ${mark}${commandText(entry.command)}`);
      for (const line of system.describe(entry.events, states.afterEntry(entry.seq))) {
        lines.push(`    ${line}`);
      }
    } else {
      movedLines(system, encounter, states, entry.seq).forEach((line, i) => {
        lines.push(i === 0 ? `[${entry.seq}] ${line}` : `    ${line}`);
      });
    }
  }
  return lines.length > 0 ? lines : ['Nothing has happened yet.'];
}

/** What undo or redo entry `seq` moved, a line each: `Undid #12: Mint attacks the Heket`. */
export function movedLines(
  system: AnySystem,
  encounter: AnyEncounter,
  states: StatesAfterEntries,
  seq: number,
): string[] {
  const entry = encounter.entryAt(seq);
  if (entry === undefined || entry.type === 'command') return [];
  const verb = entry.type === 'undo' ? 'Undid' : 'Redid';
  const moved = states.movedBy(seq).flatMap((n) => {
    const command = encounter.entryAt(n);
    if (command?.type !== 'command') return [];
    const first = system
      .describe(command.events, states.afterEntry(n))
      .find((line) => line.trim() !== '');
    return [`${verb} #${n}: ${first?.trim() ?? commandText(command.command)}`];
  });
  return moved.length > 0 ? moved : [`${verb} nothing`];
}

export function outcomeLine(system: AnySystem, encounter: AnyEncounter, outcome: Outcome): string {
  if (!outcome.over) return 'The battle goes on.';
  const side = system.view(encounter.state).sides.find((s) => s.id === outcome.winner);
  const who = outcome.winner === null ? 'a draw' : `${side?.name ?? outcome.winner} won`;
  return `Outcome: ${who}. ${outcome.reason}`;
}

/**
 * The state as plain JSON (`view --json`): the system, the timing as text and as data, whose
 * turn it is, and every combatant with its resources, statuses, notes and place on the clock.
 */
export function viewJson(system: AnySystem, encounter: AnyEncounter): Record<string, unknown> {
  const view = system.view(encounter.state);
  return {
    system: system.ruleset.id,
    timing: view.timing,
    clock: view.clock,
    actor: view.actor,
    over: encounter.outcome().over,
    sides: view.sides,
    combatants: view.combatants.map((c) => ({
      id: c.id,
      name: c.name,
      side: c.side,
      hp: c.hp,
      maxHp: c.maxHp,
      mp: c.mp,
      maxMp: c.maxMp,
      out: c.out,
      fled: c.fled,
      statuses: c.statuses,
      ...(c.stock === undefined ? {} : { stock: c.stock }),
      notes: c.notes,
      clock: c.clock,
    })),
  };
}
