import type { AnyRuleset } from '../engine/index.js';
import { ffrpg } from './ffrpg/index.js';

/** Every system Moogle plays; save files and tools find a ruleset here by its id. */
export const RULESETS: readonly AnyRuleset[] = [ffrpg];

export function rulesetById(id: string): AnyRuleset | undefined {
  return RULESETS.find((r) => r.id === id);
}
