import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  DiceError,
  type DicePoolNode,
  enteredDice,
  type FengShuiNode,
  type GroupNode,
  parseDice,
  parseEnteredFaces,
  type RollNode,
  roll,
  rollDice,
  rollTotal,
  SeededDice,
  type SeededDiceState,
  seededDice,
} from '../../src/index.js';
import { diceError, maxDice, onesDice, recordingDice } from './helpers.js';

/** Rolls with entered faces, checking that the total-only path agrees on the same faces. */
function entered(expression: string, faces: number[], variables = {}): ReturnType<typeof rollDice> {
  const result = rollDice(expression, { dice: enteredDice(faces), variables });
  expect(rollTotal(expression, enteredDice(faces), variables)).toBe(result.total);
  return result;
}

function text(expression: string, faces: number[], variables = {}): string {
  return entered(expression, faces, variables).text;
}

function pool(node: RollNode): DicePoolNode {
  if (node.kind !== 'dice') throw new Error(`expected dice, got ${node.kind}`);
  return node;
}

describe('explained rolls with entered dice', () => {
  it.each([
    ['4d6kh3', [6, 5, 1, 5], '4d6kh3 = [6, 5, 1d, 5] = 16'],
    ['4d6kh3', [6, 5, 5, 1], '4d6kh3 = [6, 5, 5, 1d] = 16'],
    ['4d6dl1', [6, 5, 1, 5], '4d6dl1 = [6, 5, 1d, 5] = 16'],
    ['4d6kl1', [6, 5, 1, 5], '4d6kl1 = [6d, 5d, 1, 5d] = 1'],
    ['4d6dh1', [6, 5, 1, 5], '4d6dh1 = [6d, 5, 1, 5] = 11'],
    ['2d20kh1', [7, 15], '2d20kh1 = [7d, 15] = 15'],
    ['2d20kl1', [7, 15], '2d20kl1 = [7, 15d] = 7'],
    ['3d6kh0', [1, 2, 3], '3d6kh0 = [1d, 2d, 3d] = 0'],
    ['3d6kh5', [1, 2, 3], '3d6kh5 = [1, 2, 3] = 6'],
    ['3d6dh5', [1, 2, 3], '3d6dh5 = [1d, 2d, 3d] = 0'],
    ['3d6', [1, 2, 3], '3d6 = [1, 2, 3] = 6'],
    ['1d20 + 5', [12], '1d20 + 5 = [12] + 5 = 17'],
    ['2d6-1d4', [3, 4, 2], '2d6-1d4 = [3, 4] - [2] = 5'],
    ['-1d6', [4], '-1d6 = -[4] = -4'],
    ['(1d6+1)*2', [4], '(1d6+1)*2 = ([4] + 1) * 2 = 10'],
    ['max(1d6, 1d6)', [2, 5], 'max(1d6, 1d6) = max([2], [5]) = 5'],
    ['0d6', [], '0d6 = [] = 0'],
  ])('%s with %j: %s', (expression, faces, expected) => {
    expect(text(expression, faces)).toBe(expected);
  });

  it('ties keep the earlier dice: 4d6kh3 with [5, 5, 5, 5]', () => {
    expect(text('4d6kh3', [5, 5, 5, 5])).toBe('4d6kh3 = [5, 5, 5, 5d] = 15');
    expect(text('4d6kl3', [5, 5, 5, 5])).toBe('4d6kl3 = [5, 5, 5, 5d] = 15');
  });

  it('the result keeps the tree: dice, kept flags and the total', () => {
    const result = entered('4d6kh3', [6, 5, 1, 5]);
    expect(result.total).toBe(16);
    expect(result.expression).toBe('4d6kh3');
    const node = pool(result.detail);
    expect(node.count).toBe(4);
    expect(node.sides).toBe(6);
    expect(node.notation).toBe('4d6kh3');
    expect(node.dice.map((d) => d.value)).toEqual([6, 5, 1, 5]);
    expect(node.dice.map((d) => d.kept)).toEqual([true, true, false, true]);
  });

  it('toJSON gives expression, total, detail and text', () => {
    const result = entered('1d6+1', [3]);
    const json = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
    expect(json.expression).toBe('1d6+1');
    expect(json.total).toBe(4);
    expect(json.text).toBe('1d6+1 = [3] + 1 = 4');
    expect(json.detail).toMatchObject({ kind: 'arithmetic', operator: '+', value: 4 });
  });

  it('the text repeats the expression as written, without the spaces around it', () => {
    expect(text(' 2d6 +\t1 ', [1, 2])).toBe('2d6 +\t1 = [1, 2] + 1 = 4');
  });

  it('functions are shown with their arguments', () => {
    expect(text('floor(1d6/2) + ceil(1d6/2)', [5, 5])).toBe(
      'floor(1d6/2) + ceil(1d6/2) = floor([5] / 2) + ceil([5] / 2) = 5',
    );
    expect(text('round(1d6/2)', [5])).toBe('round(1d6/2) = round([5] / 2) = 3');
    expect(text('abs(1d4-1d6)', [1, 6])).toBe('abs(1d4-1d6) = abs([1] - [6]) = 5');
  });
});

