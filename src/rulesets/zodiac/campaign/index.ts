import { err, ok } from '../../../engine/index.js';
import type { CampaignRules } from '../../campaign.js';
import type { EncounterSpec } from '../content.js';
import type { ZodiacSetup } from '../model.js';
import type { ZodiacState } from '../state.js';
import { zodiacAfterBattle } from './after-battle.js';
import { recruitZodiac } from './recruit.js';
import {
  parseZodiacRoster,
  toCampaignRoster,
  ZODIAC_EMPTY_PARTY,
  zodiacRosterReferences,
} from './roster.js';
import { applyZodiacService, zodiacServiceSchema } from './services.js';
import { zodiacSetupFromRoster } from './setup.js';

export {
  LASTING_STATUSES,
  type ZodiacCharacterState,
  zodiacCharacterStateSchema,
} from './roster.js';
export type { ZodiacService } from './services.js';

/** ZODIAC between fights: HP, MP, Potions and Permanent effects carried; rest and Potions. */
export const zodiacCampaign: CampaignRules<ZodiacSetup, ZodiacState, EncounterSpec> = {
  recruit: recruitZodiac,
  emptyParty: ZODIAC_EMPTY_PARTY,
  parseRoster(value) {
    const roster = parseZodiacRoster(value);
    return roster.ok ? ok(toCampaignRoster(roster.value)) : roster;
  },
  references(value) {
    const roster = parseZodiacRoster(value);
    return roster.ok ? ok(zodiacRosterReferences(roster.value)) : roster;
  },
  setupFrom: zodiacSetupFromRoster,
  afterBattle: (_library, setup, final, roster) => zodiacAfterBattle(setup, final, roster),
  services: zodiacServiceSchema,
  applyService(library, roster, service) {
    const parsed = zodiacServiceSchema.safeParse(service);
    if (!parsed.success)
      return err(
        'campaign/invalid-service',
        `not a ZODIAC service: ${parsed.error.issues[0]!.message}`,
      );
    return applyZodiacService(library, roster, parsed.data);
  },
};
