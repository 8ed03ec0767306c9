import { type RollRecord, recordedRolls } from '../../engine/index.js';
import { AT_TABLE } from '../at-table.js';
import { count, statusClause } from '../grammar.js';
import type { AttackRecord, ShiningForceEvent, VarianceRecord } from './events.js';
import { combatantOf, type ShiningForceState } from './state.js';

/** A roll's total, starred when it was rolled at the table (the line then says what * means). */
function d(roll: RollRecord): string {
  return `${roll.total}${roll.entered ? '*' : ''}`;
}

function varianceText(v: VarianceRecord): string {
  const band = v.roll.total <= 33 ? '-1d15%' : v.roll.total <= 66 ? 'none' : '+1d15%';
  if (v.amount === null) return `${d(v.roll)} (${band})`;
  return `${d(v.roll)} (${band}: d15 ${d(v.amount)}, ${v.percent > 0 ? '+' : ''}${v.percent}%)`;
}

/** The five d100s of an attack on one line, as the GM rolled them. */
export function attackRollsLine(a: AttackRecord): string {
  const crits = a.criticals
    .map(
      (c) =>
        `${c.level === 'special' ? 'special' : `L${c.level}`} ${d(c.roll)}/${c.rate}${c.success ? '!' : ''}`,
    )
    .join(', ');
  const hit = `hit ${d(a.hitRoll)} vs evade ${a.evade}${a.illusion ? ' (Illusion: half as accurate)' : ''}: ${a.hit ? 'hit' : 'miss'}`;
  const counter = `counter ${d(a.counterRoll)}/${a.counterRate}: ${a.counter ? 'yes' : (a.noCounter ?? 'no')}`;
  return `  rolls: ${hit}; variance ${varianceText(a.variance)}; critical ${crits}${a.critical === null ? '' : ` -> ${a.critical.level === 'special' ? 'special' : `level ${a.critical.level}`} critical`}; ${counter}; counter variance ${varianceText(a.counterVariance)}`;
}

/**
 * Events as lines a table reads: "Max attacks Goblin with Short Sword" and the five rolls,
 * "Goblin takes 6 (ATT 12 - DEF 6 = 6), 4 HP left". `state` is the state after the events.
 */
export function describeEvents(
  events: readonly ShiningForceEvent[],
  state: ShiningForceState,
): string[] {
  const name = (id: string): string => combatantOf(state, id)?.sheet.name ?? id;
  const item = (id: string): string => state.setup.items[id]?.name ?? id;
  const lines: string[] = [];
  for (const e of events) {
    const first = lines.length;
    describeEvent(e);
    markAtTable(e, lines, first);
  }
  return lines;

  function describeEvent(e: ShiningForceEvent): void {
    switch (e.type) {
      case 'round-began':
        lines.push(
          `Round ${e.round}. Turn order: ${e.order
            .map((id) => {
              const r = e.rolls.find((r) => r.id === id);
              return `${name(id)} ${r?.value ?? ''}${r?.roll.entered === true ? '*' : ''}`;
            })
            .join(', ')}`,
        );
        break;
      case 'turn-began':
        lines.push(`${name(e.actor)}'s turn${e.canMove ? '' : ' (frozen: cannot move)'}.`);
        break;
      case 'status-rolled':
        lines.push(
          `  ${statusClause(name(e.actor), e.status)}: d100 ${d(e.roll)}, ${e.result.replace('-', ' ')}`,
        );
        break;
      case 'turn-lost':
        lines.push(`  ${name(e.actor)} loses the turn (${e.reason}).`);
        break;
      case 'moved':
        lines.push(`${name(e.actor)} moves ${e.from} -> ${e.to}.`);
        break;
      case 'attacked':
        lines.push(
          `${name(e.attack.actor)} attacks ${name(e.attack.target)} with ${e.attack.weapon}.`,
        );
        lines.push(attackRollsLine(e.attack));
        break;
      case 'damage-dealt':
        lines.push(
          `  ${e.counter ? 'Counter! ' : ''}${name(e.target)} takes ${e.amount}${e.breakdown === '' ? '' : ` (${e.breakdown})`}, ${e.hpAfter} HP left.`,
        );
        break;
      case 'effect-damage':
        lines.push(
          `  ${name(e.target)} takes ${e.amount} (variance ${varianceText(e.variance)}), ${e.hpAfter} HP left.`,
        );
        break;
      case 'spell-cast':
        lines.push(
          `${name(e.actor)} casts ${state.setup.spells[e.spell]?.name ?? e.spell} at ${e.at} (${e.mpAfter} MP left).`,
        );
        break;
      case 'item-used':
        lines.push(`${name(e.actor)} uses ${item(e.item)} at ${e.at}.`);
        break;
      case 'healed':
        lines.push(
          `  ${name(e.target)} recovers ${e.hp} HP${e.mp > 0 ? ` and ${e.mp} MP` : ''} (${e.hpAfter} HP, ${e.mpAfter} MP).`,
        );
        break;
      case 'status-inflicted': {
        const why = e.roll === null ? '' : ` (d100 ${d(e.roll)} <= ${e.chance}%)`;
        const turns = e.instance.turns === null ? '' : `, ${count(e.instance.turns, 'turn')}`;
        lines.push(
          `${e.gm ? 'GM: ' : '  '}${statusClause(name(e.target), e.instance.status)}${turns}${why}.`,
        );
        break;
      }
      case 'status-resisted':
        lines.push(
          `  ${name(e.target)} resists ${e.status === 'defeat' ? 'the killing spell' : e.status} (d100 ${d(e.roll)} > ${e.chance}%).`,
        );
        break;
      case 'instantly-defeated':
        lines.push(`  ${name(e.target)}'s soul is taken (d100 ${d(e.roll)} <= ${e.chance}%).`);
        break;
      case 'status-ended':
        lines.push(
          e.reason === 'gm'
            ? `GM: ${name(e.target)} is no longer ${e.status}.`
            : `  ${name(e.target)} is no longer ${e.status} (${e.reason}).`,
        );
        break;
      case 'statuses-counted':
        for (const s of e.ended) lines.push(`  ${name(e.target)} is no longer ${s}.`);
        break;
      case 'points-lost':
        lines.push(
          `  ${name(e.target)} loses ${[e.hp > 0 ? `${e.hp} HP` : '', e.mp > 0 ? `${e.mp} MP` : ''].filter(Boolean).join(' and ')} to ${e.cause} (${e.hpAfter} HP, ${e.mpAfter} MP).`,
        );
        break;
      case 'defeated':
        lines.push(
          `  ${name(e.target)} is defeated${combatantOf(state, e.target)?.force ? ' (must be raised by a priest)' : ''}.`,
        );
        break;
      case 'item-condition':
        if (e.result === 'good') lines.push(`  ${item(e.item)} holds (d100 ${d(e.roll!)}).`);
        else if (e.result === 'cracked')
          lines.push(`  ${item(e.item)} cracks (d100 ${d(e.roll!)} <= 30)!`);
        else if (e.result === 'broke')
          lines.push(`  ${item(e.item)} was cracked: it breaks for good.`);
        else lines.push(`  ${item(e.item)} is used up.`);
        break;
      case 'item-given':
        lines.push(`${name(e.actor)} gives ${item(e.item)} to ${name(e.to)}.`);
        break;
      case 'item-equipped':
        lines.push(`${name(e.actor)} equips ${item(e.item)}.`);
        break;
      case 'item-unequipped':
        lines.push(`${name(e.actor)} unequips ${item(e.item)}.`);
        break;
      case 'item-dropped':
        lines.push(`${name(e.actor)} drops ${item(e.item)}.`);
        break;
      case 'exp-gained':
        lines.push(`  ${name(e.actor)} gains ${e.amount} EXP (${e.reason}).`);
        break;
      case 'battle-ended': {
        const side = state.setup.sides.find((s) => s.id === e.winner);
        lines.push(
          `The battle is over: ${side === undefined ? 'nobody' : side.name} won (${e.reason})${e.gold > 0 ? `; ${e.gold} gold` : ''}.`,
        );
        break;
      }
      default:
        lines.push(...describeGm(e, state, name, item));
        break;
    }
  }
}