describe('d%: "A result of 9 and 3, for example, would be 93; 7 and 0, 70; 0 and 4, 4. 0 and 0 always equal 100."', () => {
  it.each([
    [[9, 3], 93, 'd% = [90+3] = 93'],
    [[7, 0], 70, 'd% = [70+0] = 70'],
    [[0, 4], 4, 'd% = [00+4] = 4'],
    [[0, 0], 100, 'd% = [00+0] = 100'],
    [[10, 10], 100, 'd% = [00+0] = 100'],
    [[0, 1], 1, 'd% = [00+1] = 1'],
    [[9, 9], 99, 'd% = [90+9] = 99'],
    [[1, 0], 10, 'd% = [10+0] = 10'],
  ])('%j reads %d', (faces, total, expected) => {
    const result = entered('d%', faces);
    expect(result.total).toBe(total);
    expect(result.text).toBe(expected);
  });

  it('a d% is one die with tens and ones digits', () => {
    const node = pool(entered('d%', [7, 3]).detail);
    expect(node.percentile).toBe(true);
    expect(node.sides).toBe(100);
    expect(node.dice).toHaveLength(1);
    expect(node.dice[0]).toMatchObject({ value: 73, faces: [73], digits: [[7, 3]] });
  });

  it('rolls two d10, tens first', () => {
    const dice = recordingDice([4, 2]);
    expect(parseDice('d%').roll({ dice }).total).toBe(42);
    expect(dice.asked).toEqual([10, 10]);
    const fast = recordingDice([4, 2]);
    expect(parseDice('d%').total(fast)).toBe(42);
    expect(fast.asked).toEqual([10, 10]);
  });

  it('keep, explode and add with d%', () => {
    expect(text('2d%kh1', [1, 2, 3, 4])).toBe('2d%kh1 = [10+2d, 30+4] = 34');
    expect(text('d%!', [0, 0, 4, 2])).toBe('d%! = [00+0!, 40+2] = 142');
    expect(text('d% + 1d6', [5, 0, 3])).toBe('d% + 1d6 = [50+0] + [3] = 53');
  });

  it('entered d% digits must be 0 to 10', () => {
    expect(diceError(() => rollDice('d%', { dice: enteredDice([11, 1]) })).code).toBe(
      'dice/entered-out-of-range',
    );
  });
});

describe('rerolls', () => {
  it('r rerolls until the face no longer matches: 1d6r1 with [1, 1, 4]', () => {
    const result = entered('1d6r1', [1, 1, 4]);
    expect(result.text).toBe('1d6r1 = [~1~ ~1~ 4] = 4');
    expect(pool(result.detail).dice[0]).toMatchObject({
      faces: [1, 1, 4],
      value: 4,
      rerolled: true,
    });
  });

  it('ro rerolls once, even when the new face matches: 1d6ro1 with [1, 1]', () => {
    expect(text('1d6ro1', [1, 1])).toBe('1d6ro1 = [~1~ 1] = 1');
  });

  it('1d20ro<=3 with [2, 15] and [4]', () => {
    expect(text('1d20ro<=3', [2, 15])).toBe('1d20ro<=3 = [~2~ 15] = 15');
    expect(text('1d20ro<=3', [4])).toBe('1d20ro<=3 = [4] = 4');
  });

  it('several reroll points: 1d6r1r2 with [1, 2, 3]', () => {
    expect(text('1d6r1r2', [1, 2, 3])).toBe('1d6r1r2 = [~1~ ~2~ 3] = 3');
  });

  it('3d6r<3: each die rerolled on its own', () => {
    expect(text('3d6r<3', [1, 4, 6, 2, 2, 3])).toBe('3d6r<3 = [~1~ 4, 6, ~2~ ~2~ 3] = 13');
  });

  it('rerolls happen before keep: 2d6r1kh1 with [1, 3, 2]', () => {
    expect(text('2d6r1kh1', [1, 3, 2])).toBe('2d6r1kh1 = [~1~ 3, 2d] = 3');
  });

  it('r stops after maxRerolls rerolls of one face and never hangs: the last throw picks among the faces that do not match', () => {
    const result = rollDice('1d6r1', { dice: onesDice });
    // A d5 face 1 read as the first face that does not match: 2. Never a 1, as the odds say.
    expect(result.total).toBe(2);
    const die = pool(result.detail).dice[0]!;
    expect(die.faces).toHaveLength(DEFAULT_LIMITS.maxRerolls + 2);
  });

  it('the reroll cap follows the maxRerolls limit', () => {
    const result = rollDice('1d6r1', { dice: onesDice, limits: { maxRerolls: 3 } });
    expect(pool(result.detail).dice[0]!.faces).toEqual([1, 1, 1, 1, 2]);
    const asked = recordingDice([1, 1, 1, 1, 3]);
    expect(rollDice('1d10r<4r7', { dice: asked, limits: { maxRerolls: 3 } }).total).toBe(6);
    // The last throw is of a d6: 4, 5, 6, 8, 9, 10 do not match; its third is 6.
    expect(asked.asked).toEqual([10, 10, 10, 10, 6]);
  });

  it('1d6r<7 rerolls every face: dice/always-matches', () => {
    const error = diceError(() => rollDice('1d6r<7', { dice: onesDice }));
    expect(error.code).toBe('dice/always-matches');
    expect(diceError(() => rollTotal('1d6r<7', onesDice)).code).toBe('dice/always-matches');
    expect(diceError(() => rollDice('1d2r1r2', { dice: onesDice })).code).toBe(
      'dice/always-matches',
    );
  });

  it('ro may match every face: it rerolls once', () => {
    expect(text('1d6ro<7', [2, 5])).toBe('1d6ro<7 = [~2~ 5] = 5');
  });
});

