import type { ContentLibrary } from '../../../content/index.js';
import { type DiceRoller, err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, CampaignStep } from '../../campaign.js';
import { DEFAULT_POISON } from '../combat.js';
import type { ShiningForceSetup } from '../model.js';
import { shiningForce } from '../ruleset.js';
import { hasStatus, type ShiningForceState } from '../state.js';
import { gainExp, type LevelUp } from './levels.js';
import { PRIEST_CURE_POISON, PRIEST_RAISE_PER_LEVEL } from './priest.js';
import {
  catalogueOf,
  type ForceMemberState,
  forceOf,
  parseShiningForceRoster,
  sheetStats,
  stateOf,
  toCampaignRoster,
} from './roster.js';

const GAIN_NAMES = { hp: 'HP', mp: 'MP', attack: 'Attack', defence: 'Defence', agility: 'Agility' };

function levelLine(name: string, up: LevelUp): string {
  const gains = Object.entries(up.gains)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${GAIN_NAMES[key as keyof typeof GAIN_NAMES]} +${n}`);
  return `${name} reaches level ${up.level}${gains.length > 0 ? `: ${gains.join(', ')}` : ''}`;
}

/**
 * A finished battle applied to the roster: each member's EXP and the levels it makes, with their
 * rolled gains; the items as the battle left them (used up, cracked, broken, given); Poison
 * carried; the defeated marked to be raised; the gold the Force won. HP and MP are not kept: a
 * survivor starts the next battle full. A member the GM sent away (fled) is not defeated.
 */
export function shiningForceAfterBattle(
  library: ContentLibrary,
  _setup: ShiningForceSetup,
  final: ShiningForceState,
  rosterInput: CampaignRoster,
  dice: DiceRoller,
): Result<CampaignStep> {
  if (!shiningForce.outcome(final).over)
    return err('campaign/not-over', 'the battle is not over: finish it before applying it');
  const roster = parseShiningForceRoster(rosterInput);
  if (!roster.ok) return roster;
  const force = forceOf(library, roster.value);
  if (!force.ok) return force;
  const catalogue = catalogueOf(library);
  const characters: Record<string, ForceMemberState> = { ...roster.value.characters };
  const report: string[] = [];
  for (const c of final.combatants) {
    const { id } = c;
    const member = force.value.members.find((m) => m.id === id);
    if (!c.force || member === undefined) continue;
    const gained = gainExp(member, c.exp, catalogue, dice);
    if (!gained.ok) return gained;
    const sheet = sheetStats(library, id);
    if (!sheet.ok) return sheet;
    const defeated = c.defeated && c.left === null;
    const poison = hasStatus(c, 'poison');
    const after: ForceMemberState = {
      ...stateOf(
        { ...gained.value.member, items: c.items, poisoned: false, defeated },
        sheet.value.stats,
        undefined,
      ),
      poison: poison === undefined || defeated ? null : (poison.amount ?? DEFAULT_POISON),
    };
    characters[id] = after;
    if (c.exp > 0) report.push(`${member.name} gains ${c.exp} EXP`);
    for (const up of gained.value.levels) report.push(levelLine(member.name, up));
    if (defeated)
      report.push(
        `${member.name} is defeated and must be raised (${PRIEST_RAISE_PER_LEVEL * after.level} gold at the priest)`,
      );
    else if (after.poison !== null)
      report.push(`${member.name} is still poisoned (${PRIEST_CURE_POISON} gold at the priest)`);
  }
  const gold = roster.value.party.gold + final.gold;
  if (final.gold > 0) report.push(`The Force receives ${final.gold} gold (${gold} in all)`);
  return ok({ roster: toCampaignRoster({ characters, party: { gold } }), report });
}
