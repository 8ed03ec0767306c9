import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CheckError,
  chanceOfSuccess,
  type OpposedParticipant,
  resolveOpposedCheck,
} from '../../../../src/rulesets/ffrpg/checks/index.js';

/** The Wind Cave: "Awareness of 40 ... -20 for being asleep, giving it a final CoS of 20." */
const MONSTER_COS = chanceOfSuccess(40, -20);
/** "Haze and Mint both have Stealth at 40, while Hiro has it at 20 ... Conditional Modifiers of +40." */
const HAZE_COS = chanceOfSuccess(40, 40);
const MINT_COS = chanceOfSuccess(40, 40);
const HIRO_COS = chanceOfSuccess(20, 40);

const monster = (roll: number): OpposedParticipant => ({ id: 'monster', cos: MONSTER_COS, roll });

describe('Opposed Task Checks in action (sneaking past the sleeping monster)', () => {
  it('works out the CoSes: monster 20, Haze and Mint 80, Hiro 60', () => {
    expect([MONSTER_COS, HAZE_COS, MINT_COS, HIRO_COS]).toEqual([20, 80, 80, 60]);
  });

  it('"M and Blair roll under their CoSes by 30 and 68 respectively": Haze (50) and Mint (12) each beat the monster\'s 32', () => {
    for (const [id, cos, roll, margin] of [
      ['haze', HAZE_COS, 50, 30],
      ['mint', MINT_COS, 12, 68],
    ] as const) {
      const result = resolveOpposedCheck([{ id, cos, roll }, monster(32)]);
      expect(result.outcome).toBe('winner');
      if (result.outcome !== 'winner') continue;
      expect(result.winner).toBe(id);
      expect(result.standings[0]).toMatchObject({ id, place: 1, margin, critical: false });
      expect(result.standings[1]).toMatchObject({ id: 'monster', place: null, success: false });
    }
  });

  it('"The two failed rolls produced a stalemate": Hiro 61 against the monster\'s 32', () => {
    const result = resolveOpposedCheck([{ id: 'hiro', cos: HIRO_COS, roll: 61 }, monster(32)]);
    expect(result).toMatchObject({
      outcome: 'stalemate',
      reason: 'all-failed',
      reroll: ['hiro', 'monster'],
    });
  });

  it('"Rob: (rolling) 38. Rodger rolls in secret again, coming up with a 40—another failure": Hiro wins the reroll', () => {
    const result = resolveOpposedCheck([{ id: 'hiro', cos: HIRO_COS, roll: 38 }, monster(40)]);
    expect(result).toMatchObject({ outcome: 'winner', winner: 'hiro' });
    expect(result.standings.find((s) => s.id === 'monster')).toMatchObject({
      success: false,
      place: null,
    });
  });

  it('all four at once: Mint, farthest below her CoS, comes first; Hiro and the monster are out', () => {
    const result = resolveOpposedCheck([
      { id: 'hiro', cos: HIRO_COS, roll: 61 },
      { id: 'haze', cos: HAZE_COS, roll: 50 },
      { id: 'mint', cos: MINT_COS, roll: 12 },
      monster(32),
    ]);
    expect(result).toMatchObject({ outcome: 'winner', winner: 'mint' });
    expect(result.standings.map((s) => [s.id, s.place])).toEqual([
      ['mint', 1],
      ['haze', 2],
      ['hiro', null],
      ['monster', null],
    ]);
  });
});

