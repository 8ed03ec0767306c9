import { describe, expect, it } from 'vitest';
import { matchAction, menuOf } from '../../src/session/index.js';

const action = (label: string, group?: string) => ({
  label,
  command: { type: label },
  ...(group === undefined ? {} : { group }),
});

const menu = menuOf([
  action('Move to C4', 'move'),
  action('Ehlric casts Thunder at the Iron Giant'),
  action('Ehlric attacks the Iron Giant with Staff'),
  action('Dodge (+3 Evade, -1 shot)'),
  action('Take it'),
  action('Move to C5', 'move'),
]);

const labels = (text: string) => matchAction(menu, text).map((a) => a.label);

describe('choosing an action by what is typed', () => {
  it('numbers the listed actions first and the grouped ones after them', () => {
    expect(menu.map((a) => a.label)).toEqual([
      'Ehlric casts Thunder at the Iron Giant',
      'Ehlric attacks the Iron Giant with Staff',
      'Dodge (+3 Evade, -1 shot)',
      'Take it',
      'Move to C4',
      'Move to C5',
    ]);
    expect(labels('2')).toEqual(['Ehlric attacks the Iron Giant with Staff']);
    expect(labels('5')).toEqual(['Move to C4']);
    expect(labels('9')).toEqual([]);
  });

  it('takes the words of a label in order, each typed word beginning one', () => {
    expect(labels('cast thunder')).toEqual(['Ehlric casts Thunder at the Iron Giant']);
    expect(labels('attack')).toEqual(['Ehlric attacks the Iron Giant with Staff']);
    expect(labels('dodge')).toEqual(['Dodge (+3 Evade, -1 shot)']);
    expect(labels('take')).toEqual(['Take it']);
    expect(labels('move c5')).toEqual(['Move to C5']);
    expect(labels('thunder cast')).toEqual([]);
  });

  it('takes the first of one action done in different ways, and asks between different ones', () => {
    const ways = [
      {
        label: 'Attack Iron Giant with Staff',
        command: { type: 'attack', actor: 'e', target: 'g' },
      },
      {
        label: 'Attack Iron Giant with Claws',
        command: { type: 'attack', actor: 'e', target: 'g' },
      },
      { label: 'Attack Pet with Staff', command: { type: 'attack', actor: 'e', target: 'p' } },
    ];
    expect(matchAction(ways.slice(0, 2), 'attack').map((a) => a.label)).toEqual([
      'Attack Iron Giant with Staff',
    ]);
    expect(matchAction(ways, 'attack')).toHaveLength(3);
    expect(matchAction(ways, 'attack iron claws').map((a) => a.label)).toEqual([
      'Attack Iron Giant with Claws',
    ]);
  });

  it('prefers the whole label, then a label that starts so; a lone letter only begins it', () => {
    expect(labels('take it')).toEqual(['Take it']);
    expect(labels('move to c4')).toEqual(['Move to C4']);
    expect(labels('ehlric')).toHaveLength(2);
    expect(labels('i')).toEqual([]);
    expect(labels('d')).toEqual(['Dodge (+3 Evade, -1 shot)']);
  });
});