describe('explosions', () => {
  it('! adds new dice to the pool: 3d6! with [6, 2, 3, 4]', () => {
    const result = entered('3d6!', [6, 2, 3, 4]);
    expect(result.text).toBe('3d6! = [6!, 2, 3, 4] = 15');
    const dice = pool(result.detail).dice;
    expect(dice).toHaveLength(4);
    expect(dice.map((d) => d.fromExplosion)).toEqual([false, true, false, false]);
    expect(dice.map((d) => d.exploded)).toEqual([true, false, false, false]);
  });

  it('! chains: 1d6! with [6, 6, 1]', () => {
    expect(text('1d6!', [6, 6, 1])).toBe('1d6! = [6!, 6!, 1] = 13');
  });

  it('!! compounds into one die: 3d6!! with [6, 6, 2, 3, 4]', () => {
    const result = entered('3d6!!', [6, 6, 2, 3, 4]);
    expect(result.text).toBe('3d6!! = [14!!, 3, 4] = 21');
    const dice = pool(result.detail).dice;
    expect(dice).toHaveLength(3);
    expect(dice[0]).toMatchObject({ faces: [6, 6, 2], value: 14, compounded: true });
  });

  it('explode on a compare point: 2d6!>=5 with [5, 6, 2, 3]', () => {
    expect(text('2d6!>=5', [5, 6, 2, 3])).toBe('2d6!>=5 = [5!, 6!, 2, 3] = 16');
  });

  it('explosions happen before keep: 2d6!kh1 with [6, 3, 4]', () => {
    expect(text('2d6!kh1', [6, 3, 4])).toBe('2d6!kh1 = [6!, 3d, 4d] = 6');
    expect(text('2d6!!kh1', [6, 3, 4])).toBe('2d6!!kh1 = [9!!, 4d] = 9');
  });

  it('rerolls apply to dice added by explosions: 1d6r1! with [6, 1, 3]', () => {
    expect(text('1d6r1!', [6, 1, 3])).toBe('1d6r1! = [6!, ~1~ 3] = 9');
  });

  it('1d1! is refused: dice/explode-d1', () => {
    expect(diceError(() => rollDice('1d1!', { dice: onesDice })).code).toBe('dice/explode-d1');
    expect(diceError(() => rollTotal('1d1!!', onesDice)).code).toBe('dice/explode-d1');
  });

  it('exploding on every face is refused: 1d6!>0', () => {
    expect(diceError(() => rollDice('1d6!>0', { dice: onesDice })).code).toBe(
      'dice/always-matches',
    );
  });

  it('the explosion cap: 1d6!! on dice that always show 6 stops after maxRerolls explosions', () => {
    const cap = DEFAULT_LIMITS.maxRerolls;
    expect(rollDice('1d6!!', { dice: maxDice }).total).toBe(6 * (cap + 1));
    expect(rollTotal('1d6!!', maxDice)).toBe(6 * (cap + 1));
    const die = pool(rollDice('1d6!!', { dice: maxDice }).detail).dice[0]!;
    expect(die.faces).toHaveLength(cap + 1);
  });

  it('the explosion cap for !: at most maxRerolls added dice per die', () => {
    const cap = DEFAULT_LIMITS.maxRerolls;
    const result = rollDice('1d6!', { dice: maxDice });
    expect(result.total).toBe(6 * (cap + 1));
    expect(pool(result.detail).dice).toHaveLength(cap + 1);
  });

  it('a custom maxRerolls caps explosions too', () => {
    expect(rollDice('2d6!!', { dice: maxDice, limits: { maxRerolls: 2 } }).total).toBe(36);
  });

  it('dice added by explosions count toward maxDice', () => {
    const error = diceError(() => rollDice('3d6!', { dice: maxDice, limits: { maxDice: 5 } }));
    expect(error.code).toBe('dice/too-many-dice');
    // Compounding adds no dice.
    expect(rollDice('3d6!!', { dice: maxDice, limits: { maxDice: 3 } }).total).toBe(
      3 * 6 * (DEFAULT_LIMITS.maxRerolls + 1),
    );
  });

  it('a d2 that always shows 2 after a reroll would explode forever, so 1d2r1!! is refused', () => {
    expect(diceError(() => rollDice('1d2r1!!', { dice: seededDice(3) })).code).toBe(
      'dice/always-matches',
    );
  });
});

