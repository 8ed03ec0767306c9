import { describe, expect, it } from 'vitest';
import { Encounter } from '../../src/engine/index.js';
import { reservedNameIn } from '../../src/engine/reserved.js';
import { duel } from './toy-ruleset.js';

describe('names JavaScript reserves', () => {
  it('finds them as values and keys, with where, and lets prose say anything', () => {
    expect(reservedNameIn({ type: 'attack', actor: 'constructor' })).toBe(
      "actor: 'constructor' cannot name anything here (JavaScript reserves it)",
    );
    expect(reservedNameIn({ sides: [{ combatants: ['ann', 'toString'] }] })).toContain(
      'sides[0].combatants[1]',
    );
    expect(reservedNameIn(JSON.parse('{"hp": {"__proto__": 5}}'))).toContain('hp.__proto__');
    expect(reservedNameIn({ type: 'gm-note', target: 'ann', text: 'constructor' })).toBeUndefined();
    expect(reservedNameIn({ type: 'attack', actor: 'ann', target: 'bob' })).toBeUndefined();
  });

  it('refuses them in commands and setups as error values that change nothing', () => {
    const created = Encounter.create(
      duel,
      {
        fighters: [
          { id: 'ann', hp: 5 },
          { id: 'bob', hp: 5 },
        ],
      },
      1,
    );
    if (!created.ok) throw new Error(created.error.message);
    const encounter = created.value;
    for (const id of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const result = encounter.submit({ type: 'attack', actor: 'ann', target: id });
      expect(result).toMatchObject({ ok: false, error: { code: 'command/reserved-name' } });
    }
    expect(encounter.log).toEqual([]);
    const bad = Encounter.create(
      duel,
      {
        fighters: [
          { id: 'ann', hp: 5 },
          { id: 'valueOf', hp: 5 },
        ],
      },
      1,
    );
    expect(bad).toMatchObject({ ok: false, error: { code: 'encounter/reserved-name' } });
  });
});
