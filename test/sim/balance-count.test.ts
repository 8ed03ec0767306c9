import { describe, expect, it } from 'vitest';
import { type EncounterFile, readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { balanceSearch } from '../../src/sim/balance/balance.js';
import { renderBalance } from '../../src/sim/balance/chart.js';
import { variationOf } from '../../src/sim/balance/variation.js';

function encounter(path: string): EncounterFile {
  const read = readEncounterFile(path, SYSTEMS);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.encounter;
}

function combatantIds(setup: unknown): string[] {
  const sides = (setup as { sides: { combatants: { id: string }[] }[] }).sides;
  return sides.flatMap((s) => s.combatants.map((c) => c.id));
}

describe('varying how many of a monster fight (ogre.count)', () => {
  it('puts N copies of the ogre in the fight, each with an id of its own', () => {
    const varied = variationOf(encounter('examples/zodiac-keef-and-the-ogre.yaml'), {
      combatant: 'ogre',
      field: 'count',
    });
    if (!varied.ok) throw new Error(varied.error.message);
    expect(varied.value.original).toBe(1);
    expect(varied.value.whole).toBe(true);
    const three = varied.value.setupAt(3);
    if (!three.ok) throw new Error(three.error.message);
    const ids = combatantIds(three.value);
    expect(ids.filter((id) => id.startsWith('ogre'))).toEqual(['ogre', 'ogre-2', 'ogre-3']);
    expect(new Set(ids).size).toBe(ids.length);
    const zero = varied.value.setupAt(0);
    expect(zero.ok).toBe(false);
  });

  it('refuses a count for a unit standing on a battlefield cell', () => {
    const varied = variationOf(encounter('examples/shining-force-gate.yaml'), {
      combatant: 'goblin',
      field: 'count',
    });
    expect(varied.ok).toBe(false);
    if (!varied.ok) expect(varied.error.message).toMatch(/cell/);
  });

  it('more ogres lower the party win rate: the search finds a count for party=50%', async () => {
    const started = balanceSearch({
      encounter: encounter('examples/zodiac-keef-and-the-ogre.yaml'),
      vary: { combatant: 'ogre', field: 'count', low: 1, high: 6 },
      target: { side: 'party', rate: 0.5 },
      seed: 'count',
    });
    if (!started.ok) throw new Error(started.error.message);
    const result = await started.value.result;
    expect(result.vary.whole).toBe(true);
    // The count is the encounter's, not a field of the sheet.
    expect(result.vary).toMatchObject({ original: 1, originalIn: 'the encounter' });
    expect(renderBalance(result)[0]).toContain('(1 in the encounter)');
    expect(result.increasing).toBe(false);
    const rates = result.points.map((p) => p.rate);
    expect(rates[0]).toBeGreaterThan(rates.at(-1)!);
  });
});
