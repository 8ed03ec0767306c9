import type { CampaignRules } from '../../campaign.js';
import type { EncounterSpec } from '../content.js';
import type { FfviiiSetup } from '../model.js';
import type { FfviiiState } from '../state.js';
import { afterBattle } from './after-battle.js';
import { recruit } from './recruit.js';
import { EMPTY_PARTY, ffviiiRosterReferences, readRoster, toCampaignRoster } from './roster.js';
import { applyService, serviceSchema } from './services.js';
import { setupFromRoster } from './setup.js';

/** The FFVIII RPG between fights: HP, spells, items and rounds carried; healing and rest (docs/campaign.md). */
export const ffviiiCampaign: CampaignRules<FfviiiSetup, FfviiiState, EncounterSpec> = {
  recruit,
  emptyParty: EMPTY_PARTY,
  parseRoster(value) {
    const read = readRoster(value);
    return read.ok ? { ok: true, value: toCampaignRoster(read.value) } : read;
  },
  references(value) {
    const read = readRoster(value);
    return read.ok ? { ok: true, value: ffviiiRosterReferences(read.value) } : read;
  },
  setupFrom: setupFromRoster,
  afterBattle: (_library, setup, final, roster) => afterBattle(setup, final, roster),
  services: serviceSchema,
  applyService,
};

export {
  type CharacterState as FfviiiCharacterState,
  type PartyState as FfviiiPartyState,
  readRoster as readFfviiiRoster,
} from './roster.js';
export type { FfviiiService, FfviiiServiceInput } from './services.js';
