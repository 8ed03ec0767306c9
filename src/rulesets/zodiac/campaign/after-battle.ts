import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, CampaignStep } from '../../campaign.js';
import { levelFactor } from '../evolve.js';
import type { ZodiacSetup } from '../model.js';
import { zodiac } from '../ruleset.js';
import type { CombatantState, ZodiacState } from '../state.js';
import { STATUSES } from '../statuses.js';
import {
  LASTING_STATUSES,
  parseZodiacRoster,
  toCampaignRoster,
  type ZodiacCharacterState,
} from './roster.js';

/**
 * What a character carries out of the fight: HP and MP as they are (the chapter restores
 * neither), the Potions left, the Permanent effects, Unconscious or dead. HP goes back to the
 * sheet's count, rounded up so a character standing on 1 HP of a Damage Levels fight stands.
 */
function carried(setup: ZodiacSetup, c: CombatantState): ZodiacCharacterState {
  const items: Record<string, number> = {};
  for (const [item, count] of Object.entries(c.items)) if (count > 0) items[item] = count;
  return {
    hp: c.unconscious || c.dead ? 0 : Math.ceil(c.hp / levelFactor(setup)),
    mp: c.mp,
    items,
    statuses: c.statuses.map((s) => s.status).filter((s) => LASTING_STATUSES.includes(s)),
    unconscious: c.unconscious || c.dead,
    dead: c.dead,
  };
}

function itemsUsed(
  setup: ZodiacSetup,
  before: ZodiacCharacterState,
  after: ZodiacCharacterState,
): string[] {
  const used: string[] = [];
  for (const [item, count] of Object.entries(before.items)) {
    const spent = count - (after.items[item] ?? 0);
    if (spent > 0) used.push(`${spent} ${setup.items[item]?.name ?? item}`);
  }
  return used;
}

function line(
  setup: ZodiacSetup,
  c: CombatantState,
  before: ZodiacCharacterState,
  after: ZodiacCharacterState,
): string {
  const name = c.sheet.name;
  if (after.dead) return `${name} is dead`;
  const parts = [
    after.unconscious
      ? `${name} is Unconscious: a Phoenix Down, Phoenix Pinion or Life will revive them`
      : `${name} leaves the fight with ${after.hp}/${c.sheet.stats.hp} HP and ${after.mp}/${c.sheet.stats.mp} MP`,
  ];
  const used = itemsUsed(setup, before, after);
  if (used.length > 0) parts.push(`used ${used.join(', ')}`);
  if (after.statuses.length > 0)
    parts.push(`still ${after.statuses.map((s) => STATUSES[s].name).join(', ')}`);
  return parts.join('; ');
}

/**
 * A finished fight applied to the roster. The chapter gives no experience and no money for a
 * fight (rulings), so what changes is what the fight did to each roster character who fought.
 */
export function zodiacAfterBattle(
  setup: ZodiacSetup,
  final: ZodiacState,
  rosterInput: CampaignRoster,
): Result<CampaignStep> {
  if (!zodiac.outcome(final).over)
    return err('campaign/not-over', 'the fight is not over: finish it before applying it');
  const roster = parseZodiacRoster(rosterInput);
  if (!roster.ok) return roster;
  const characters = { ...roster.value.characters };
  const report: string[] = [];
  for (const id of final.order) {
    const c = final.combatants[id]!;
    const before = characters[id];
    if (c.sheet.kind !== 'character' || before === undefined) continue;
    const after = carried(setup, c);
    characters[id] = after;
    report.push(line(setup, c, before, after));
  }
  return ok({ roster: toCampaignRoster({ characters, party: null }), report });
}