/**
 * Says which of an event's dice were rolled at the table: its starred totals explained on the
 * last line that has one, or, where its lines show no roll (a confused unit's pick of a friend),
 * said on its first line.
 */
function markAtTable(e: ShiningForceEvent, lines: string[], first: number): void {
  if (first === lines.length || !recordedRolls([e]).some((roll) => roll.entered)) return;
  for (let i = lines.length - 1; i >= first; i--) {
    if (/\d\*/.test(lines[i]!)) {
      lines[i] = `${lines[i]} (* ${AT_TABLE})`;
      return;
    }
  }
  lines[first] = `${lines[first]} (dice ${AT_TABLE})`;
}

/** The GM's changes, each on a line of its own marked GM. */
function describeGm(
  e: ShiningForceEvent,
  state: ShiningForceState,
  name: (id: string) => string,
  item: (id: string) => string,
): string[] {
  switch (e.type) {
    case 'note-added':
      return [`GM: note on ${name(e.target)}: ${e.text}`];
    case 'notes-cleared':
      return [`GM: ${name(e.target)}'s notes cleared.`];
    case 'points-set':
      return [
        `GM: ${name(e.target)}'s ${e.resource.toUpperCase()} ${e.before} -> ${e.after}${e.clamped ? ' (as far as it goes)' : ''}.`,
      ];
    case 'revived':
      return [`GM: ${name(e.target)} stands again.`];
    case 'items-set':
      return [
        `GM: ${name(e.target)} carries ${e.after} ${item(e.item)} (was ${e.before})${e.clamped ? ', as many as fit' : ''}.`,
      ];
    case 'item-cracked-set':
      return [`GM: ${name(e.target)}'s ${item(e.item)} is ${e.cracked ? 'cracked' : 'mended'}.`];
    case 'combatant-joined': {
      const order =
        e.place === null
          ? 'takes a place in the turn order when the next round is rolled'
          : `rolls ${e.value} for the turn order (${e.place + 1} of ${state.order.length})`;
      return [`GM: ${e.combatant.sheet.name} joins ${e.combatant.side} at ${e.at} and ${order}.`];
    }
    case 'combatant-left':
      return [`GM: ${name(e.target)} ${e.reason === 'fled' ? 'flees' : 'leaves'} the battle.`];
    case 'order-set':
      return [
        `GM: ${name(e.target)} moves from place ${e.from} to ${e.to} in the turn order${e.clamped ? ' (as far as it goes)' : ''}${e.delayed ? ': its turn waits' : ''}.`,
      ];
    case 'skip-ordered':
      return [`GM: ${name(e.target)}'s next turn will pass.`];
    case 'gm-damage-dealt':
      return [
        `GM: ${name(e.target)} takes ${e.amount}${e.roll === null ? '' : ` (${e.roll.notation}: ${d(e.roll)})`} (${e.breakdown}), ${e.hpAfter} HP left.`,
      ];
    case 'gm-healed':
      return [
        `GM: ${name(e.target)} recovers ${e.amount} HP${e.roll === null ? '' : ` (${e.roll.notation}: ${d(e.roll)})`}, ${e.hpAfter} HP.`,
      ];
    case 'placed':
      return [`GM: ${name(e.target)} is put on ${e.to} (from ${e.from}).`];
    default:
      return [];
  }
}
