import type { RollRecord } from '../../engine/index.js';
import { atTable } from '../at-table.js';
import type { CheckRecord, FfrpgEvent } from './events.js';
import type { FfrpgState } from './state.js';

/** `d% [20+8] = 28`, or `rolled 28` when the roll carries no explanation. */
function rolled(roll: RollRecord): string {
  if (roll.text === '') return `rolled ${roll.total}${atTable(roll)}`;
  const shown = roll.text.slice(roll.notation.length + 3, roll.text.lastIndexOf(' = '));
  return `${roll.notation} ${shown} = ${roll.total}${atTable(roll)}`;
}

function verdict(check: CheckRecord, success: string, failure: string): string {
  if (!check.success) return check.botch ? `Botch, ${failure}` : failure;
  if (check.critical) return `Critical, ${success}`;
  return check.ruleOf10 ? `${success} (Rule of 10)` : success;
}

function checkLine(check: CheckRecord, success: string, failure: string): string {
  if (check.roll === null) return `CoS ${check.cos} (${check.formula}): ${success}, no roll needed`;
  return `CoS ${check.cos} (${check.formula}), ${rolled(check.roll)}: ${verdict(check, success, failure)}`;
}

/**
 * FFRPG events as lines a table reads: "Hiro attacks Heket: CoS 70 (ACC 42 + Guns 50 - EVA 22),
 * d% [20+8] = 28: hit". Bookkeeping (turn boundaries, timer counts) prints nothing. `state` is
 * the state after the events, for names.
 */