describe('success counting', () => {
  it('5d10>=8f1 with [8, 1, 10, 5, 0] (0 is a 10): 3 successes - 1 failure', () => {
    const result = entered('5d10>=8f1', [8, 1, 10, 5, 0]);
    expect(result.text).toBe('5d10>=8f1 = [8*, 1_, 10*, 5, 10*] = 2');
    const node = pool(result.detail);
    expect(node.counting).toBe(true);
    expect(node.dice.map((d) => d.outcome)).toEqual([
      'success',
      'failure',
      'success',
      undefined,
      'success',
    ]);
  });

  it('failures can outnumber successes: 3d10>=8f<3', () => {
    expect(text('3d10>=8f<3', [1, 2, 9])).toBe('3d10>=8f<3 = [1_, 2_, 9*] = -1');
  });

  it('only kept dice count: 4d6kh2>=5 with [6, 5, 5, 1]', () => {
    expect(text('4d6kh2>=5', [6, 1, 5, 5])).toBe('4d6kh2>=5 = [6*, 1d, 5*, 5d] = 2');
  });

  it('successes with other compare points', () => {
    expect(text('3d6=6', [6, 5, 6])).toBe('3d6=6 = [6*, 5, 6*] = 2');
    expect(text('3d6<3', [1, 3, 2])).toBe('3d6<3 = [1*, 3, 2*] = 2');
    expect(text('3d6>4', [5, 4, 6])).toBe('3d6>4 = [5*, 4, 6*] = 2');
  });

  // A compare point straight after ! or !! is the explosion trigger, so the success compare
  // point is written first.
  it('exploded dice count as dice of their own: 2d6>=5!', () => {
    expect(text('2d6>=5!', [6, 5, 2])).toBe('2d6>=5! = [6!*, 5*, 2] = 2');
  });

  it('a compounded die counts once, by its sum: 2d6>=8!!', () => {
    expect(text('2d6>=8!!', [6, 3, 5])).toBe('2d6>=8!! = [9!!*, 5] = 1');
  });

  it('2d6!>=5 explodes on 5 or more and counts no successes', () => {
    expect(text('2d6!>=5', [6, 5, 2, 1])).toBe('2d6!>=5 = [6!, 5!, 2, 1] = 14');
  });

  it('successes add to arithmetic: 5d10>=8 + 1', () => {
    expect(entered('5d10>=8 + 1', [8, 8, 1, 1, 1]).total).toBe(3);
  });
});

describe('groups', () => {
  it('{4d6, 3d8}kh1 keeps the better entry', () => {
    const result = entered('{4d6, 3d8}kh1', [6, 5, 4, 3, 8, 8, 1]);
    expect(result.text).toBe('{4d6, 3d8}kh1 = {[6, 5, 4, 3] = 18, [8, 8, 1] = 17d} = 18');
    const node = result.detail as GroupNode;
    expect(node.kind).toBe('group');
    expect(node.items.map((i) => i.kept)).toEqual([true, false]);
  });

  it('{4d6, 3d8}kl1 keeps the worse entry', () => {
    expect(text('{4d6, 3d8}kl1', [6, 5, 4, 3, 8, 8, 1])).toBe(
      '{4d6, 3d8}kl1 = {[6, 5, 4, 3] = 18d, [8, 8, 1] = 17} = 17',
    );
  });

  it('group entries can count successes: {1d6, 5}>=4', () => {
    expect(text('{1d6, 5}>=4', [4])).toBe('{1d6, 5}>=4 = {[4] = 4*, 5*} = 2');
    expect(text('{1d6, 1d6, 1d6}>=4f1', [1, 4, 2])).toBe(
      '{1d6, 1d6, 1d6}>=4f1 = {[1] = 1_, [4] = 4*, [2] = 2} = 0',
    );
  });

  it('a group without modifiers sums its entries', () => {
    expect(text('{1d6, 2}', [3])).toBe('{1d6, 2} = {[3] = 3, 2} = 5');
  });
});

describe('computed count and sides', () => {
  it('(1d4)d6 rolls the count first', () => {
    const result = entered('(1d4)d6', [2, 3, 4]);
    expect(result.text).toBe('(1d4)d6 = ([2])d6:[3, 4] = 7');
    const node = pool(result.detail);
    expect(node.count).toBe(2);
    expect(node.computedCount).toMatchObject({ kind: 'parens', value: 2 });
  });

  it('1d(1d6) rolls the sides first', () => {
    const dice = recordingDice([4, 2]);
    const result = parseDice('1d(1d6)').roll({ dice });
    expect(result.text).toBe('1d(1d6) = 1d([4]):[2] = 2');
    expect(dice.asked).toEqual([6, 4]);
  });

  it('a computed count below 0 is refused: (1d4-3)d6', () => {
    expect(diceError(() => rollDice('(1d4-3)d6', { dice: enteredDice([1]) })).code).toBe(
      'dice/negative-count',
    );
    expect(rollDice('(1d4-3)d6', { dice: enteredDice([3]) }).total).toBe(0);
  });

  it('computed sides of 0 are refused: 1d(1d4-1)', () => {
    expect(diceError(() => rollDice('1d(1d4-1)', { dice: enteredDice([1]) })).code).toBe(
      'dice/no-sides',
    );
  });

  it('computed sides of 1 cannot explode: 1d(1d2)!', () => {
    expect(diceError(() => rollDice('1d(1d2)!', { dice: enteredDice([1]) })).code).toBe(
      'dice/explode-d1',
    );
    expect(rollDice('1d(1d2)!', { dice: enteredDice([2, 1]) }).total).toBe(1);
  });
});

