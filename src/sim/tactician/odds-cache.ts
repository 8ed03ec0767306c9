import type { CommandBase } from '../../engine/index.js';
import type { ActionOdds, AnySystem } from '../../rulesets/system.js';

/**
 * Exact odds cost more than a simulated command (a damage roll's whole distribution), and a
 * battle asks about the same few actions over and over. A system's tactics give each question a
 * key naming everything its answer depends on but the target's HP (which the scoring applies
 * itself), and the answer is kept per encounter setup, which every battle of a run shares.
 */
const CACHES = new WeakMap<object, Map<string, ActionOdds | null>>();

/** Past this many answers a setup's cache starts over: memory stays bounded in long runs. */
const MAX_ENTRIES = 20_000;

export function cachedOdds(
  system: AnySystem,
  setup: object,
  state: unknown,
  command: CommandBase,
  key: string,
): ActionOdds | undefined {
  let cache = CACHES.get(setup);
  if (cache === undefined) {
    cache = new Map();
    CACHES.set(setup, cache);
  }
  const known = cache.get(key);
  if (known !== undefined) return known ?? undefined;
  const odds = system.odds(state, command);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, odds ?? null);
  return odds;
}