describe('who wins', () => {
  it('"a roll of 26 against a CoS of 40 always beats a roll of 22 against a CoS of 30"', () => {
    const result = resolveOpposedCheck([
      { id: 'thirty', cos: 30, roll: 22 },
      { id: 'forty', cos: 40, roll: 26 },
    ]);
    expect(result).toMatchObject({ outcome: 'winner', winner: 'forty' });
  });

  it('"a Critical Success automatically wins the contest": 9 against CoS 90 beats 15 against CoS 100', () => {
    const result = resolveOpposedCheck([
      { id: 'steady', cos: 100, roll: 15 },
      { id: 'lucky', cos: 90, roll: 9 },
    ]);
    expect(result).toMatchObject({ outcome: 'winner', winner: 'lucky' });
  });

  it('"unless other participants also score a Critical Success. In this case, the lowest roll again determines the winner"', () => {
    const result = resolveOpposedCheck([
      { id: 'a', cos: 95, roll: 7 },
      { id: 'b', cos: 20, roll: 3 },
      { id: 'c', cos: 60, roll: 40 },
    ]);
    expect(result).toMatchObject({ outcome: 'winner', winner: 'b' });
    expect(result.standings.map((s) => [s.id, s.place])).toEqual([
      ['b', 1],
      ['a', 2],
      ['c', 3],
    ]);
  });

  it('"A Botch or failure will automatically remove a participant": any success beats them', () => {
    const result = resolveOpposedCheck([
      { id: 'botcher', cos: 90, roll: 97 },
      { id: 'narrow', cos: 30, roll: 30 },
      { id: 'failer', cos: 50, roll: 60 },
    ]);
    expect(result).toMatchObject({ outcome: 'winner', winner: 'narrow' });
    expect(result.standings.map((s) => s.id)).toEqual(['narrow', 'botcher', 'failer']);
  });

  it('"unless all other participants Botch or fail as well": everyone rolls again', () => {
    const result = resolveOpposedCheck([
      { id: 'a', cos: 90, roll: 100 },
      { id: 'b', cos: 30, roll: 31 },
      { id: 'c', cos: 0, roll: 50 },
    ]);
    expect(result).toMatchObject({
      outcome: 'stalemate',
      reason: 'all-failed',
      reroll: ['a', 'b', 'c'],
    });
  });

  it('"every party involved must roll, even if their CoS is 100 or higher": a 96 at CoS 120 Botches', () => {
    const participants = [
      { id: 'master', cos: 120, roll: 96 },
      { id: 'novice', cos: 25, roll: 20 },
    ];
    expect(resolveOpposedCheck(participants)).toMatchObject({ winner: 'novice' });
    expect(resolveOpposedCheck(participants, { botchAlwaysFails: false })).toMatchObject({
      winner: 'master',
    });
  });

  it('a Rule of 10 success stays in the contest but ranks below every ordinary success', () => {
    const miracle = { id: 'miracle', cos: -20, roll: 2 };
    expect(resolveOpposedCheck([miracle, { id: 'scrape', cos: 20, roll: 19 }])).toMatchObject({
      winner: 'scrape',
    });
    const result = resolveOpposedCheck([miracle, { id: 'miss', cos: 40, roll: 41 }]);
    expect(result).toMatchObject({ winner: 'miracle' });
    expect(result.standings[0]).toMatchObject({ ruleOf10: true, critical: false, margin: -22 });
  });

  it('Rule of 10 successes rank among themselves by margin', () => {
    const result = resolveOpposedCheck([
      { id: 'deeper', cos: -40, roll: 1 },
      { id: 'shallower', cos: 0, roll: 8 },
    ]);
    expect(result).toMatchObject({ winner: 'shallower' });
  });

  it("the GM's impossible declaration takes the Rule of 10 away in a contest too", () => {
    const participants = [
      { id: 'a', cos: -20, roll: 2 },
      { id: 'b', cos: -10, roll: 5 },
    ];
    expect(resolveOpposedCheck(participants, { impossible: true })).toMatchObject({
      outcome: 'stalemate',
      reason: 'all-failed',
    });
  });
});