describe('Feng Shui: "fs"', () => {
  it('fs with [6, 2, 6, 3]: positive 8, negative 9, boxcars', () => {
    const result = entered('fs', [6, 2, 6, 3]);
    const node = result.detail as FengShuiNode;
    expect(node.kind).toBe('fengshui');
    expect(node.positive).toMatchObject({ faces: [6, 2], value: 8, compounded: true });
    expect(node.negative).toMatchObject({ faces: [6, 3], value: 9, compounded: true });
    expect(node.boxcars).toBe(true);
    expect(result.total).toBe(-1);
    expect(result.text).toBe('fs = (+[6!, 2] -[6!, 3] boxcars) = -1');
    expect(result.boxcars).toBe(true);
  });

  it('the docs example: fs = (+[6!, 3] -[2]) = 7', () => {
    const result = entered('fs', [6, 3, 2]);
    expect(result.text).toBe('fs = (+[6!, 3] -[2]) = 7');
    expect(result.boxcars).toBe(false);
  });

  it('boxcars are found anywhere in the roll', () => {
    expect(entered('2 * (fs + 1)', [6, 1, 6, 2]).boxcars).toBe(true);
    expect(entered('max(fs, 0)', [6, 1, 6, 2]).boxcars).toBe(true);
    expect(entered('{fs, 1}kh1', [6, 1, 6, 2]).boxcars).toBe(true);
    expect(entered('-fs', [6, 1, 6, 2]).boxcars).toBe(true);
    expect(entered('(fs+2)d1', [6, 1, 6, 2, 1]).boxcars).toBe(true);
    expect(entered('1d(fs+8)', [6, 1, 6, 2, 3]).boxcars).toBe(true);
    expect(entered('fs + 1d6', [6, 1, 5, 6]).boxcars).toBe(false);
    expect(entered('3d6', [6, 6, 6]).boxcars).toBe(false);
  });

  it('no boxcars when only one die shows a first 6', () => {
    const result = entered('fs', [6, 6, 1, 4]);
    const node = result.detail as FengShuiNode;
    expect(node.positive.value).toBe(13);
    expect(node.negative.value).toBe(4);
    expect(node.boxcars).toBe(false);
    expect(result.total).toBe(9);
    expect(result.text).toBe('fs = (+[6!, 6!, 1] -[4]) = 9');
    expect(result.boxcars).toBe(false);
  });

  it('boxcars only look at the first faces', () => {
    const node = entered('fs', [3, 6, 2]).detail as FengShuiNode;
    expect(node.positive.value).toBe(3);
    expect(node.negative.value).toBe(8);
    expect(node.boxcars).toBe(false);
  });

  it('fs adds to arithmetic: fs + 5', () => {
    expect(entered('fs + 5', [4, 2]).total).toBe(7);
  });
});

describe('damage codes from Final Fantasy RPG', () => {
  it("Hiro's Valiant Rifle: 2*AGI + d12 with AGI 10", () => {
    const result = entered('2*AGI + d12', [7], { AGI: 10 });
    expect(result.total).toBe(27);
    expect(result.text).toBe('2*AGI + d12 = 2 * 10 + [7] = 27');
    expect(result.detail).toMatchObject({
      kind: 'arithmetic',
      left: { kind: 'arithmetic', left: { kind: 'number', value: 2 } },
    });
  });

  it('3*STR + d10 with STR 8 and a 0 on the d10 (a 10)', () => {
    expect(text('3*STR + d10', [0], { STR: 8 })).toBe('3*STR + d10 = 3 * 8 + [10] = 34');
  });

  it('(WPN*10) + AP with no dice at all', () => {
    expect(text('(WPN*10) + AP', [], { WPN: 3, AP: 5 })).toBe('(WPN*10) + AP = (3 * 10) + 5 = 35');
  });

  it('variables may be negative', () => {
    expect(text('STR + 1d6', [2], { STR: -3 })).toBe('STR + 1d6 = -3 + [2] = -1');
  });

  it('an unknown variable is named, with the known ones', () => {
    const error = diceError(() => rollDice('1+STR', { dice: onesDice, variables: { DEX: 1 } }));
    expect(error.code).toBe('dice/unknown-variable');
    expect(error.message).toContain("'STR'");
    expect(error.message).toContain('DEX');
    expect(error.column).toBe(3);
    const fast = diceError(() => rollTotal('3*STR + d10', onesDice));
    expect(fast.code).toBe('dice/unknown-variable');
    expect(fast.message).toContain("'STR'");
  });

  it('inherited object properties are not variables', () => {
    expect(diceError(() => rollTotal('constructor', onesDice)).code).toBe('dice/unknown-variable');
    expect(diceError(() => rollTotal('toString + 1', onesDice, {})).code).toBe(
      'dice/unknown-variable',
    );
  });

  it('a variable that is not a whole number is refused', () => {
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      const error = diceError(() => rollDice('STR', { dice: onesDice, variables: { STR: bad } }));
      expect(error.code).toBe('dice/bad-argument');
    }
  });
});

