import type { ContentKind } from '../content/index.js';
import type { AnyRuleset } from '../engine/index.js';
import { ffrpg, ffrpgKinds } from './ffrpg/index.js';

/** Every system Moogle plays; save files and tools find a ruleset here by its id. */
export const RULESETS: readonly AnyRuleset[] = [ffrpg];

/** Every kind of content file, across the rulesets: what the loader and the JSON Schemas cover. */
export const CONTENT_KINDS: readonly ContentKind<unknown>[] = [...ffrpgKinds];

export function rulesetById(id: string): AnyRuleset | undefined {
  return RULESETS.find((r) => r.id === id);
}
