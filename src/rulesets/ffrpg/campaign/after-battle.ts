import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, CampaignStep } from '../../campaign.js';
import type { FfrpgSetup } from '../model.js';
import { ffrpg } from '../ruleset.js';
import type { FfrpgState } from '../state.js';
import { levelFor } from './levels.js';
import { type CharacterState, type PartyState, readRoster, toCampaignRoster } from './roster.js';

/**
 * A finished fight applied to the roster. "Whichever side is still standing at the end of
 * hostilities wins, and can reap the rewards of the encounter. These will typically include
 * items, money and Experience Points (XP)": the battle itself split the XP and Gil (timeline.ts,
 * awardRewards); the roster adds each character's shares to what it had, reads its Level off the
 * encounter's level table, keeps the Gil that did not divide in the party's
 * purse and the beaten monsters' items in the party's bag. HP and MP are carried as the fight
 * left them (or restored, by the party's `hpAfterBattle`); a knocked-out character stays at 0
 * HP until rested or healed. Only (∞) Status Conditions outlast the fight (docs/rulings.md).
 */
export function afterBattle(
  setup: FfrpgSetup,
  final: FfrpgState,
  rosterInput: CampaignRoster,
): Result<CampaignStep> {
  const outcome = ffrpg.outcome(final);
  if (!outcome.over)
    return err(
      'campaign/battle-not-over',
      setup.mode === 'scene'
        ? 'the Scene has not ended: end it first'
        : 'the battle is not over: a side must be beaten, or flee, first',
    );
  const read = readRoster(rosterInput);
  if (!read.ok) return read;
  const roster = read.value;
  const report: string[] = [];
  const rewards = final.rewards;
  let party: PartyState = roster.party;
  if (rewards !== null) {
    report.push(`The party wins ${rewards.xp} XP and ${rewards.gil} Gil.`);
    if (rewards.unsplitGil > 0) {
      party = { ...party, gil: party.gil + rewards.unsplitGil };
      report.push(`${rewards.unsplitGil} Gil did not divide evenly: the party keeps it.`);
    }
    if (rewards.unsplitXp > 0)
      report.push(`${rewards.unsplitXp} XP did not divide evenly and is not shared out.`);
    const items = { ...party.items };
    for (const id of final.order) {
      const c = final.combatants[id]!;
      // One that fled took its items with it (docs/rulings.md).
      if (c.side === outcome.winner || c.fled) continue;
      for (const item of c.sheet.rewards.items) {
        items[item.name] = Math.min(9999, (items[item.name] ?? 0) + item.count);
        report.push(`The party finds ${item.count} x ${item.name} (${c.sheet.name}).`);
      }
    }
    party = { ...party, items };
  } else if (setup.mode === 'battle') {
    report.push('The party does not win: no XP, Gil or items.');
  }
  const characters: Record<string, CharacterState> = { ...roster.characters };
  for (const [id, before] of Object.entries(roster.characters)) {
    const c = final.combatants[id];
    if (c === undefined || c.sheet.kind !== 'character') continue;
    const share = rewards?.shares.find((s) => s.id === id);
    const gil = before.gil + (share?.gil ?? 0);
    const xp = before.xp + (share?.xp ?? 0);
    const level = levelFor(setup.levelTable, xp, before.level);
    if (share !== undefined) {
      const levels = level > before.level ? ` and reaches Level ${level}` : ` (Level ${level})`;
      report.push(`${c.sheet.name} gains ${share.xp} XP (${xp} in all)${levels}.`);
      report.push(`${c.sheet.name} receives ${share.gil} Gil (${gil} in all).`);
    }
    const restore = party.hpAfterBattle === 'restored' && !c.down;
    const hp = restore ? c.sheet.stats.hp : c.hp;
    const mp = restore ? c.sheet.stats.mp : c.mp;
    const lasting = c.statuses.filter((s) => s.timer === 'infinite').map((s) => s.status);
    const ended = c.statuses.filter((s) => s.timer !== 'infinite').map((s) => s.status);
    report.push(
      c.down
        ? `${c.sheet.name} is knocked out (0 of ${c.sheet.stats.hp} HP) until healed or rested.`
        : `${c.sheet.name} ${restore ? 'recovers to' : 'ends with'} ${hp}/${c.sheet.stats.hp} HP and ${mp}/${c.sheet.stats.mp} MP.`,
    );
    for (const status of ended) {
      const name = setup.statuses[status]?.name ?? status;
      report.push(`${c.sheet.name}'s ${name} runs out with the fight.`);
    }
    characters[id] = {
      level,
      xp,
      gil,
      hp,
      mp,
      statuses: lasting,
    };
  }
  return ok({ roster: toCampaignRoster({ characters, party }), report });
}