describe('limits', () => {
  it('10001d6 is too many dice', () => {
    const error = diceError(() => rollDice('10001d6', { dice: onesDice }));
    expect(error.code).toBe('dice/too-many-dice');
    expect(error.column).toBe(1);
    expect(diceError(() => rollTotal('10001d6', onesDice)).code).toBe('dice/too-many-dice');
  });

  it('10000d6 is allowed', () => {
    expect(rollTotal('10000d6', onesDice)).toBe(10000);
  });

  it('dice across the whole expression count together', () => {
    expect(diceError(() => rollDice('5000d6 + 5001d6', { dice: onesDice })).code).toBe(
      'dice/too-many-dice',
    );
    expect(diceError(() => rollTotal('5000d6 + 5001d6', onesDice)).code).toBe('dice/too-many-dice');
    expect(diceError(() => rollTotal('5000d6 + 5001d6kh1', onesDice)).code).toBe(
      'dice/too-many-dice',
    );
    expect(diceError(() => rollTotal('{5000d6, 5001d6}kh1', onesDice)).code).toBe(
      'dice/too-many-dice',
    );
  });

  it('custom limits: { maxDice: 5 }', () => {
    const limits = { maxDice: 5 };
    expect(rollDice('5d6', { dice: onesDice, limits }).total).toBe(5);
    expect(diceError(() => rollDice('6d6', { dice: onesDice, limits })).code).toBe(
      'dice/too-many-dice',
    );
    expect(diceError(() => rollDice('3d6+3d6', { dice: onesDice, limits })).code).toBe(
      'dice/too-many-dice',
    );
    expect(parseDice('5d6').total(onesDice, {}, limits)).toBe(5);
    expect(diceError(() => parseDice('6d6').total(onesDice, {}, limits)).code).toBe(
      'dice/too-many-dice',
    );
    expect(diceError(() => parseDice('3d6+3d6kh1').total(onesDice, {}, limits)).code).toBe(
      'dice/too-many-dice',
    );
  });

  it('bad limits are refused', () => {
    for (const limits of [
      { maxDice: -1 },
      { maxDice: 1.5 },
      { maxRerolls: 10_001 },
      { explodeDepth: Number.NaN },
      { maxOddsWork: 2_000_000_000 },
    ]) {
      expect(diceError(() => rollDice('1d6', { dice: onesDice, limits })).code).toBe(
        'dice/bad-limit',
      );
      expect(diceError(() => parseDice('1d6r1').total(onesDice, {}, limits)).code).toBe(
        'dice/bad-limit',
      );
    }
  });

  it('d0 has no sides', () => {
    const error = diceError(() => rollDice('d0', { dice: onesDice }));
    expect(error.code).toBe('dice/no-sides');
    expect(error.column).toBe(2);
    expect(diceError(() => rollTotal('3d0', onesDice)).code).toBe('dice/no-sides');
  });

  it('dice of more than 2^32 sides are refused; 2^32 sides is fine', () => {
    expect(diceError(() => rollDice('1d4294967297', { dice: onesDice })).code).toBe(
      'dice/too-many-sides',
    );
    expect(rollTotal('1d4294967296', maxDice)).toBe(4294967296);
  });

  it('unsafe integers: 9007199254740991+1', () => {
    const error = diceError(() => rollDice('9007199254740991+1', { dice: onesDice }));
    expect(error.code).toBe('dice/unsafe-integer');
    expect(diceError(() => rollTotal('9007199254740991+1', onesDice)).code).toBe(
      'dice/unsafe-integer',
    );
    expect(diceError(() => rollTotal('-9007199254740991-1', onesDice)).code).toBe(
      'dice/unsafe-integer',
    );
    expect(diceError(() => rollTotal('9007199254740991*2', onesDice)).code).toBe(
      'dice/unsafe-integer',
    );
    expect(diceError(() => rollTotal('4503599627370496*1d2', maxDice)).code).toBe(
      'dice/unsafe-integer',
    );
    expect(rollTotal('9007199254740991+0', onesDice)).toBe(9007199254740991);
    expect(rollTotal('9007199254740990+1d1', onesDice)).toBe(9007199254740991);
  });

  it('large divisions are exact', () => {
    expect(rollTotal('9007199254740991/2', onesDice)).toBe(4503599627370495);
    expect(rollTotal('ceil(9007199254740991/2)', onesDice)).toBe(4503599627370496);
    expect(rollTotal('-9007199254740991/2', onesDice)).toBe(-4503599627370496);
  });

  it('no -0 from + - * and negation', () => {
    for (const expression of ['0*-1', '-(0)', '1d1-1', '-1d1+1', 'ceil(-1/2)', 'round(-1/3)']) {
      expect(Object.is(rollTotal(expression, onesDice), 0)).toBe(true);
      expect(Object.is(rollDice(expression, { dice: onesDice }).total, 0)).toBe(true);
    }
  });

  it('no -0 from division: 0/-5 totals 0, not -0', () => {
    expect(Object.is(rollTotal('0/-5', onesDice), 0)).toBe(true);
    expect(Object.is(rollDice('(1d1-1)/-2', { dice: onesDice }).total, 0)).toBe(true);
  });

  it('division by zero', () => {
    const error = diceError(() => rollDice('1d6/0', { dice: onesDice }));
    expect(error.code).toBe('dice/division-by-zero');
    expect(error.column).toBe(1);
    expect(diceError(() => rollTotal('1/0', onesDice)).code).toBe('dice/division-by-zero');
    expect(diceError(() => rollTotal('4/(1d6-1)', onesDice)).code).toBe('dice/division-by-zero');
    expect(diceError(() => rollTotal('round(4/0)', onesDice)).code).toBe('dice/division-by-zero');
  });
});

