import type { RollRecord } from '../../engine/index.js';
import { atTable } from '../at-table.js';
import { count, sideVerb } from '../grammar.js';
import type { AttackRecord, ZodiacEvent } from './events.js';
import type { ZodiacState } from './state.js';
import { STATUSES } from './statuses.js';

/** `d100 [57] = 57`, or `rolled 57` when the roll carries no explanation. */
function rolled(roll: RollRecord): string {
  if (roll.text === '') return `rolled ${roll.total}${atTable(roll)}`;
  const shown = roll.text.slice(roll.notation.length + 3, roll.text.lastIndexOf(' = '));
  return `${roll.notation} ${shown}${atTable(roll)}`;
}

function attackLine(a: AttackRecord): string {
  if (a.roll === null) return 'asleep, hit automatically for the maximum';
  const penalties = a.penalties.map((p) => ` - ${p.amount} (${p.reason})`).join('');
  const verdict = !a.hit
    ? 'miss'
    : a.automatic && a.total <= a.evade
      ? 'hit (a natural 90 or more always hits)'
      : 'hit';
  const critical = a.critical ? ', critical hit' : '';
  return `d100 ${a.natural}${atTable(a.roll)} + Accuracy ${a.accuracy}${penalties} = ${a.total} against Evade ${a.evade}: ${verdict}${critical}`;
}

const ENDED: Readonly<Record<string, string>> = {
  expired: 'wears off',
  cured: 'is cured',
  dispelled: 'is dispelled',
  damage: 'ends with the damage',
  'knocked-out': 'ends (unconscious)',
  'battle-over': 'vanishes (the battle is over)',
  replaced: 'is undone',
  used: 'is used up',
};

/**
 * ZODIAC events as lines a table reads: "Keef attacks Ogre with Poison Dagger: d100 57 + Accuracy
 * 40 = 97 against Evade 30: hit". `state` is the state after the events, for names.
 */
