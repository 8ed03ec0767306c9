import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, CampaignStep } from '../../campaign.js';
import type { FfviiiSetup } from '../model.js';
import { ffviii } from '../ruleset.js';
import type { FfviiiState } from '../state.js';
import { type CharacterState, readRoster, toCampaignRoster } from './roster.js';

/**
 * A finished fight applied to the roster. The text gives no experience, no money and no spoils,
 * so nothing is won; what the fight used up or added stays as it left it: HP (or restored for
 * those standing, by the party's `hpAfterBattle`), spells cast and drawn, items used, rounds
 * fired. Statuses with a timer in rounds end with the fight; those held until ended stay. Draw
 * and Sense bars, power uses and shot debt belong to the fight (docs/rulings.md).
 */
export function afterBattle(
  setup: FfviiiSetup,
  final: FfviiiState,
  rosterInput: CampaignRoster,
): Result<CampaignStep> {
  const outcome = ffviii.outcome(final);
  if (!outcome.over)
    return err(
      'campaign/battle-not-over',
      'the fight is not over: one side must be defeated or run away first',
    );
  const read = readRoster(rosterInput);
  if (!read.ok) return read;
  const roster = read.value;
  const report: string[] = [`The fight is over: ${outcome.reason}.`];
  const characters: Record<string, CharacterState> = { ...roster.characters };
  for (const [id, before] of Object.entries(roster.characters)) {
    const c = final.combatants[id];
    if (c === undefined || c.sheet.kind !== 'character') continue;
    const name = c.sheet.name;
    const restore = roster.party.hpAfterBattle === 'restored' && !c.down && c.hp > 0;
    const hp = restore ? c.sheet.hp : Math.max(0, c.hp);
    report.push(
      hp === 0
        ? `${name} has fallen (0 of ${c.sheet.hp} HP) and fights no more until healed or rested.`
        : `${name} ${restore ? 'recovers to' : 'ends with'} ${hp}/${c.sheet.hp} HP.`,
    );
    report.push(
      ...changes(name, 'spell', before.spellMatrix, c.matrix, (s) => setup.spells[s]?.name),
      ...changes(name, 'item', before.items, c.items, (i) => setup.items[i]?.name),
    );
    for (const w of c.sheet.weapons) {
      if (w.gun === undefined) continue;
      const left = c.ammo[w.id] ?? w.gun.capacity;
      if (left !== (before.ammo[w.id] ?? w.gun.capacity))
        report.push(`${name}'s ${w.name} has ${left} of ${w.gun.capacity} rounds left.`);
    }
    const held = Object.entries(c.statuses).filter(([, rounds]) => rounds === null);
    for (const [status, rounds] of Object.entries(c.statuses))
      if (rounds !== null) report.push(`${name}'s ${status} ends with the fight.`);
    characters[id] = {
      hp,
      spellMatrix: { ...c.matrix },
      items: { ...c.items },
      ammo: { ...c.ammo },
      statuses: held.map(([status]) => status),
    };
  }
  return ok({ roster: toCampaignRoster({ characters, party: roster.party }), report });
}

/** `Ehlric Lineas drew 1 x Thunder (4 in stock)`, `... used 1 x Potion (1 left)`. */
function changes(
  name: string,
  what: 'spell' | 'item',
  before: Readonly<Record<string, number>>,
  after: Readonly<Record<string, number>>,
  nameOf: (id: string) => string | undefined,
): string[] {
  const lines: string[] = [];
  for (const id of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[id] ?? 0;
    const now = after[id] ?? 0;
    const label = nameOf(id) ?? id;
    if (now > was)
      lines.push(
        `${name} ${what === 'spell' ? 'drew' : 'gained'} ${now - was} x ${label} (${now} ${what === 'spell' ? 'in stock' : 'left'}).`,
      );
    else if (now < was)
      lines.push(
        `${name} ${what === 'spell' ? 'cast' : 'used'} ${was - now} x ${label} (${now} ${what === 'spell' ? 'in stock' : 'left'}).`,
      );
  }
  return lines;
}