describe('entered dice', () => {
  it('7 on a d6 is rejected', () => {
    const error = diceError(() => rollDice('1d6', { dice: enteredDice([7]) }));
    expect(error.code).toBe('dice/entered-out-of-range');
    expect(error.message).toContain('7');
    expect(error.message).toContain('d6');
  });

  it.each([[0], [-1], [1.5], [Number.NaN]])('%d on a d6 is rejected', (face) => {
    expect(diceError(() => rollDice('1d6', { dice: enteredDice([face]) })).code).toBe(
      'dice/entered-out-of-range',
    );
    expect(diceError(() => rollTotal('1d6', enteredDice([face]))).code).toBe(
      'dice/entered-out-of-range',
    );
  });

  it('the out-of-range face is numbered', () => {
    const error = diceError(() => rollDice('3d6', { dice: enteredDice([1, 2, 9]) }));
    expect(error.message).toContain('entered die 3');
  });

  it('a d10 accepts 0 as 10, and 10 too', () => {
    expect(text('2d10', [0, 10])).toBe('2d10 = [10, 10] = 20');
    expect(diceError(() => rollDice('1d10', { dice: enteredDice([11]) })).code).toBe(
      'dice/entered-out-of-range',
    );
  });

  it('too few faces: the error says how many more dice', () => {
    const error = diceError(() => rollDice('3d6', { dice: enteredDice([1]) }));
    expect(error.code).toBe('dice/entered-too-few');
    expect(error.message).toContain('2 more dice');
    expect(error.message).toContain('d6, d6');
    const one = diceError(() => rollDice('1d6+1d8', { dice: enteredDice([3]) }));
    expect(one.message).toContain('1 more die');
    expect(one.message).toContain('d8');
    const fast = diceError(() => rollTotal('3d6', enteredDice([1])));
    expect(fast.code).toBe('dice/entered-too-few');
    expect(fast.message).toContain('2 more dice');
  });

  it('too few faces for rerolls and explosions stops instead of spinning', () => {
    expect(diceError(() => rollDice('1d6r1', { dice: enteredDice([1]) })).code).toBe(
      'dice/entered-too-few',
    );
    expect(diceError(() => rollDice('1d6!', { dice: enteredDice([6]) })).code).toBe(
      'dice/entered-too-few',
    );
    expect(diceError(() => rollDice('1d6!!', { dice: enteredDice([6]) })).code).toBe(
      'dice/entered-too-few',
    );
    expect(diceError(() => rollDice('fs', { dice: enteredDice([6]) })).code).toBe(
      'dice/entered-too-few',
    );
    expect(diceError(() => rollDice('d%', { dice: enteredDice([]) })).message).toContain(
      'd10, d10',
    );
  });

  it('too few faces is reported even when the placeholder face would divide by zero', () => {
    const error = diceError(() => rollDice('10/(1d2-1)', { dice: enteredDice([]) }));
    expect(error.code).toBe('dice/entered-too-few');
  });

  it('an EnteredDice reports what is left', () => {
    const dice = enteredDice([1, 2, 3]);
    expect(rollDice('1d6', { dice }).total).toBe(1);
    expect(dice.remaining).toBe(2);
    expect(dice.exhausted).toBe(false);
  });

  it('parseEnteredFaces reads commas and spaces', () => {
    expect(parseEnteredFaces('3,5, 6  1')).toEqual([3, 5, 6, 1]);
    expect(diceError(() => parseEnteredFaces('')).code).toBe('dice/entered-out-of-range');
    expect(diceError(() => parseEnteredFaces('3,x')).code).toBe('dice/entered-out-of-range');
    expect(diceError(() => parseEnteredFaces('1.5')).code).toBe('dice/entered-out-of-range');
  });
});

