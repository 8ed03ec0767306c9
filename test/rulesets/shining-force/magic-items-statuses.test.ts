/** Spells and MP, items that crack and break, and the text's eight statuses. */
import { describe, expect, it } from 'vitest';
import type { ShiningForceState } from '../../../src/rulesets/shining-force/index.js';
import { combatantOf, type StatusInstance } from '../../../src/rulesets/shining-force/state.js';
import {
  attackDice,
  battle,
  begin,
  ofType,
  rejected,
  run,
  type SfEncounter,
  SWORD,
  sheet,
  whoseTurn,
} from './helpers.js';

const held = (item: string, equipped = false, cracked = false) => ({ item, equipped, cracked });

/** Puts a status on a combatant directly, for tests of what it does. */
function withStatus(e: SfEncounter, id: string, status: StatusInstance): ShiningForceState {
  return {
    ...e.state,
    combatants: e.state.combatants.map((c) =>
      c.id === id ? { ...c, statuses: [...c.statuses, status] } : c,
    ),
  };
}

/** Decides on a given state with every roll fixed by purpose prefix (default 50). */
function decideWith(
  e: SfEncounter,
  state: ShiningForceState,
  command: unknown,
  rolls: Record<string, number>,
) {
  const parsed = e.ruleset.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const dice = {
    roll: (purpose: string, notation: string) => {
      const key = Object.keys(rolls).find((k) => purpose.startsWith(k));
      return {
        purpose,
        notation,
        total: key === undefined ? 1 : rolls[key]!,
        dice: [],
        text: '',
        entered: true,
      };
    },
  };
  const resolved = e.ruleset.resolve!(state, parsed.value, dice);
  if (!resolved.ok) throw new Error(resolved.error.message);
  return resolved.value;
}

describe('spells', () => {
  const tao = () =>
    sheet('tao', 'A1', {
      spells: ['blaze-1', 'desoul-1'],
      stats: { mp: 10, luck: 6 },
      items: [held('wooden-staff', true)],
    });

  it('cost MP, reach by their range, never critical and are never countered', () => {
    const e = begin(battle([tao()], [sheet('goblin', 'C1')]));
    expect(e.legalActions().map((a) => a.label)).toContain('Cast Blaze 1 on Goblin');
    const events = run(
      e,
      { type: 'cast', actor: 'tao', spell: 'blaze-1', target: 'goblin' },
      { 'variance:goblin': [50] },
    );
    expect(ofType(events, 'spell-cast')[0]).toMatchObject({ mpAfter: 8, targets: ['goblin'] });
    expect(ofType(events, 'effect-damage')[0]).toMatchObject({ amount: 6, hpAfter: 14 });
    expect(events.some((ev) => ev.type === 'attacked')).toBe(false);
    expect(combatantOf(e.state, 'tao')!.mp).toBe(8);
  });

  it('"Once it reaches 0 or below the least costing spell of that character, no more spell can be cast"', () => {
    const e = begin(battle([{ ...tao(), mp: 1 }], [sheet('goblin', 'C1')]));
    expect(e.legalActions().some((a) => a.command.type === 'cast')).toBe(false);
    rejected(
      e,
      { type: 'cast', actor: 'tao', spell: 'blaze-1', target: 'goblin' },
      'action/not-enough-mp',
    );
    rejected(
      e,
      { type: 'cast', actor: 'tao', spell: 'aura-1', target: 'tao' },
      'action/unknown-spell',
    );
  });

  it('Desoul: 70%, with 6 Luck against 9, works on 51 or less (the text\'s "drops to 50%")', () => {
    const works = begin(battle([tao()], [sheet('goblin', 'C1', { stats: { luck: 9 } })]));
    const events = run(
      works,
      { type: 'cast', actor: 'tao', spell: 'desoul-1', target: 'goblin' },
      { 'defeat:goblin': [51] },
    );
    expect(ofType(events, 'instantly-defeated')[0]).toMatchObject({ chance: 51 });
    expect(works.outcome()).toMatchObject({ over: true, winner: 'force' });
    const fails = begin(battle([tao()], [sheet('goblin', 'C1', { stats: { luck: 9 } })]));
    const missed = run(
      fails,
      { type: 'cast', actor: 'tao', spell: 'desoul-1', target: 'goblin' },
      { 'defeat:goblin': [52] },
    );
    expect(ofType(missed, 'status-resisted')[0]).toMatchObject({ status: 'defeat', chance: 51 });
  });

  it('option statusLuck: subtract reads "10% for each difference" as 10 points: 40%', () => {
    const e = begin(
      battle([tao()], [sheet('goblin', 'C1', { stats: { luck: 9 } })], { statusLuck: 'subtract' }),
    );
    const events = run(
      e,
      { type: 'cast', actor: 'tao', spell: 'desoul-1', target: 'goblin' },
      { 'defeat:goblin': [41] },
    );
    expect(ofType(events, 'status-resisted')[0]).toMatchObject({ chance: 40 });
  });

  it('areas touch only the aimed-at side: Blaze 2 around a goblin spares the Force member beside it', () => {
    const e = begin(
      battle(
        [
          sheet('tao', 'A1', {
            spells: ['blaze-2'],
            stats: { mp: 10 },
            items: [held('wooden-staff', true)],
          }),
          sheet('max', 'C2', { stats: { agility: 1 } }),
        ],
        [sheet('goblin', 'C1'), sheet('goblin-2', 'D1', { stats: { agility: 1 } })],
      ),
    );
    const events = run(
      e,
      { type: 'cast', actor: 'tao', spell: 'blaze-2', target: 'goblin' },
      { 'variance:goblin': [50], 'variance:goblin-2': [50] },
    );
    expect(ofType(events, 'effect-damage').map((d) => d.target)).toEqual(['goblin', 'goblin-2']);
  });
});

