import { err, ok } from '../../../engine/index.js';
import { type CampaignRules, moneyField } from '../../campaign.js';
import type { EncounterSpec } from '../content.js';
import type { ShiningForceSetup } from '../model.js';
import type { ShiningForceState } from '../state.js';
import { shiningForceAfterBattle } from './after-battle.js';
import { recruitShiningForce } from './recruit.js';
import {
  parseShiningForceRoster,
  SHINING_FORCE_EMPTY_PARTY,
  shiningForceRosterReferences,
  toCampaignRoster,
} from './roster.js';
import { applyShiningForceService, shiningForceServiceSchema } from './services.js';
import { shiningForceSetupFromRoster } from './setup.js';

export * from './force.js';
export * from './levels.js';
export * from './priest.js';
export {
  type ForceMemberState,
  type ForceParty,
  forceMemberStateSchema,
  forcePartySchema,
} from './roster.js';
export type { ShiningForceService } from './services.js';
export * from './store.js';

/** Shining Force between battles: EXP, levels, gold, Poison and the defeated; priest and store. */
export const shiningForceCampaign: CampaignRules<
  ShiningForceSetup,
  ShiningForceState,
  EncounterSpec
> = {
  recruit: recruitShiningForce,
  emptyParty: SHINING_FORCE_EMPTY_PARTY,
  parseRoster(value) {
    const roster = parseShiningForceRoster(value);
    return roster.ok ? ok(toCampaignRoster(roster.value)) : roster;
  },
  references(value) {
    const roster = parseShiningForceRoster(value);
    return roster.ok ? ok(shiningForceRosterReferences(roster.value)) : roster;
  },
  setupFrom: shiningForceSetupFromRoster,
  afterBattle: shiningForceAfterBattle,
  services: shiningForceServiceSchema,
  // The Force's gold is held together.
  money: { unit: 'gold', purse: (roster) => moneyField(roster.party, 'gold') },
  applyService(library, roster, service) {
    const parsed = shiningForceServiceSchema.safeParse(service);
    if (!parsed.success)
      return err(
        'campaign/invalid-service',
        `not a Shining Force service: ${parsed.error.issues[0]!.message}`,
      );
    return applyShiningForceService(library, roster, parsed.data);
  },
};
