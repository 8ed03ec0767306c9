/** Setups and encounter specs that cannot be played are refused with a reason; the odds of an attack. */
import { describe, expect, it } from 'vitest';
import {
  shiningForce,
  shiningForceSetupFrom,
  shiningForceSystem,
} from '../../../src/rulesets/shining-force/index.js';
import { battlefieldSchema } from '../../../src/rulesets/shining-force/model.js';
import { battle, begin, GATE_SPEC, gateSetup, library, sheet } from './helpers.js';

describe('setups', () => {
  it('refuses a battlefield without rows with a reason, without throwing (found by the encounter fuzz test)', () => {
    const parsed = battlefieldSchema.safeParse({ rows: [] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['rows']);
  });

  it('refuses two combatants on one cell, a cell off the field or impassable, and a repeated id', () => {
    expect(() => battle([sheet('max', 'A1'), sheet('ken', 'A1')], [sheet('goblin', 'E5')])).toThrow(
      /both stand at A1/,
    );
    expect(() => battle([sheet('max', 'F1')], [sheet('goblin', 'E5')])).toThrow(
      /off the battlefield/,
    );
    expect(() =>
      battle([sheet('max', 'A1')], [sheet('goblin', 'B1')], {}, [
        '.#...',
        '.....',
        '.....',
        '.....',
        '.....',
      ]),
    ).toThrow(/impassable/);
    expect(() => battle([sheet('max', 'A1')], [sheet('max', 'E5')])).toThrow(
      /two combatants are called 'max'/,
    );
  });

  it('refuses ragged rows and unknown terrain, naming the row', () => {
    const ragged = shiningForceSetupFrom(library(), {
      ...GATE_SPEC,
      battlefield: { rows: ['....', '...'] },
    });
    expect(ragged.ok).toBe(false);
    if (!ragged.ok)
      expect(ragged.error.message).toMatch(/battlefield.rows\[1\]: every row is 4 cells wide/);
    const odd = shiningForceSetupFrom(library(), { ...GATE_SPEC, battlefield: { rows: ['..x.'] } });
    if (!odd.ok) expect(odd.error.message).toMatch(/'x' is no terrain/);
    expect(odd.ok).toBe(false);
  });

  it('refuses an unknown monster, and garbage, as values', () => {
    const unknown = shiningForceSetupFrom(library(), {
      ...GATE_SPEC,
      sides: [
        GATE_SPEC.sides[0],
        { id: 'x', name: 'X', combatants: [{ monster: 'dragon', at: 'H1' }] },
      ],
    });
    expect(unknown.ok).toBe(false);
    expect(shiningForce.parseSetup(null).ok).toBe(false);
    expect(shiningForce.parseSetup({ ...gateSetup(), sides: [] }).ok).toBe(false);
    expect(shiningForce.parseCommand({ type: 'move', actor: 'max', to: 'nowhere' }).ok).toBe(false);
  });
});

describe('odds', () => {
  it("counts an attack's hit, critical and counter chances over the d100's faces", () => {
    const e = begin(battle([sheet('max', 'A1', { stats: { luck: 5 } })], [sheet('goblin', 'B1')]));
    const odds = shiningForceSystem.odds!(e.state, {
      type: 'attack',
      actor: 'max',
      target: 'goblin',
    });
    expect(odds!.lines[0]).toBe('Max attacks Goblin with Short Sword: hits 97% (evade 3)');
    // ATT 15 - DEF 4 = 11, ±15% (9 to 12), a level 1 critical (5%) at 150%: up to 18.
    expect(odds!.lines[1]).toBe('  damage 9-18, mean 10.9 on a hit (ATT 15 - DEF 4, ±15%)');
    expect(odds!.lines[2]).toBe('  critical: level 1 5% (150%)');
    expect(odds!.summary).toBe('hit 97% · 9-18 · KO 0% · ctr 1.8%');
  });
});