export function describeEvents(events: readonly FfrpgEvent[], state: FfrpgState): string[] {
  const name = (id: string): string => state.combatants[id]?.sheet.name ?? id;
  const ability = (id: string): string => state.setup.abilities[id]?.name ?? id;
  const status = (id: string): string => state.setup.statuses[id]?.name ?? id;
  const lines: string[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'round-began': {
        const order = event.timeline.map(
          (e) => `${e.kind === 'combatant' ? name(e.id) : e.id} ${e.count}`,
        );
        lines.push(`Round ${event.round}. Initiative: ${order.join(', ')}`);
        for (const roll of event.initiative) lines.push(`  ${name(roll.id)}: ${rolled(roll.roll)}`);
        break;
      }
      case 'turn-skipped':
        lines.push(`${name(event.actor)} cannot act (${event.reason})`);
        break;
      case 'fixed-event':
        lines.push(`Initiative ${state.timeline[event.cursor]?.count ?? ''}: ${event.name}`);
        break;
      case 'attack-made':
        lines.push(
          `${name(event.actor)} ${event.reaction ? 'counters' : 'attacks'} ${name(event.target)} with ${event.weapon}: ${checkLine(event.check, 'hit', 'miss')}`,
        );
        break;
      case 'ability-used':
        lines.push(
          `${name(event.actor)} uses ${ability(event.ability)}${event.targets.length > 0 ? ` on ${event.targets.map(name).join(', ')}` : ''}${event.paid === 'nothing' ? '' : `, paying ${event.paid}`}`,
        );
        break;
      case 'ability-charging':
        lines.push(`  ...charging: it goes off on Initiative ${event.charging.resolvesAt}`);
        break;
      case 'charge-resolved': {
        const charge = state.charging.find((c) => c.id === event.id);
        lines.push(
          `${charge === undefined ? 'A charged ability' : `${name(charge.actor)}'s ${ability(charge.ability)}`} goes off`,
        );
        break;
      }
      case 'charge-fizzled':
        lines.push(`A charged ability fizzles: ${event.reason}`);
        break;
      case 'effect-checked':
        lines.push(
          `  ${ability(event.ability)} on ${name(event.target)}: ${checkLine(event.check, 'it works', 'no effect')}`,
        );
        break;
      case 'reaction-triggered':
        lines.push(
          `${name(event.actor)} reacts with ${ability(event.ability)}: ${checkLine(event.check, 'it triggers', 'not this time')}`,
        );
        break;
      case 'damage-dealt': {
        const pool = event.mpAfter === undefined ? 'HP' : 'MP';
        const left = event.mpAfter ?? event.hpAfter;
        const roll =
          event.roll === null
            ? ''
            : ` (${event.roll.text || `${event.roll.notation} = ${event.roll.total}`}${atTable(event.roll)})`;
        lines.push(
          `  ${name(event.target)} ${event.absorbed ? `absorbs it: +${event.amount}` : `takes ${event.amount}`} ${pool}${roll}: ${event.breakdown}; ${left} ${pool} left`,
        );
        break;
      }
      case 'healed':
        lines.push(
          `  ${name(event.target)} recovers ${event.amount} HP${event.roll === null ? ` (${event.source})` : ` (${event.roll.text}${atTable(event.roll)})`}; ${event.hpAfter} HP`,
        );
        break;
      case 'status-inflicted':
        lines.push(
          `  ${name(event.target)}: ${status(event.status)} (${event.timer === 'infinite' ? '∞' : event.timer})`,
        );
        break;
      case 'status-resisted':
        lines.push(`  ${name(event.target)} is immune to ${status(event.status)}`);
        break;
      case 'status-ended':
        if (event.reason !== 'knocked-out')
          lines.push(`  ${name(event.target)}: ${status(event.status)} ends (${event.reason})`);
        break;
      case 'knocked-out':
        lines.push(`  ${name(event.target)} is knocked out`);
        break;
      case 'fled':
        lines.push(`${name(event.actor)} flees`);
        break;
      case 'task-checked':
        lines.push(
          `${name(event.actor)}: ${event.task}: ${checkLine(event.check, 'success', 'failure')}`,
        );
        break;
      case 'opposed-checked': {
        for (const p of event.participants)
          lines.push(`${name(p.actor)}: ${checkLine(p.check, 'success', 'failure')}`);
        const outcome = event.outcome;
        lines.push(
          outcome.result === 'winner'
            ? `${event.task}: ${name(outcome.winner)} wins`
            : `${event.task}: stalemate (${outcome.reason === 'tie' ? 'a tie' : 'everyone failed'}); ${outcome.reroll.map(name).join(', ')} roll again`,
        );
        break;
      }
      case 'round-ended':
        lines.push(`Round ${event.round} ends (Status Phase done)`);
        break;
      case 'battle-ended':
        lines.push(`The battle is over: ${event.reason}`);
        break;
      case 'rewards-awarded': {
        const { rewards } = event;
        const shares = rewards.shares.map(
          (s) =>
            `${name(s.id)} ${s.xp} XP, ${s.gil} Gil${s.levelAfter > s.levelBefore ? `, Level ${s.levelAfter}!` : ''}`,
        );
        lines.push(
          `Rewards: ${rewards.xp} XP and ${rewards.gil} Gil: ${shares.join('; ') || 'nobody standing to take them'}`,
        );
        break;
      }
      case 'scene-ended':
        lines.push('The Scene ends');
        break;
      case 'resource-set':
        lines.push(
          `GM: ${name(event.target)} now has ${event.value} ${event.resource.toUpperCase()}${event.clamped ? ' (as far as it goes)' : ''}${event.revived ? ', back in the fight' : ''}`,
        );
        break;
      case 'combatant-joined': {
        const c = event.combatant;
        const joined = `GM: ${c.sheet.name} joins ${state.setup.sides.find((s) => s.id === c.side)?.name ?? c.side}`;
        if (event.initiative === null) lines.push(joined);
        else
          lines.push(
            `${joined}: Initiative ${event.initiative.initiative} (${rolled(event.initiative.roll)})${event.at === null ? ', already past: acts from the next round' : ''}`,
          );
        break;
      }
      case 'combatant-removed':
        lines.push(
          `GM: ${name(event.target)} ${event.reason === 'fled' ? 'flees' : 'is dismissed'}`,
        );
        break;
      case 'initiative-set':
        lines.push(`GM: ${name(event.target)} now acts on Initiative ${event.count}`);
        break;
      case 'turn-cancelled':
        lines.push(`GM: ${name(event.actor)} loses this round's turn`);
        break;
      case 'note-added':
        lines.push(`GM note on ${name(event.target)}: ${event.text}`);
        break;
      case 'notes-cleared':
        lines.push(`GM: notes on ${name(event.target)} cleared`);
        break;
      default:
        break;
    }
  }
  return lines;
}
