/**
 * A turn: a move first (optional), then one action; equipping and dropping are free. Turn
 * order by Agility with a rolled spread; the battle's end.
 */
import { describe, expect, it } from 'vitest';
import { systemById } from '../../../src/rulesets/index.js';
import { combatantOf } from '../../../src/rulesets/shining-force/state.js';
import { POLICIES } from '../../../src/sim/policies.js';
import { runBattles } from '../../../src/sim/runner.js';
import {
  attackDice,
  battle,
  begin,
  gateSetup,
  ofType,
  rejected,
  run,
  sheet,
  start,
  whoseTurn,
} from './helpers.js';

describe('turn order', () => {
  it('by Agility, highest first, with no spread', () => {
    const e = begin(
      battle(
        [sheet('max', 'A1', { stats: { agility: 5 } })],
        [sheet('goblin', 'E5', { stats: { agility: 9 } })],
      ),
    );
    expect(e.state.order).toEqual(['goblin', 'max']);
  });

  it('Agility taken at 100 ± spread percent, rolled per combatant each round (Shining Force II)', () => {
    const setup = battle(
      [sheet('max', 'A1', { stats: { agility: 10 } })],
      [sheet('goblin', 'E5', { stats: { agility: 12 } })],
      {
        turnOrderSpread: 50,
      },
    );
    const e = start(setup);
    // d101: 1 is 50% of Agility, 101 is 150%. Max 10 at 150% = 15; Goblin 12 at 50% = 6.
    const events = run(
      e,
      { type: 'begin-battle' },
      { 'turn-order:max': [101], 'turn-order:goblin': [1] },
    );
    const [round] = ofType(events, 'round-began');
    expect(round!.rolls.map((r) => [r.id, r.roll.notation, r.value])).toEqual([
      ['max', 'd101', 15],
      ['goblin', 'd101', 6],
    ]);
    expect(round!.order).toEqual(['max', 'goblin']);
  });

  it('ties go to the higher Agility, then the Force, then the order of the setup', () => {
    // No spread: each value is the Agility itself, so only the tie-breaks tell these apart.
    const e = begin(
      battle(
        [
          sheet('ken', 'A1', { stats: { agility: 8 } }),
          sheet('max', 'A2', { stats: { agility: 8 } }),
          sheet('lowe', 'A3', { stats: { agility: 3 } }),
        ],
        [
          sheet('goblin', 'E1', { stats: { agility: 8 } }),
          sheet('orc', 'E2', { stats: { agility: 9 } }),
          sheet('bat', 'E3', { stats: { agility: 8 } }),
        ],
      ),
    );
    expect(e.state.order).toEqual(['orc', 'ken', 'max', 'goblin', 'bat', 'lowe']);
  });

  it('a new round rolls a new order once everyone has had a turn', () => {
    const e = begin(battle([sheet('max', 'A1')], [sheet('goblin', 'E5')]));
    run(e, { type: 'stay', actor: 'max' });
    const events = run(e, { type: 'stay', actor: 'goblin' });
    expect(ofType(events, 'round-began').map((r) => r.round)).toEqual([2]);
    expect(whoseTurn(e)).toBe('max');
  });

  it('a battle nobody wins ends after maxRounds, so every battle ends', () => {
    const e = begin(battle([sheet('max', 'A1')], [sheet('goblin', 'E5')], { maxRounds: 2 }));
    for (let i = 0; i < 4; i++) run(e, { type: 'stay', actor: whoseTurn(e)! });
    expect(e.outcome()).toMatchObject({ over: true, winner: null });
    expect(e.legalActions()).toEqual([]);
    rejected(e, { type: 'stay', actor: 'max' }, 'battle/over');
  });

  it('a side that comes already beaten loses as the battle begins', () => {
    const e = begin(battle([sheet('max', 'A1')], [sheet('goblin', 'E5', { hp: 0 })]));
    expect(e.outcome()).toMatchObject({ over: true, winner: 'force' });
  });

  it('nothing happens before the battle begins, and it begins once', () => {
    const e = start(battle([sheet('max', 'A1')], [sheet('goblin', 'E5')]));
    expect(e.legalActions().map((a) => a.command.type)).toEqual(['begin-battle']);
    rejected(e, { type: 'stay', actor: 'max' }, 'battle/not-begun');
    run(e, { type: 'begin-battle' });
    rejected(e, { type: 'begin-battle' }, 'battle/begun');
  });
});

