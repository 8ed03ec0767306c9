import { type CampaignRules, moneyField } from '../../campaign.js';
import type { EncounterSpec } from '../content.js';
import type { FfrpgSetup } from '../model.js';
import type { FfrpgState } from '../state.js';
import { afterBattle } from './after-battle.js';
import { recruit } from './recruit.js';
import { EMPTY_PARTY, ffrpgRosterReferences, readRoster, toCampaignRoster } from './roster.js';
import { applyService, serviceSchema } from './services.js';
import { setupFromRoster } from './setup.js';

/** FFRPG 3e between fights: XP, Gil, Levels, items won, HP and MP carried, rest (docs/campaign.md). */
export const ffrpgCampaign: CampaignRules<FfrpgSetup, FfrpgState, EncounterSpec> = {
  recruit,
  emptyParty: EMPTY_PARTY,
  parseRoster(value) {
    const read = readRoster(value);
    return read.ok ? { ok: true, value: toCampaignRoster(read.value) } : read;
  },
  references(value) {
    const read = readRoster(value);
    return read.ok ? { ok: true, value: ffrpgRosterReferences(read.value) } : read;
  },
  setupFrom: setupFromRoster,
  afterBattle: (_library, setup, final, roster) => afterBattle(setup, final, roster),
  services: serviceSchema,
  // Each character's share and what did not divide, in the party's purse.
  money: {
    unit: 'Gil',
    purse: (roster) =>
      Object.values(roster.characters).reduce<number>(
        (sum, c) => sum + moneyField(c, 'gil'),
        moneyField(roster.party, 'gil'),
      ),
  },
  applyService: (library, roster, service) => applyService(library, roster, service),
};

export {
  type CharacterState as FfrpgCharacterState,
  type PartyState as FfrpgPartyState,
  readRoster as readFfrpgRoster,
} from './roster.js';
export type { FfrpgService, FfrpgServiceInput } from './services.js';