describe('items', () => {
  it('a Medical Herb heals and is used up (one time)', () => {
    const e = begin(
      battle(
        [sheet('max', 'A1', { hp: 5, items: [held('short-sword', true), held('medical-herb')] })],
        [sheet('goblin', 'E5')],
      ),
    );
    const events = run(e, { type: 'use', actor: 'max', item: 'medical-herb', target: 'max' });
    expect(ofType(events, 'healed')[0]).toMatchObject({ hp: 10, hpAfter: 15 });
    expect(ofType(events, 'item-condition')[0]).toMatchObject({ result: 'used-up', roll: null });
    expect(combatantOf(e.state, 'max')!.items.map((h) => h.item)).toEqual(['short-sword']);
  });

  it('"On a d100 roll, a result of 1-30, the item will crack, and 31-100, the condition remains good"', () => {
    for (const [roll, result] of [
      [30, 'cracked'],
      [31, 'good'],
      [1, 'cracked'],
      [100, 'good'],
    ] as const) {
      const e = begin(
        battle(
          [sheet('lowe', 'A1', { items: [held('wooden-staff', true), held('shower-of-cure')] })],
          [sheet('goblin', 'E5')],
        ),
      );
      const events = run(
        e,
        { type: 'use', actor: 'lowe', item: 'shower-of-cure', target: 'lowe' },
        { 'crack:shower-of-cure': [roll] },
      );
      expect(ofType(events, 'item-condition')[0]).toMatchObject({ result });
    }
  });

  it('"A cracked item that is then used will break irrepairably after outputting its effect one last time"', () => {
    const e = begin(
      battle(
        [
          sheet('lowe', 'A1', {
            hp: 1,
            items: [held('wooden-staff', true), held('shower-of-cure', false, true)],
          }),
        ],
        [sheet('goblin', 'E5')],
      ),
    );
    const events = run(e, { type: 'use', actor: 'lowe', item: 'shower-of-cure', target: 'lowe' });
    expect(ofType(events, 'healed')[0]).toMatchObject({ hp: 15 });
    expect(ofType(events, 'item-condition')[0]).toMatchObject({ result: 'broke', roll: null });
    expect(combatantOf(e.state, 'lowe')!.items.map((h) => h.item)).toEqual(['wooden-staff']);
  });

  it('a weapon used for its effect (the Heat Axe casts Blaze 2) may crack too', () => {
    const e = begin(
      battle([sheet('max', 'A1', { items: [held('heat-axe', true)] })], [sheet('goblin', 'C1')]),
    );
    const events = run(
      e,
      { type: 'use', actor: 'max', item: 'heat-axe', target: 'goblin' },
      { 'variance:goblin': [50], 'crack:heat-axe': [12] },
    );
    expect(ofType(events, 'effect-damage')[0]).toMatchObject({ amount: 9 });
    expect(combatantOf(e.state, 'max')!.items[0]).toEqual({
      item: 'heat-axe',
      equipped: true,
      cracked: true,
    });
  });

  it('attacking does not wear a weapon, unless option crackOnAttack', () => {
    const plain = begin(battle([sheet('max', 'A1')], [sheet('goblin', 'B1')]));
    const quiet = run(
      plain,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 99, 50]),
    );
    expect(ofType(quiet, 'item-condition')).toHaveLength(0);
    const worn = begin(
      battle([sheet('max', 'A1')], [sheet('goblin', 'B1')], { crackOnAttack: true }),
    );
    const cracked = run(
      worn,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 99, 50], { 'crack:short-sword': [5] }),
    );
    expect(ofType(cracked, 'item-condition')[0]).toMatchObject({ result: 'cracked' });
  });
});