describe('seeded dice', () => {
  it('the same seed gives the same text', () => {
    for (const expression of ['4d6kh3+d%', '10d10!>=8', 'fs', '{4d6, 3d8}kh1', '(1d4)d6r1']) {
      const a = rollDice(expression, { dice: seededDice(7) });
      const b = rollDice(expression, { dice: seededDice(7) });
      expect(a.text).toBe(b.text);
      expect(a.total).toBe(b.total);
    }
  });

  it('the same seed gives the same rolls through roll() too', () => {
    expect(roll('20d20', { dice: seededDice('encounter 1') }).text).toBe(
      roll('20d20', { dice: seededDice('encounter 1') }).text,
    );
  });

  it('roll() without a source rolls with fresh randomness', () => {
    const result = roll('3d6');
    expect(result.total).toBeGreaterThanOrEqual(3);
    expect(result.total).toBeLessThanOrEqual(18);
  });

  it('different seeds give different streams', () => {
    const stream = (seed: number | string): number[] => {
      const dice = seededDice(seed);
      return Array.from({ length: 20 }, () => dice.roll(1000));
    };
    expect(stream(1)).not.toEqual(stream(2));
    expect(stream(1)).not.toEqual(stream(2 ** 32 + 1));
    expect(stream('a')).not.toEqual(stream('b'));
    expect(stream(0)).not.toEqual(stream(-1));
    expect(stream('seed')).toEqual(stream('seed'));
  });

  it('state save/restore resumes the same stream', () => {
    const dice = seededDice(2024);
    const before = Array.from({ length: 10 }, () => dice.roll(20));
    const saved = dice.state;
    const after = Array.from({ length: 50 }, () => dice.roll(20));
    const resumed = seededDice(saved);
    expect(Array.from({ length: 50 }, () => resumed.roll(20))).toEqual(after);
    expect(before).toHaveLength(10);
    expect(resumed.state).toEqual(dice.state);
  });

  it('state save/restore resumes the same rolls of expressions', () => {
    const dice = seededDice(99);
    rollDice('4d6kh3', { dice });
    const saved = dice.state;
    const next = rollDice('10d10!>=8 + fs', { dice }).text;
    expect(rollDice('10d10!>=8 + fs', { dice: seededDice(saved) }).text).toBe(next);
  });

  it('the state is a snapshot, not a live view', () => {
    const dice = seededDice(5);
    const saved = dice.state;
    dice.roll(6);
    expect(dice.state).not.toEqual(saved);
  });

  it('JSON.stringify(state) round-trips', () => {
    const dice = seededDice('campaign');
    dice.roll(6);
    const state = dice.state;
    const json = JSON.stringify(state);
    const restored = JSON.parse(json) as SeededDiceState;
    expect(restored).toEqual(state);
    expect(restored.algorithm).toBe('xoshiro128**');
    expect(restored.words).toHaveLength(4);
    for (const word of restored.words) {
      expect(Number.isInteger(word)).toBe(true);
      expect(word).toBeGreaterThanOrEqual(0);
      expect(word).toBeLessThan(2 ** 32);
    }
    const a = seededDice(restored);
    const b = seededDice(state);
    expect(Array.from({ length: 20 }, () => a.roll(100))).toEqual(
      Array.from({ length: 20 }, () => b.roll(100)),
    );
  });

  it('new SeededDice(state) is the same as seededDice(state)', () => {
    const state = seededDice(3).state;
    expect(new SeededDice(state).next32()).toBe(seededDice(state).next32());
  });

  const badStates: [string, unknown][] = [
    ['all zero words', { algorithm: 'xoshiro128**', words: [0, 0, 0, 0] }],
    ['three words', { algorithm: 'xoshiro128**', words: [1, 2, 3] }],
    ['five words', { algorithm: 'xoshiro128**', words: [1, 2, 3, 4, 5] }],
    ['a negative word', { algorithm: 'xoshiro128**', words: [1, -2, 3, 4] }],
    ['a word of 2^32', { algorithm: 'xoshiro128**', words: [1, 2 ** 32, 3, 4] }],
    ['a fraction', { algorithm: 'xoshiro128**', words: [1, 2.5, 3, 4] }],
    ['a string word', { algorithm: 'xoshiro128**', words: [1, '2', 3, 4] }],
    ['another algorithm', { algorithm: 'mulberry32', words: [1, 2, 3, 4] }],
    ['no algorithm', { words: [1, 2, 3, 4] }],
    ['no words', { algorithm: 'xoshiro128**' }],
    ['words not an array', { algorithm: 'xoshiro128**', words: '1,2,3,4' }],
  ];

  it.each(badStates)('a bad state (%s) is rejected with dice/bad-seed', (_what, state) => {
    const error = diceError(() => seededDice(state as SeededDiceState));
    expect(error.code).toBe('dice/bad-seed');
  });

  it.each([[1.5], [Number.NaN], [Number.POSITIVE_INFINITY], [2 ** 53]])(
    'a bad numeric seed (%d) is rejected with dice/bad-seed',
    (seed) => {
      expect(diceError(() => seededDice(seed)).code).toBe('dice/bad-seed');
    },
  );

  it('negative, zero and large safe seeds are fine', () => {
    for (const seed of [0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, '']) {
      const face = seededDice(seed).roll(6);
      expect(face).toBeGreaterThanOrEqual(1);
      expect(face).toBeLessThanOrEqual(6);
    }
  });

  it('a d1 always shows 1 and a d2^32 stays in range', () => {
    const dice = seededDice(11);
    for (let i = 0; i < 100; i++) {
      expect(dice.roll(1)).toBe(1);
      const big = dice.roll(2 ** 32);
      expect(big).toBeGreaterThanOrEqual(1);
      expect(big).toBeLessThanOrEqual(2 ** 32);
      expect(Number.isInteger(big)).toBe(true);
    }
  });

  it('the explained roll and the total-only roll use the same dice', () => {
    for (const expression of ['4d6kh3', '3d6+d%', '(1d4)d6', '1d20ro<=3 + 2d6!', 'fs']) {
      const a = seededDice(42);
      const b = seededDice(42);
      expect(parseDice(expression).total(a)).toBe(parseDice(expression).roll({ dice: b }).total);
      expect(a.state).toEqual(b.state);
    }
  });
});

describe('errors thrown while rolling are DiceErrors with a place', () => {
  it('carry the expression and a caret', () => {
    const error = diceError(() => rollDice('2 + 1d0', { dice: onesDice }));
    expect(error).toBeInstanceOf(DiceError);
    expect(error.expression).toBe('2 + 1d0');
    expect(error.column).toBe(7);
    expect(error.explain().split('\n')[2]).toBe('        ^');
  });
});
