import { atTable } from '../at-table.js';
import { count, statusClause } from '../grammar.js';
import type { FfviiiEvent } from './events.js';
import type { FfviiiState } from './state.js';

const SKILL_NAMES: Readonly<Record<string, string>> = {
  'martial-arts': 'Martial Arts',
  'weapon-focus': 'Weapon Focus',
  guns: 'Guns',
  sorcery: 'Sorcery',
  awareness: 'Awareness',
  taming: 'Taming',
};

export function skillName(skill: string): string {
  return SKILL_NAMES[skill] ?? skill;
}

/** The log's lines for a command's events, in the vocabulary of the text. */
export function describeEvents(events: readonly FfviiiEvent[], after: FfviiiState): string[] {
  const name = (id: string | null): string =>
    id === null ? '' : (after.combatants[id]?.sheet.name ?? (id === 'gm' ? 'the GM' : id));
  const lines: string[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'round-began': {
        lines.push(
          `Round ${e.round}: initiative (d10 + Speed${e.initiative.some((r) => r.debt > 0) ? ' - shot debt' : ''})`,
        );
        for (const r of e.initiative) {
          const bonus = r.bonus === 0 ? '' : ` ${r.bonus > 0 ? '+' : '-'} ${Math.abs(r.bonus)}`;
          const debt = r.debt === 0 ? '' : ` - debt ${r.debt}`;
          const left = r.debtLeft > 0 ? ` (still ${r.debtLeft} shots in debt)` : '';
          lines.push(
            `  ${name(r.id)}: d10 ${r.roll.total}${atTable(r.roll)} + Speed ${r.speed}${bonus}${debt} = ${r.initiative}${left}`,
          );
        }
        lines.push(`  ${e.shots} shots this round`);
        break;
      }
      case 'power-used': {
        const power = after.setup.powers[e.power];
        lines.push(
          `${name(e.actor)} uses ${power?.name ?? e.power} before initiative (${(power?.initiative ?? 0) >= 0 ? '+' : ''}${power?.initiative ?? 0} initiative this round)`,
        );
        break;
      }
      case 'shot-called':
        lines.push(`Shot ${e.shot}`);
        break;
      case 'round-ended':
        lines.push(`End of round ${e.round}`);
        break;
      case 'attack-declared':
        lines.push(`  ${name(e.pending.target)} may dodge`);
        break;
      case 'dodge-chosen':
        lines.push(
          e.dodge
            ? `  ${name(e.actor)} dodges (+3, 1 shot): ${e.shot === 0 ? 'no shots left this round' : `acts next on shot ${e.shot}`}`
            : `  ${name(e.actor)} does not dodge`,
        );
        break;
      case 'action-taken': {
        const target = e.target === null ? '' : ` (${name(e.target)})`;
        const next = e.shot === 0 ? 'no shots left this round' : `next on shot ${e.shot}`;
        const debt = e.debt > 0 ? `; ${e.debt} shots carry over as debt` : '';
        lines.push(`${name(e.actor)}: ${e.action}${target}, ${e.cost} shots, ${next}${debt}`);
        break;
      }
      case 'check-rolled': {
        const c = e.check;
        const faces =
          c.dice.text === ''
            ? ''
            : ` ${c.dice.text.replace(/^fs = /, '').replace(/ = -?\d+$/, '')}`;
        const outcome = c.success ? `success by ${c.margin}` : `failure by ${-c.margin}`;
        const total = c.against.includes(' + ') ? ` = ${c.difficulty}` : '';
        lines.push(
          `  ${skillName(c.skill)} AV ${c.actionValue} + action dice ${c.roll >= 0 ? '+' : '-'}${Math.abs(c.roll)}${faces}${atTable(c.dice)} = ${c.result} against ${c.against}${total}: ${outcome}${c.boxcars ? ' (boxcars)' : ''}`,
        );
        break;
      }
      case 'critical-failure':
        lines.push(`  Critical failure: ${e.consequence}`);
        break;
      case 'damage-dealt':
        lines.push(
          `  ${name(e.target)} takes ${e.amount} damage (${e.breakdown}), ${e.hpAfter} HP left`,
        );
        break;
      case 'healed':
        lines.push(`  ${name(e.target)} recovers ${e.amount} HP, ${e.hpAfter} HP`);
        break;
      case 'spell-spent':
        lines.push(
          `  ${after.setup.spells[e.spell]?.name ?? e.spell}: ${e.left} left in the Spell Matrix`,
        );
        break;
      case 'item-spent':
        lines.push(`  ${after.setup.items[e.item]?.name ?? e.item}: ${e.left} left`);
        break;
      case 'round-fired':
        lines.push(`  ${e.left} rounds left`);
        break;
      case 'reloaded':
        lines.push(`  ${name(e.actor)} reloads: ${e.ammo} rounds`);
        break;
      case 'shard-drawn':
        lines.push(
          `  ${name(e.actor)} draws ${after.setup.spells[e.spell]?.name ?? e.spell} from ${name(e.target)}: ${e.stock} in stock`,
        );
        break;
      case 'draw-barred':
        lines.push(
          `  Critical failure: ${name(e.actor)} can never draw from ${name(e.target)} again`,
        );
        break;
      case 'shards-sensed': {
        const spells = e.spells.map((s) => after.setup.spells[s]?.name ?? s);
        lines.push(
          `  ${name(e.actor)} senses ${name(e.target)}'s Spellshards: ${spells.join(', ') || 'none'}`,
        );
        break;
      }
      case 'sense-barred':
        lines.push(
          `  Critical failure: ${name(e.actor)} cannot sense anything about ${name(e.target)} for a full moon cycle`,
        );
        break;
      case 'action-completed':
        lines.push(`${name(e.actor)} completes ${e.action}, carried over from last round`);
        break;
      case 'fell':
        lines.push(`${name(e.target)} falls`);
        break;
      case 'fled':
        lines.push(`${name(e.actor)} runs away`);
        break;
      case 'gm-amount-rolled':
        lines.push(
          `GM rolls ${e.roll.text === '' ? `${e.roll.notation} = ${e.roll.total}` : e.roll.text}${atTable(e.roll)}`,
        );
        break;
      case 'gm-set': {
        const what = {
          hp: 'HP',
          shots: 'next shot',
          debt: 'shot debt',
          ammo: `${e.key} rounds`,
          shards: `${after.setup.spells[e.key ?? '']?.name ?? e.key} in stock`,
          item: `${after.setup.items[e.key ?? '']?.name ?? e.key} carried`,
        }[e.resource];
        const value =
          e.resource === 'shots' && e.value === 0 ? '0 (no shots left this round)' : e.value;
        const clamp = e.requested === undefined ? '' : ` (not ${e.requested}: ${e.clamp})`;
        lines.push(`GM: ${name(e.target)} ${what} ${value}${clamp}`);
        break;
      }
      case 'stood-up':
        lines.push(`  ${name(e.target)} is back in the fight (acts from the next round)`);
        break;
      case 'status-set':
        lines.push(
          `GM: ${statusClause(name(e.target), e.status)}${e.rounds === null ? '' : ` for ${count(e.rounds, 'round')}`}`,
        );
        break;
      case 'status-ended':
        lines.push(
          e.reason === 'gm'
            ? `GM: ${name(e.target)} is no longer ${e.status}`
            : `  ${name(e.target)} is no longer ${e.status} (its time ran out)`,
        );
        break;
      case 'combatant-joined': {
        const r = e.initiative;
        const when =
          r === null
            ? 'rolls initiative with everyone at the next round'
            : `initiative d10 ${r.roll.total}${atTable(r.roll)} + Speed ${r.speed} = ${r.initiative}: ${e.shot === 0 ? 'no shots left this round' : e.shot < r.initiative ? `acts on shot ${e.shot}, the shot now being played` : `acts on shot ${e.shot}`}`;
        lines.push(
          `GM: ${e.sheet.name} joins ${after.setup.sides.find((s) => s.id === e.side)?.name ?? e.side}; ${when}`,
        );
        break;
      }
      case 'combatant-left':
        lines.push(
          `GM: ${name(e.target)} ${e.reason === 'fled' ? 'flees' : 'is sent off'}: out of the fight`,
        );
        break;
      case 'attack-cancelled':
        lines.push(`  The attack is called off: ${e.reason}`);
        break;
      case 'turn-skipped':
        lines.push(
          `GM: ${name(e.target)} loses this shot's action: ${e.shot === 0 ? 'no shots left this round' : `next on shot ${e.shot}`}`,
        );
        break;
      case 'note-added':
        lines.push(`GM note on ${name(e.target)}: ${e.text}`);
        break;
      case 'notes-cleared':
        lines.push(`GM: notes on ${name(e.target)} cleared`);
        break;
      case 'battle-ended':
        lines.push(`The battle is over: ${e.reason}`);
        break;
    }
  }
  return lines;
}
