import type { ContentKind } from '../content/index.js';
import type { AnyRuleset } from '../engine/index.js';
import { ffrpgSystem } from './ffrpg/system.js';
import { ffviiiSystem } from './ffviii/system.js';
import { shiningForceSystem } from './shining-force/system.js';
import type { AnySystem } from './system.js';
import { zodiacSystem } from './zodiac/system.js';

/** Every system Moogle plays, with what its tools need (encounter files, views, statistics). */
export const SYSTEMS: readonly AnySystem[] = [
  ffrpgSystem as unknown as AnySystem,
  ffviiiSystem as unknown as AnySystem,
  zodiacSystem as unknown as AnySystem,
  shiningForceSystem as unknown as AnySystem,
];

/** Every system's rules; save files find theirs here by id. */
export const RULESETS: readonly AnyRuleset[] = SYSTEMS.map((s) => s.ruleset);

/** Every kind of content file, across the systems: what the loader and the JSON Schemas cover. */
export const CONTENT_KINDS: readonly ContentKind<unknown>[] = SYSTEMS.flatMap((s) => s.kinds);

export function rulesetById(id: string): AnyRuleset | undefined {
  return RULESETS.find((r) => r.id === id);
}

export function systemById(id: string): AnySystem | undefined {
  return SYSTEMS.find((s) => s.ruleset.id === id);
}
