/**
 * The kernel against the loop over the rules with monsters whose maximum HP the encounter file
 * overrides (`maxHp:`): the kernel reads the maximum from the setup's sheets (healing caps, its
 * tactician's view), so an override must reach it as it reaches the rules. The overrides are
 * chosen so battles reach both a heal capped at the override and a monster felled at it.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ShiningForceSetup } from '../../../src/rulesets/shining-force/model.js';
import { caseOf, compared, encounterText, GATE, rulesMet } from './helpers.js';

const GATE_TEXT = readFileSync(GATE, 'utf8');

/** The gate with these maximum HPs on its monsters' entries, by the entry's place in the file. */
function gateWith(maxHps: readonly (number | undefined)[]) {
  let i = 0;
  const text = GATE_TEXT.replace(/- \{ monster: ([^}]*)\}/g, (whole, inner: string) => {
    const hp = maxHps[i++];
    return hp === undefined ? whole : `- { monster: ${inner.trim()}, maxHp: ${hp} }`;
  });
  return encounterText('gate-max-hp', text);
}

describe('the Shining Force kernel with maximum-HP overrides', () => {
  it('the overrides are in the setup the kernel plays, and the sheets elsewhere are not', () => {
    const setup = gateWith([3, 40, undefined, 1, 60]).setup as ShiningForceSetup;
    const monsters = setup.sides[1]!.combatants;
    expect(monsters.map((m) => m.stats.hp)).toEqual([3, 40, expect.any(Number), 1, 60]);
    expect(monsters[2]!.stats.hp).not.toBe(40);
  });

  it('plays the same battles both ways, with every monster overridden (12)', () => {
    const c = caseOf('gate maxHp', gateWith([2, 45, 1, 30, 70]));
    const { met, see } = rulesMet();
    const both = compared(c, 'max-hp', 0, 12, see);
    expect(both.mismatches).toEqual([]);
    expect(both.kernel).toEqual(both.loop);
    expect(met['battle won'] ?? 0).toBeGreaterThan(0);
  });

  it('property: any overrides, the same battles both ways', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }), {
          minLength: 5,
          maxLength: 5,
        }),
        fc.integer({ min: 0, max: 1000 }),
        (maxHps, battle) => {
          const c = caseOf(`gate maxHp ${JSON.stringify(maxHps)}`, gateWith(maxHps));
          const both = compared(c, 'max-hp-property', battle, battle + 2);
          expect(both.mismatches).toEqual([]);
          expect(both.kernel).toEqual(both.loop);
        },
      ),
      { numRuns: 8 },
    );
  });
});