export function describeEvents(events: readonly ZodiacEvent[], state: ZodiacState): string[] {
  const name = (id: string | null): string =>
    id === null ? 'nobody' : (state.combatants[id]?.sheet.name ?? id);
  const tech = (id: string): string => state.setup.techs[id]?.name ?? id;
  const lines: string[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'round-began':
        lines.push(
          `Round ${event.round}. Speed Points: ${event.gains.map((g) => `${name(g.id)} ${g.spAfter}`).join(', ')}`,
        );
        for (const g of event.gains)
          if (g.roll !== null)
            lines.push(`  ${name(g.id)}: Speed ${g.speed} + ${rolled(g.roll)} = ${g.spAfter} SP`);
        break;
      case 'tick-began':
        lines.push(
          event.queue.length === 0
            ? `Tick ${event.tick}: nobody can act`
            : `Tick ${event.tick}: ${event.queue.map((e) => `${name(e.id)} ${e.sp} SP`).join(', ')}`,
        );
        break;
      case 'group-began':
        if (event.committed.length > 1)
          lines.push(`${event.committed.map(name).join(' and ')} act simultaneously`);
        break;
      case 'turn-lost':
        lines.push(`${name(event.actor)} loses a turn (${event.reason}): ${event.spAfter} SP left`);
        break;
      case 'turn-skipped':
        lines.push(`${name(event.actor)} has no turn (${event.reason})`);
        break;
      case 'free-action':
        lines.push(`${name(event.actor)} (Free Action): ${event.action}`);
        break;
      case 'attacked':
        lines.push(
          `${name(event.actor)} attacks ${name(event.target)} with ${event.with}: ${attackLine(event.attack)}`,
        );
        break;
      case 'tech-used':
        lines.push(
          `${name(event.actor)} uses ${tech(event.tech)}${event.targets.length > 0 ? ` on ${event.targets.map(name).join(', ')}` : ''} (MP left ${event.mpAfter})`,
        );
        break;
      case 'reflected':
        lines.push(
          `  ${name(event.from)}'s Wall turns ${tech(event.tech)} ${event.to === null ? 'away: nobody to bounce to' : `at ${name(event.to)}`}`,
        );
        break;
      case 'item-used':
        lines.push(
          `${name(event.actor)} uses ${state.setup.items[event.item]?.name ?? event.item} on ${name(event.target)} (${event.left} left)`,
        );
        break;
      case 'defended':
        lines.push(`${name(event.actor)} defends: damage taken is halved`);
        break;
      case 'damage-dealt': {
        const how = event.breakdown === '' ? '' : ` (${event.breakdown}${atTable(event.roll)})`;
        lines.push(
          event.absorbed
            ? `  ${name(event.target)} absorbs ${event.cause}: heals ${event.amount}${how}, HP ${event.hpAfter}`
            : `  ${name(event.target)} takes ${event.amount} from ${event.cause}${how}, HP ${event.hpAfter}`,
        );
        break;
      }
      case 'healed':
        lines.push(
          `  ${name(event.target)} regains ${event.amount} HP from ${event.cause}${event.roll === null ? '' : ` (${rolled(event.roll)})`}, HP ${event.hpAfter}`,
        );
        break;
      case 'mp-changed':
        lines.push(
          `  ${name(event.target)} ${event.amount < 0 ? `loses ${-event.amount}` : `regains ${event.amount}`} MP from ${event.cause}, MP ${event.mpAfter}`,
        );
        break;
      case 'no-effect':
        lines.push(`  No effect on ${name(event.target)}: ${event.reason}`);
        break;
      case 'status-rolled':
        lines.push(
          `  ${STATUSES[event.status].name} on ${name(event.target)}: ${rolled(event.roll)} + Magic Accuracy = ${event.total} against Resist ${event.resist}: ${event.success ? 'it lands' : 'resisted'}`,
        );
        break;
      case 'status-inflicted':
        lines.push(
          `  ${name(event.target)} gets ${STATUSES[event.status].name}${event.ticks === null ? '' : ` for ${count(event.ticks, 'tick')}`}${event.untilRound === null ? '' : ` until the end of round ${event.untilRound}`}`,
        );
        break;
      case 'status-resisted':
        lines.push(
          `  ${name(event.target)} resists ${STATUSES[event.status].name} (${event.reason})`,
        );
        break;
      case 'status-ended':
        lines.push(
          `  ${name(event.target)}'s ${STATUSES[event.status].name} ${ENDED[event.reason]}`,
        );
        break;
      case 'knocked-out':
        lines.push(`  ${name(event.target)} is knocked unconscious`);
        break;
      case 'revived':
        lines.push(`  ${name(event.target)} is revived by ${event.cause} with ${event.hp} HP`);
        break;
      case 'round-ended':
        lines.push(`Round ${event.round} ends`);
        break;
      case 'battle-ended':
        lines.push(
          `The battle is over: ${event.winner === null ? 'a draw' : winnerLine(state, event.winner)}: ${event.reason}`,
        );
        break;
      case 'resource-set': {
        const what =
          event.resource === 'item'
            ? (state.setup.items[event.key ?? '']?.name ?? event.key ?? 'item')
            : event.resource.toUpperCase();
        const held = event.clamped ? ' (held to its range)' : '';
        lines.push(`GM: ${name(event.target)}'s ${what} ${event.before} -> ${event.after}${held}`);
        break;
      }
      case 'combatant-joined':
        lines.push(
          `GM: ${event.sheet.name} joins ${state.setup.sides.find((s) => s.id === event.side)?.name ?? event.side}${
            event.roll === null
              ? event.sp > 0
                ? ` with ${event.sp} SP`
                : ''
              : ` with Speed + ${rolled(event.roll)} = ${event.sp} SP`
          }`,
        );
        break;
      case 'combatant-removed':
        lines.push(
          `GM: ${name(event.target)} ${event.reason === 'fled' ? 'flees' : 'is dismissed'}`,
        );
        break;
      case 'skip-ordered':
        lines.push(`GM: ${name(event.target)}'s next turn passes`);
        break;
      case 'note-added':
        lines.push(`GM note on ${name(event.target)}: ${event.text}`);
        break;
      case 'notes-cleared':
        lines.push(`GM: ${name(event.target)}'s notes cleared`);
        break;
      case 'died':
        lines.push(`GM: ${name(event.target)} dies`);
        break;
      case 'turn-began':
      case 'turn-ended':
      case 'tick-ended':
      case 'defend-ended':
        break;
    }
  }
  return lines;
}

/** "Keef wins", "The party win": the verb agrees with how many the side fought with. */
function winnerLine(state: ZodiacState, winner: string): string {
  const side = state.setup.sides.find((s) => s.id === winner);
  const members = Object.values(state.combatants).filter((c) => c.side === winner).length;
  return `${side?.name ?? winner} ${sideVerb(members, 'wins', 'win')}`;
}
