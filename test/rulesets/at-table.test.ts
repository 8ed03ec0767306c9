/**
 * Every system's log says which dice were rolled at the table: a roll entered is marked on its
 * line, one the server rolled is not.
 */
import { describe, expect, it } from 'vitest';
import { ffrpgSystem } from '../../src/rulesets/ffrpg/system.js';
import { ffviiiSystem } from '../../src/rulesets/ffviii/index.js';
import { shiningForceSystem } from '../../src/rulesets/shining-force/index.js';
import { zodiacSystem } from '../../src/rulesets/zodiac/index.js';
import * as ffrpg from './ffrpg/battle-helpers.js';
import * as ffviii from './ffviii/helpers.js';
import * as sf from './shining-force/helpers.js';
import * as zodiac from './zodiac/helpers.js';

const AT_TABLE = '(rolled at the table)';

describe('the log says which dice were rolled at the table', () => {
  it('FFRPG: an entered Initiative, and not the server’s', () => {
    const encounter = ffrpg.start();
    const events = ffrpg.run(encounter, { type: 'begin-round' }, { 'initiative:hiro': [10] });
    const lines = ffrpgSystem.describe(events, encounter.state);
    expect(lines.find((l) => l.includes('Hiro:'))).toContain(AT_TABLE);
    expect(lines.find((l) => l.includes('Haze:'))).not.toContain(AT_TABLE);
  });

  it('FFVIII: an entered initiative die, and not the server’s', () => {
    const encounter = ffviii.start();
    const events = ffviii.run(encounter, { type: 'begin-round' }, ffviii.initiative({ ehlric: 8 }));
    const lines = ffviiiSystem.describe(events, encounter.state);
    expect(lines.find((l) => l.includes('Ehlric'))).toContain(`d10 8 ${AT_TABLE} + Speed`);
    expect(lines.find((l) => l.includes('Iron Giant:'))).not.toContain(AT_TABLE);
  });

  it('ZODIAC: entered Speed Points, and not the server’s', () => {
    const encounter = zodiac.start();
    const events = zodiac.run(encounter, { type: 'begin-battle' }, { 'sp:keef': [5] });
    const lines = zodiacSystem.describe(events, encounter.state);
    expect(lines.find((l) => l.includes('Keef:'))).toContain(AT_TABLE);
    expect(lines.find((l) => /Ogre.*SP/.test(l))).not.toContain(AT_TABLE);
  });

  it('Shining Force: an entered turn-order die, starred and said', () => {
    const encounter = sf.start(sf.gateSetup());
    const events = sf.run(encounter, { type: 'begin-battle' }, { 'turn-order:max': [50] });
    const lines = shiningForceSystem.describe(events, encounter.state);
    const order = lines.find((l) => l.includes('Turn order'))!;
    expect(order).toMatch(/Max \d+\*/);
    expect(order).toContain(`(* rolled at the table)`);
    expect(order.match(/\*/g)).toHaveLength(2);
  });
});
