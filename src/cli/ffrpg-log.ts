import type { FfrpgEvent, FfrpgState } from '../rulesets/ffrpg/index.js';

/**
 * FFRPG events as lines a table reads: "Hiro attacks Heket: CoS 70 (ACC 42 + Guns 50 - EVA 22),
 * rolled 28: hit". Quiet bookkeeping events (turn boundaries, timer counts) print nothing.
 */
export function describeEvents(events: readonly FfrpgEvent[], state: FfrpgState): string[] {
  const name = (id: string): string => state.combatants[id]?.sheet.name ?? id;
  const lines: string[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'round-began':
        lines.push(
          `Round ${event.round}: Initiative ${event.timeline.map((e) => `${e.kind === 'combatant' ? name(e.id) : e.id} ${e.count}`).join(', ')}`,
        );
        break;
      case 'turn-began':
        break;
      case 'attack-made': {
        const c = event.check;
        const rolled = c.roll === null ? 'no roll' : `rolled ${c.roll.total}`;
        const verdict = c.success
          ? c.critical
            ? 'Critical Hit'
            : c.ruleOf10
              ? 'hit (Rule of 10)'
              : 'hit'
          : c.botch
            ? 'Botch'
            : 'miss';
        lines.push(
          `${name(event.actor)} attacks ${name(event.target)}: CoS ${c.cos} (${c.formula}), ${rolled}: ${verdict}`,
        );
        break;
      }
      case 'damage-dealt':
        lines.push(
          `${name(event.target)} ${event.absorbed ? 'absorbs' : 'takes'} ${event.amount}${event.roll === null ? '' : `: ${event.roll.text}`}; ${event.breakdown}; ${event.hpAfter} HP left`,
        );
        break;
      case 'knocked-out':
        lines.push(`${name(event.target)} is knocked out`);
        break;
      case 'battle-ended':
        lines.push(`The battle is over: ${event.reason}`);
        break;
      default:
        break;
    }
  }
  return lines;
}
