import { describe, expect, it } from 'vitest';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { loadSystem, SYSTEM_LOADERS } from '../../src/sim/system-loaders.js';

describe("a simulation worker's system", () => {
  it('is the registry’s own system for every ruleset id, and only those', async () => {
    expect(Object.keys(SYSTEM_LOADERS).sort()).toEqual(SYSTEMS.map((s) => s.ruleset.id).sort());
    for (const system of SYSTEMS) expect(await loadSystem(system.ruleset.id)).toBe(system);
  });

  it('is undefined for an id no system has, even one Object.prototype has', async () => {
    expect(await loadSystem('chess')).toBeUndefined();
    expect(await loadSystem('constructor')).toBeUndefined();
  });
});