describe('"You may only move before taking an action, and only one action can be taken each turn"', () => {
  it('moves by cell, then acts from the new cell', () => {
    const e = begin(battle([sheet('max', 'A1')], [sheet('goblin', 'D1')]));
    const labels = e.legalActions().map((a) => a.label);
    expect(labels).toContain('Move to C1 (toward Goblin)');
    expect(labels).toContain('Move to A3');
    expect(labels).toContain('Move to A5'); // Movement 4: four steps
    expect(labels).not.toContain('Move to C4'); // five
    expect(labels).not.toContain('Move to E1'); // round the goblin, five
    run(e, { type: 'move', actor: 'max', to: 'c1' });
    expect(combatantOf(e.state, 'max')!.cell).toBe(2);
    expect(e.legalActions().some((a) => a.command.type === 'move')).toBe(false);
    rejected(e, { type: 'move', actor: 'max', to: 'B1' }, 'action/cannot-move');
    run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 99, 50]),
    );
    expect(whoseTurn(e)).toBe('goblin');
  });

  it("labels leave out the one whose turn it is (the screen names it): 'Move to C4', each label one action", () => {
    const e = begin(gateSetup());
    for (let turn = 0; turn < 12 && !e.outcome().over; turn++) {
      const actor = combatantOf(e.state, whoseTurn(e)!)!;
      const actions = e.legalActions();
      const labels = actions.map((a) => a.label);
      // Its name shows only where it is the target as well (a Medical Herb on itself).
      const named = labels.filter((l) => l.includes(actor.sheet.name));
      expect(
        named.filter((l) => !l.endsWith(` on ${actor.sheet.name}`)),
        actor.id,
      ).toEqual([]);
      for (const a of actions) expect(a.command).toMatchObject({ actor: actor.id });
      const moves = actions.filter((a) => a.command.type === 'move');
      expect(moves.length, actor.id).toBeGreaterThan(0);
      for (const m of moves) expect(m.label).toMatch(/^Move to [A-Z]+\d+( \(toward [^)]+\))?$/);
      // Unambiguous still: no two actions offered under one label.
      expect(new Set(labels).size).toBe(labels.length);
      run(e, { type: 'stay', actor: actor.id });
    }
  });

  it('cannot move out of reach, onto someone, or off the field', () => {
    const e = begin(
      battle(
        [sheet('max', 'A1', { stats: { movement: 2 } }), sheet('ken', 'B1')],
        [sheet('goblin', 'E5')],
      ),
    );
    rejected(e, { type: 'move', actor: 'max', to: 'D1' }, 'action/cannot-reach');
    rejected(e, { type: 'move', actor: 'max', to: 'B1' }, 'action/cannot-reach');
    rejected(e, { type: 'move', actor: 'max', to: 'F1' }, 'action/off-the-field');
    // Through Ken (an ally) to C1: two steps.
    run(e, { type: 'move', actor: 'max', to: 'C1' });
  });

  it('terrain costs: forest takes two movement points; rock cannot be entered', () => {
    const e = begin(
      battle([sheet('max', 'A1', { stats: { movement: 2 } })], [sheet('goblin', 'E5')], {}, [
        '.f#..',
        '.....',
        '.....',
        '.....',
        '.....',
      ]),
    );
    const moves = e
      .legalActions()
      .filter((a) => a.command.type === 'move')
      .map((a) => (a.command as { to: string }).to);
    expect(moves).toContain('B1');
    expect(moves).not.toContain('C1');
    expect(moves).toContain('B2');
  });

  it('"Changing your equipped items or dropping an item do not count as an action"', () => {
    const e = begin(
      battle(
        [
          sheet('max', 'A1', {
            items: [
              { item: 'short-sword', cracked: false, equipped: true },
              { item: 'steel-sword', cracked: false, equipped: false },
              { item: 'medical-herb', cracked: false, equipped: false },
            ],
          }),
        ],
        [sheet('goblin', 'B1')],
      ),
    );
    run(e, { type: 'equip', actor: 'max', item: 'steel-sword' });
    run(e, { type: 'drop', actor: 'max', item: 'medical-herb' });
    expect(whoseTurn(e)).toBe('max');
    const items = combatantOf(e.state, 'max')!.items;
    expect(items.map((h) => [h.item, h.equipped])).toEqual([
      ['short-sword', false],
      ['steel-sword', true],
    ]);
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      {
        ...attackDice('goblin', [50, 50, 99, 99, 50]),
        'critical:goblin#2': [99],
      },
    );
    expect(ofType(events, 'attacked')[0]!.attack.weapon).toBe('Steel Sword');
    expect(whoseTurn(e)).toBe('goblin');
  });

  it('giving an item to an adjacent Force member is the action', () => {
    const e = begin(
      battle(
        [
          sheet('max', 'A1', {
            items: [
              { item: 'short-sword', cracked: false, equipped: true },
              { item: 'medical-herb', cracked: false, equipped: false },
            ],
          }),
          sheet('ken', 'A2', { stats: { agility: 1 } }),
        ],
        [sheet('goblin', 'E5')],
      ),
    );
    run(e, { type: 'give', actor: 'max', item: 'medical-herb', to: 'ken' });
    expect(combatantOf(e.state, 'ken')!.items.map((h) => h.item)).toEqual([
      'short-sword',
      'medical-herb',
    ]);
    expect(whoseTurn(e)).not.toBe('max');
  });

  it('six slots: one for the equipped weapon, one for the accessory, four besides', () => {
    const herb = { item: 'medical-herb', cracked: false, equipped: false };
    expect(() =>
      battle(
        [
          sheet('max', 'A1', {
            items: [
              { item: 'short-sword', cracked: false, equipped: true },
              herb,
              herb,
              herb,
              herb,
              herb,
            ],
          }),
        ],
        [sheet('goblin', 'E5')],
      ),
    ).toThrow(/4 fit/);
    expect(() =>
      battle(
        [
          sheet('max', 'A1', {
            items: [
              { item: 'short-sword', cracked: false, equipped: true },
              { item: 'spear', cracked: false, equipped: true },
            ],
          }),
        ],
        [sheet('goblin', 'E5')],
      ),
    ).toThrow(/more than one weapon/);
  });
});

