/**
 * Setups from the starter content (content/ffviii): the text's numbers on the sheets, encounter
 * specs naming content by id, and what a spec may change (HP, positions, options).
 */
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../../src/content/index.js';
import {
  ffviiiKinds,
  ffviiiSetupFrom,
  STARTER_CONTENT_DIR,
} from '../../../src/rulesets/ffviii/index.js';
import { actionValue } from '../../../src/rulesets/ffviii/state.js';
import { EHLRIC, GIANT, ironGiant, sheetOf, start } from './helpers.js';

function library() {
  const loaded = loadContent(STARTER_CONTENT_DIR, ffviiiKinds);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.library;
}

const spec = (extra: Record<string, unknown> = {}, ehlric: Record<string, unknown> = {}) => ({
  sides: [
    { id: 'ehlric', name: 'Ehlric and his pet', combatants: [{ character: 'ehlric', ...ehlric }] },
    { id: 'giant', name: 'The Iron Giant', combatants: [{ monster: 'iron-giant' }] },
  ],
  ...extra,
});

describe('the starter content and the example file', () => {
  it('Ehlric: "Speed of 8", "Strength of 8", Martial Arts AV 11 (Reflexes 8 + 3), "Sorcery action value ... 10", Taming 5 on Willpower', () => {
    const ehlric = sheetOf(ironGiant(), EHLRIC);
    expect(ehlric.attributes).toMatchObject({ speed: 8, strength: 8, evade: 4 });
    expect(actionValue(ehlric, 'martial-arts')).toBe(11);
    expect(actionValue(ehlric, 'sorcery')).toBe(10);
    expect(ehlric.skills.taming).toMatchObject({ attribute: 'willpower', bonus: 5, combat: true });
    expect(ehlric.guardianForces).toEqual([{ gf: 'infernus', compatibility: 4 }]);
    const staff = ehlric.weapons.find((w) => w.id === 'staff')!;
    // "His Strength of 8 + 4 for the weapon type"
    expect(staff.damage).toEqual({ strength: true, bonus: 4 });
  });

  it('the Iron Giant: "Speed of 3", "Toughness of 15", "Spirit is 7", "Magic Evade attribute of 1", "Dodge rating is 6", lightning Spirit 3', () => {
    const giant = sheetOf(ironGiant(), GIANT);
    expect(giant.attributes).toMatchObject({ speed: 3, toughness: 15, spirit: 7, magicEvade: 1 });
    expect(giant.dodge).toBe(6);
    expect(giant.elementalSpirit).toEqual({ lightning: 3 });
  });

  it('Thunder: "a damage of 15 (Ehlric\'s Sorcery AV +5)"; Infernus: "Summoning is a 8 shot action" at compatibility 4', () => {
    const setup = ironGiant();
    expect(setup.spells.thunder).toMatchObject({
      power: 5,
      effect: 'damage',
      element: 'lightning',
    });
    expect(setup.guardianForces.infernus).toMatchObject({ summonShots: 10, ability: { shots: 2 } });
    expect(setup.options).toEqual({
      dodgeFormula: 'combat-skill-plus-evade',
      boxcars: 'failure-only',
      shardsPerDraw: 1,
      dodgeBonus: 3,
      playersRollInitiative: true,
    });
  });

  it('ffviiiSetupFrom builds the same setup from the library as the example file does', () => {
    const built = ffviiiSetupFrom(
      library(),
      spec({ options: { dodgeFormula: 'combat-skill-plus-evade' } }),
    );
    if (!built.ok) throw new Error(built.error.message);
    expect(built.value).toEqual(ironGiant());
  });

  it('a spec sets HP, positions, barriers and some options; the rest keep their defaults', () => {
    const built = ffviiiSetupFrom(
      library(),
      spec(
        { blockedSight: [[EHLRIC, GIANT]], options: { boxcars: 'always' } },
        { hp: 20, position: { x: 3, y: 4 }, name: 'Ehlric' },
      ),
    );
    if (!built.ok) throw new Error(built.error.message);
    const ehlric = sheetOf(built.value, EHLRIC);
    // The encounter's hp is HP at the start; the sheet's stays the maximum.
    expect(ehlric).toMatchObject({
      hp: 35,
      startHp: 20,
      name: 'Ehlric',
      position: { x: 3, y: 4 },
    });
    expect(built.value.blockedSight).toEqual([[EHLRIC, GIANT]]);
    expect(built.value.options).toMatchObject({ boxcars: 'always', dodgeBonus: 3 });
    start(built.value);
  });

  it.each([
    [
      spec({}, { character: 'squall' }),
      'encounter/unknown-content',
      "there is no ffviii/character 'squall'",
    ],
    [
      spec({}, { monster: 'iron-giant' }),
      'encounter/invalid',
      'name exactly one of character or monster',
    ],
    [spec({ options: { dodgeFormula: 'agility' } }), 'encounter/invalid', 'options.dodgeFormula'],
    [spec({ blockedSight: [[EHLRIC, 'squall']] }), 'encounter/invalid', "nobody called 'squall'"],
  ])('refuses a spec that cannot be played (%#)', (input, code, message) => {
    const built = ffviiiSetupFrom(library(), input);
    expect(built.ok).toBe(false);
    if (!built.ok) {
      expect(built.error.code).toBe(code);
      expect(built.error.message).toContain(message);
    }
  });
});
