/** What the tools show of a battle: the board as text, drawn from the state alone. */
import { describe, expect, it } from 'vitest';
import { shiningForceSystem } from '../../../src/rulesets/shining-force/system.js';
import { battle, begin, run, sheet } from './helpers.js';

const FIELD = ['..f..', '.....', '..~..', '.....', '.....'];
const TERRAIN =
  '    . plain, , grass, f forest (2 to enter), h hills (2 to enter), ~ water (impassable), # rock (impassable)';

describe('the board', () => {
  it('marks each one standing, and where the one whose turn it is can move; the terrain shows again once they have moved', () => {
    const e = begin(
      battle([sheet('max', 'A1'), sheet('ken', 'B3')], [sheet('goblin', 'D1')], {}, FIELD),
    );
    expect(shiningForceSystem.view(e.state).board).toEqual([
      '    A B C D E',
      '  1 M + + g .',
      '  2 + + + + .',
      '  3 + K ~ . .',
      '  4 + + . . .',
      '  5 + . . . .',
      '    M Max A1, K Ken B3, g Goblin D1',
      `${TERRAIN}, + can move here`,
    ]);
    run(e, { type: 'move', actor: 'max', to: 'B1' });
    expect(shiningForceSystem.view(e.state).board).toEqual([
      '    A B C D E',
      '  1 . M f g .',
      '  2 . . . . .',
      '  3 . K ~ . .',
      '  4 . . . . .',
      '  5 . . . . .',
      '    M Max B1, K Ken B3, g Goblin D1',
      TERRAIN,
    ]);
  });

  it('leaves out the defeated, and gives each one its place in the turn order and its cell', () => {
    const e = begin(
      battle(
        [sheet('max', 'A1'), sheet('ken', 'B3', { hp: 0 })],
        [sheet('goblin', 'D1')],
        {},
        FIELD,
      ),
    );
    const view = shiningForceSystem.view(e.state);
    expect(view.board![3]).toBe('  3 + + ~ . .');
    expect(view.board![6]).toBe('    M Max A1, g Goblin D1');
    expect(view.combatants.map((c) => [c.id, c.clock?.turn, c.clock?.cell, c.out])).toEqual([
      ['max', e.state.order.indexOf('max') + 1, 'A1', false],
      ['ken', null, 'B3', true],
      ['goblin', e.state.order.indexOf('goblin') + 1, 'D1', false],
    ]);
  });
});
