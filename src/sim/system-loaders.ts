import type { AnySystem } from '../rulesets/system.js';

/**
 * Each system's module on its own, by ruleset id: a simulation worker loads only the system it
 * plays. The registry (rulesets/index) loads all four, which made up about a quarter of a
 * worker's start-up, time the worker does not play while the main thread does.
 */
export const SYSTEM_LOADERS: Readonly<Record<string, () => Promise<AnySystem>>> = {
  ffrpg: async () => (await import('../rulesets/ffrpg/system.js')).ffrpgSystem,
  ffviii: async () => (await import('../rulesets/ffviii/system.js')).ffviiiSystem,
  zodiac: async () => (await import('../rulesets/zodiac/system.js')).zodiacSystem,
  'shining-force': async () =>
    (await import('../rulesets/shining-force/system.js')).shiningForceSystem,
};

/** The system with this ruleset id, loading its module alone; undefined for an unknown id. */
export async function loadSystem(id: string): Promise<AnySystem | undefined> {
  return Object.hasOwn(SYSTEM_LOADERS, id) ? SYSTEM_LOADERS[id]!() : undefined;
}