describe('ruling: exact ties', () => {
  it('leaders equally far below their CoS roll again among themselves', () => {
    const result = resolveOpposedCheck([
      { id: 'a', cos: 50, roll: 30 },
      { id: 'b', cos: 40, roll: 20 },
      { id: 'c', cos: 60, roll: 55 },
    ]);
    expect(result).toMatchObject({ outcome: 'stalemate', reason: 'tie', reroll: ['a', 'b'] });
    expect(result.standings.map((s) => s.place)).toEqual([1, 1, 3]);
  });

  it('Critical Successes on the same roll tie', () => {
    const result = resolveOpposedCheck([
      { id: 'a', cos: 50, roll: 4 },
      { id: 'b', cos: 80, roll: 4 },
    ]);
    expect(result).toMatchObject({ outcome: 'stalemate', reason: 'tie', reroll: ['a', 'b'] });
  });

  it('with tieBreak higher-cos the higher CoS wins, and equal CoSes still roll again', () => {
    const options = { tieBreak: 'higher-cos' } as const;
    expect(
      resolveOpposedCheck(
        [
          { id: 'a', cos: 50, roll: 30 },
          { id: 'b', cos: 40, roll: 20 },
        ],
        options,
      ),
    ).toMatchObject({ outcome: 'winner', winner: 'a' });
    expect(
      resolveOpposedCheck(
        [
          { id: 'a', cos: 50, roll: 30 },
          { id: 'b', cos: 50, roll: 30 },
        ],
        options,
      ),
    ).toMatchObject({ outcome: 'stalemate', reason: 'tie' });
  });
});

describe('mistakes', () => {
  const codeOf = (participants: OpposedParticipant[]) => {
    try {
      resolveOpposedCheck(participants);
    } catch (error) {
      if (error instanceof CheckError) return error.code;
      throw error;
    }
    return undefined;
  };

  it('needs two or more participants with distinct ids and d% rolls', () => {
    expect(codeOf([{ id: 'a', cos: 50, roll: 3 }])).toBe('check/too-few-participants');
    expect(
      codeOf([
        { id: 'a', cos: 50, roll: 3 },
        { id: 'a', cos: 40, roll: 5 },
      ]),
    ).toBe('check/duplicate-participant');
    expect(
      codeOf([
        { id: 'a', cos: 50, roll: 0 },
        { id: 'b', cos: 40, roll: 5 },
      ]),
    ).toBe('check/roll-out-of-range');
  });
});

describe('properties', () => {
  const participantsArb = fc.uniqueArray(
    fc.record({
      id: fc.string({ minLength: 1, maxLength: 4 }),
      cos: fc.integer({ min: -50, max: 150 }),
      roll: fc.integer({ min: 1, max: 100 }),
    }),
    { minLength: 2, maxLength: 6, selector: (p) => p.id },
  );

  it('the winner succeeded; a stalemate for all-failed means nobody did', () => {
    fc.assert(
      fc.property(participantsArb, (participants) => {
        const result = resolveOpposedCheck(participants);
        const winners = result.standings.filter((s) => s.place !== null);
        if (result.outcome === 'winner') {
          expect(result.standings[0]).toMatchObject({ id: result.winner, place: 1, success: true });
        } else if (result.reason === 'all-failed') {
          expect(winners).toHaveLength(0);
          expect(result.reroll).toHaveLength(participants.length);
        } else {
          expect(result.reroll.length).toBeGreaterThan(1);
        }
        expect(result.standings).toHaveLength(participants.length);
      }),
    );
  });

  it('the order participants are given in does not change who wins', () => {
    fc.assert(
      fc.property(participantsArb, (participants) => {
        const forward = resolveOpposedCheck(participants);
        const backward = resolveOpposedCheck([...participants].reverse());
        expect(backward.outcome).toBe(forward.outcome);
        if (forward.outcome === 'winner' && backward.outcome === 'winner') {
          expect(backward.winner).toBe(forward.winner);
        }
        if (forward.outcome === 'stalemate' && backward.outcome === 'stalemate') {
          expect([...backward.reroll].sort()).toEqual([...forward.reroll].sort());
        }
      }),
    );
  });
});
