import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { secrecyFor, seenView } from '../../src/session/index.js';

describe('what a player sees of a combatant', () => {
  it("counts the party's items, and hides a hidden enemy's as its HP (ZODIAC's Potions)", () => {
    const read = readEncounterFile('examples/zodiac-keef-and-the-ogre.yaml', SYSTEMS);
    if (!read.ok) throw new Error('example does not load');
    const { system, setup } = read.encounter;
    const view = system.view(system.ruleset.initialState(setup));
    const player = { role: 'player', characterId: 'keef' } as const;
    const seen = seenView(view, player, 'party', secrecyFor(player, view, 'party', new Set()));
    const keef = seen.combatants.find((c) => c.id === 'keef')!;
    const ogre = seen.combatants.find((c) => c.side !== 'party')!;
    expect(keef.items).toBe(view.combatants.find((c) => c.id === 'keef')!.items);
    expect(keef.items).toBeGreaterThan(0);
    expect(ogre).toMatchObject({ hidden: true, hp: null, items: null });
    const gm = { role: 'gm' } as const;
    const all = seenView(view, gm, 'party', secrecyFor(gm, view, 'party', new Set()));
    expect(all.combatants.find((c) => c.id === ogre.id)!.items).toBe(
      view.combatants.find((c) => c.id === ogre.id)!.items,
    );
  });
});