describe('a counter under crackOnAttack', () => {
  it("wears the defender's weapon as the attack wears the attacker's", () => {
    const e = begin(
      battle([sheet('max', 'A1')], [sheet('goblin', 'B1', { kind: 'monster', items: [SWORD] })], {
        crackOnAttack: true,
      }),
    );
    // Counter rate: Agility 8 / 8 + Luck 1 = 2; a counter roll of 1 strikes back.
    const events = run(
      e,
      { type: 'attack', actor: 'max', target: 'goblin' },
      attackDice('goblin', [50, 50, 50, 1, 50], {
        'crack:short-sword': [50],
        'crack:short-sword#2': [5],
      }),
    );
    expect(ofType(events, 'damage-dealt').some((d) => d.counter)).toBe(true);
    expect(ofType(events, 'item-condition').map((c) => [c.actor, c.result])).toEqual([
      ['max', 'good'],
      ['goblin', 'cracked'],
    ]);
  });
});

describe('statuses', () => {
  const pair = () =>
    begin(battle([sheet('max', 'A1')], [sheet('goblin', 'B1', { stats: { agility: 1 } })]));

  it('Sleep: "unable to take any turns whilst asleep"; wakes when its turns run out', () => {
    const e = pair();
    const asleep = withStatus(e, 'goblin', { status: 'sleep', turns: 2 });
    const first = decideWith(e, asleep, { type: 'stay', actor: 'max' }, {});
    expect(ofType(first.events, 'turn-lost')[0]).toMatchObject({
      actor: 'goblin',
      reason: 'asleep',
    });
    expect(first.state.order[first.state.cursor]).toBe('max');
    const second = decideWith(e, first.state, { type: 'stay', actor: 'max' }, {});
    expect(ofType(second.events, 'statuses-counted')[0]).toMatchObject({ ended: ['sleep'] });
    const third = decideWith(e, second.state, { type: 'stay', actor: 'max' }, {});
    expect(third.state.order[third.state.cursor]).toBe('goblin');
  });

  it('Paralysed: "actions have only a 20% chance": 20 acts, 21 loses the turn', () => {
    const e = pair();
    const state = withStatus(e, 'goblin', { status: 'paralysed', turns: 3 });
    const acts = decideWith(e, state, { type: 'stay', actor: 'max' }, { 'paralysis:': 20 });
    expect(acts.state.order[acts.state.cursor]).toBe('goblin');
    const lost = decideWith(e, state, { type: 'stay', actor: 'max' }, { 'paralysis:': 21 });
    expect(ofType(lost.events, 'turn-lost')[0]).toMatchObject({ reason: 'paralysed' });
  });

  it('Confused: "1-33 = Act as normal, 34-66 = Do nothing, 67-100 = Attack friend"', () => {
    const e = begin(
      battle(
        [sheet('max', 'A1')],
        [
          sheet('goblin', 'B1', { stats: { agility: 1 } }),
          sheet('goblin-2', 'B2', { stats: { agility: 1 } }),
        ],
      ),
    );
    const state = withStatus(e, 'goblin', { status: 'confused', turns: 2 });
    const normal = decideWith(e, state, { type: 'stay', actor: 'max' }, { 'confusion:': 33 });
    expect(normal.state.order[normal.state.cursor]).toBe('goblin');
    const idle = decideWith(e, state, { type: 'stay', actor: 'max' }, { 'confusion:': 34 });
    expect(ofType(idle.events, 'turn-lost')[0]).toMatchObject({
      actor: 'goblin',
      reason: 'confused',
    });
    const mad = decideWith(
      e,
      state,
      { type: 'stay', actor: 'max' },
      { 'confusion:': 67, 'hit:': 50, counter: 99 },
    );
    expect(ofType(mad.events, 'attacked')[0]!.attack).toMatchObject({
      actor: 'goblin',
      target: 'goblin-2',
    });
  });

  it('Frozen: cannot move, evade 0, wears off after a single turn', () => {
    const e = pair();
    const frozen = withStatus(e, 'goblin', { status: 'frozen', turns: 1 });
    // Max's attack on a frozen goblin hits even on a roll of 1 (evade 0).
    const hit = decideWith(
      e,
      frozen,
      { type: 'attack', actor: 'max', target: 'goblin' },
      { 'hit:': 1, 'critical:': 99, 'counter:': 99 },
    );
    expect(ofType(hit.events, 'attacked')[0]!.attack).toMatchObject({ evade: 0, hit: true });
    expect(hit.state.step).toBe('act');
    expect(ofType(hit.events, 'turn-began').at(-1)).toMatchObject({
      actor: 'goblin',
      canMove: false,
    });
    const after = decideWith(e, hit.state, { type: 'stay', actor: 'goblin' }, {});
    expect(ofType(after.events, 'statuses-counted')[0]).toMatchObject({ ended: ['frozen'] });
  });

  it('Poison: loses HP "each turn after they take their action"', () => {
    const e = pair();
    const state = withStatus(e, 'max', { status: 'poison', turns: null, amount: 3 });
    const after = decideWith(e, state, { type: 'stay', actor: 'max' }, {});
    expect(ofType(after.events, 'points-lost')[0]).toMatchObject({
      target: 'max',
      cause: 'poison',
      hp: 3,
      hpAfter: 17,
    });
    expect(combatantOf(after.state, 'max')!.statuses.map((s) => s.status)).toEqual(['poison']);
  });

  it("a monster's poisonous attack poisons with its chance (the Ooze, 30%)", () => {
    const e = begin(
      battle(
        [sheet('max', 'A1', { stats: { agility: 1 } })],
        [
          sheet('ooze', 'B1', {
            attack: {
              name: 'Slime',
              range: 'range-1',
              inflicts: { status: 'poison', chance: 30, amount: 2 },
            },
          }),
        ],
      ),
    );
    const events = run(
      e,
      { type: 'attack', actor: 'ooze', target: 'max' },
      attackDice('max', [50, 50, 50, 99, 50], { 'status:max': [30] }),
    );
    expect(ofType(events, 'status-inflicted')[0]!.instance).toEqual({
      status: 'poison',
      turns: null,
      amount: 2,
    });
  });

  it('Illusion: "attacks are 50% less accurate": against evade 3, a 51 misses', () => {
    const e = pair();
    const state = withStatus(e, 'max', { status: 'illusion', turns: 3 });
    const missed = decideWith(
      e,
      state,
      { type: 'attack', actor: 'max', target: 'goblin' },
      { 'hit:': 51, 'counter:': 99 },
    );
    expect(ofType(missed.events, 'attacked')[0]!.attack).toMatchObject({
      illusion: true,
      hit: false,
    });
  });

  it('Charmed: "the status inflicter controls the charmed target": it fights for the other side', () => {
    const e = begin(
      battle(
        [sheet('max', 'A1')],
        [
          sheet('goblin', 'B1', { stats: { agility: 1 } }),
          sheet('goblin-2', 'B2', { stats: { agility: 1 } }),
        ],
      ),
    );
    run(e, { type: 'stay', actor: 'max' });
    const charmed = withStatus(e, 'goblin', { status: 'charmed', turns: 2, side: 'force' });
    const legal = e.ruleset.legalActions(charmed).map((a) => a.label);
    expect(legal).toContain('Attack Goblin-2 with attack');
    expect(legal).not.toContain('Attack Max with attack');
  });

  it('Curse: a cursed accessory worn curses from the start, costs HP each turn and will not come off', () => {
    const e = begin(
      battle(
        [sheet('max', 'A1', { items: [held('short-sword', true), held('evil-ring', true)] })],
        [sheet('goblin', 'E5')],
      ),
    );
    expect(combatantOf(e.state, 'max')!.statuses).toEqual([
      { status: 'curse', turns: null, curse: { effect: 'hp-loss', amount: 2 } },
    ]);
    rejected(e, { type: 'unequip', actor: 'max', item: 'evil-ring' }, 'action/cursed');
    const events = run(e, { type: 'stay', actor: 'max' });
    expect(ofType(events, 'points-lost')[0]).toMatchObject({ cause: 'curse', hp: 2 });
    expect(whoseTurn(e)).toBe('goblin');
  });
});