describe('options', () => {
  it('minimumDamage: Attack under Defence deals 1 by default, 0 when the table says so', () => {
    const tough = { stats: { defence: 30 } };
    const one = begin(battle([sheet('max', 'A1')], [sheet('goblin', 'B1', tough)]));
    const hit = run(
      one,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 99, 50]),
    );
    expect(ofType(hit, 'damage-dealt')[0]!.amount).toBe(1);
    const zero = begin(
      battle([sheet('max', 'A1')], [sheet('goblin', 'B1', tough)], { minimumDamage: 0 }),
    );
    const none = run(
      zero,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 99, 50]),
    );
    expect(ofType(none, 'damage-dealt')[0]!.amount).toBe(0);
  });

  it('passThroughAllies: false stops a move at an ally in a corridor', () => {
    const corridor = ['.....', '#####', '#####', '#####', '#####'];
    const through = begin(
      battle(
        [sheet('max', 'A1'), sheet('ken', 'B1')],
        [sheet('goblin', 'E1', { stats: { agility: 1 } })],
        {},
        corridor,
      ),
    );
    run(through, { type: 'move', actor: 'max', to: 'C1' });
    const blocked = begin(
      battle(
        [sheet('max', 'A1'), sheet('ken', 'B1')],
        [sheet('goblin', 'E1', { stats: { agility: 1 } })],
        { passThroughAllies: false },
        corridor,
      ),
    );
    rejected(blocked, { type: 'move', actor: 'max', to: 'C1' }, 'action/cannot-reach');
  });

  it('criticalDamagePercent: a level 1 critical at 200%', () => {
    const e = begin(
      battle([sheet('max', 'A1')], [sheet('goblin', 'B1')], {
        criticalDamagePercent: [200, 250, 300],
      }),
    );
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 1, 99, 50]),
    );
    expect(ofType(events, 'damage-dealt')[0]!.amount).toBe(22);
  });
});

describe('EXP and the end of the battle', () => {
  it('a Force member who defeats a monster earns its EXP; the Force wins its gold', () => {
    const e = begin(
      battle([sheet('max', 'A1')], [sheet('goblin', 'B1', { hp: 5, expReward: 20, gold: 10 })]),
    );
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 99, 50]),
    );
    expect(ofType(events, 'exp-gained')).toEqual([
      { type: 'exp-gained', actor: 'max', amount: 20, reason: 'defeated Goblin' },
    ]);
    expect(ofType(events, 'battle-ended')[0]).toMatchObject({ winner: 'force', gold: 10 });
    expect(combatantOf(e.state, 'max')!.exp).toBe(20);
  });
});

describe('free equipment changes and the simulator', () => {
  it('a Force member with a spare weapon does not stall the first and attacker policies', () => {
    const setup = gateSetup();
    for (const side of setup.sides)
      for (const c of side.combatants)
        if (c.kind === 'force')
          (c.items as { item: string; cracked: boolean; equipped: boolean }[]).push({
            item: 'spear',
            cracked: false,
            equipped: false,
          });
    const system = systemById('shining-force')!;
    for (const policy of ['first', 'attacker'] as const) {
      const aggregate = runBattles(system, setup, POLICIES[policy]!, {
        seed: 'spare',
        from: 0,
        to: 5,
      });
      expect(aggregate.unfinished, policy).toBe(0);
    }
  });
});

describe('actions typed in moogle battle', () => {
  const system = systemById('shining-force')!;
  const state = start(gateSetup()).state;
  const parse = (text: string) => system.parseAction!(state, text);

  it('moves by cell, for names with spaces too: "move goblin 2 to c4"', () => {
    expect(parse('move max c4')).toEqual({ type: 'move', actor: 'max', to: 'C4' });
    expect(parse('move Goblin 2 to c4')).toEqual({ type: 'move', actor: 'goblin-2', to: 'C4' });
    expect(parse('move max to z99')).toBeUndefined();
  });

  it('changes equipment, not an action: equip, unequip and drop by item id or name', () => {
    expect(parse('drop max medical herb')).toEqual({
      type: 'drop',
      actor: 'max',
      item: 'medical-herb',
    });
    expect(parse('unequip max short-sword')).toEqual({
      type: 'unequip',
      actor: 'max',
      item: 'short-sword',
    });
    expect(parse('equip max')).toBeUndefined();
    expect(parse('dance max')).toBeUndefined();
  });
});
