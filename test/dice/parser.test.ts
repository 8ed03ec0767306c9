import { describe, expect, it } from 'vitest';
import { parseDiceNotation } from '../../src/dice/notation/parser.js';
import {
  type DiceAst,
  DiceError,
  type DiceErrorCode,
  type DiceGroup,
  type DiceRoll,
  parseDice,
  rollTotal,
} from '../../src/index.js';
import { constantDice, diceError, maxDice, onesDice } from './helpers.js';

function ast(expression: string): DiceAst {
  return parseDiceNotation(expression);
}

function diceAst(expression: string): DiceRoll {
  const node = ast(expression);
  if (node.kind !== 'dice') throw new Error(`${expression} did not parse as dice: ${node.kind}`);
  return node;
}

function groupAst(expression: string): DiceGroup {
  const node = ast(expression);
  if (node.kind !== 'group') throw new Error(`${expression} did not parse as a group`);
  return node;
}

/** The value of an expression without dice (or with every die showing `face`). */
function value(expression: string, face = 1, variables = {}): number {
  return rollTotal(expression, constantDice(face), variables);
}

/** The parse error of `expression`, checked to be a DiceError with a caret at its column. */
function parseError(expression: string): DiceError {
  const error = diceError(() => parseDiceNotation(expression));
  expect(error).toBeInstanceOf(DiceError);
  expect(error.name).toBe('DiceError');
  expect(error.expression).toBe(expression);
  expect(error.span).toBeDefined();
  return error;
}

/** The line of carets in explain(), and where the first caret is, as a 1-based column. */
function caret(error: DiceError): { line: string; column: number; width: number } {
  const lines = error.explain().split('\n');
  expect(lines).toHaveLength(3);
  expect(lines[0]).toBe(`${error.message} at column ${error.column}`);
  expect(lines[1]).toBe(`  ${error.expression}`);
  const line = lines[2]!;
  expect(line.startsWith('  ')).toBe(true);
  const carets = line.slice(2);
  expect(carets).toMatch(/^ *\^+$/);
  return {
    line,
    column: carets.indexOf('^') + 1,
    width: carets.length - carets.indexOf('^'),
  };
}

describe('numbers, arithmetic and precedence', () => {
  it.each([
    ['42', 42],
    ['0', 0],
    ['2+3*4', 14],
    ['(2+3)*4', 20],
    ['2*3+4', 10],
    ['10-2-3', 5],
    ['100/10/5', 2],
    ['7/2*2', 6],
    ['2*3/4', 1],
    ['1+2-3+4', 4],
    ['2 * ( 3 + 4 ) - 5', 9],
    ['\t1 +\t2 ', 3],
  ])('%s = %d', (expression, expected) => {
    expect(value(expression)).toBe(expected);
  });

  it('arithmetic is left-associative', () => {
    const tree = ast('10-2-3');
    expect(tree.kind).toBe('arithmetic');
    if (tree.kind !== 'arithmetic') return;
    expect(tree.operator).toBe('-');
    expect(tree.left.kind).toBe('arithmetic');
    expect(tree.right).toMatchObject({ kind: 'number', value: 3 });
  });

  it('* binds tighter than +', () => {
    const tree = ast('1+2*3');
    expect(tree).toMatchObject({
      kind: 'arithmetic',
      operator: '+',
      left: { kind: 'number', value: 1 },
      right: { kind: 'arithmetic', operator: '*' },
    });
  });

  it.each([
    ['-3', -3],
    ['--3', 3],
    ['+3', 3],
    ['2*-3', -6],
    ['2--3', 5],
    ['-(2+3)', -5],
    ['- 4 + 1', -3],
    ['-0', 0],
  ])('unary minus and plus: %s = %d', (expression, expected) => {
    expect(value(expression)).toBe(expected);
  });

  it('-0 is not produced', () => {
    expect(Object.is(value('-0'), 0)).toBe(true);
    expect(Object.is(value('0*-1'), 0)).toBe(true);
  });

  it('unary minus binds tighter than dice arithmetic: -1d6+1 is (-1d6)+1', () => {
    const tree = ast('-1d6+1');
    expect(tree).toMatchObject({
      kind: 'arithmetic',
      operator: '+',
      left: { kind: 'negate', operand: { kind: 'dice' } },
    });
    expect(value('-1d6+1', 6)).toBe(-5);
  });

  it('"/" floors, for negative values too', () => {
    expect(value('7/2')).toBe(3);
    expect(value('-7/2')).toBe(-4);
    expect(value('7/-2')).toBe(-4);
    expect(value('-7/-2')).toBe(3);
    expect(value('6/3')).toBe(2);
  });

  it('parentheses are kept in the tree, so explanations show them', () => {
    expect(ast('(1+2)')).toMatchObject({ kind: 'parens', inner: { kind: 'arithmetic' } });
  });

  it('spans cover the text they came from', () => {
    const tree = ast('1 + 2d6kh1');
    expect(tree.span).toEqual({ start: 0, end: 10 });
    if (tree.kind !== 'arithmetic') throw new Error('expected arithmetic');
    expect(tree.right.span).toEqual({ start: 4, end: 10 });
  });
});

describe('functions', () => {
  it.each([
    ['floor(7/2)', 3],
    ['ceil(7/2)', 4],
    ['round(7/2)', 4],
    ['round(5/3)', 2],
    ['round(4/3)', 1],
    ['round(-7/2)', -3],
    ['ceil(-7/2)', -3],
    ['floor(-7/2)', -4],
    ['ceil(6/3)', 2],
    ['abs(-5)', 5],
    ['abs(5)', 5],
    ['min(3, 1, 2)', 1],
    ['max(3, 1, 2)', 3],
    ['max(4)', 4],
    ['min(-1,-2)', -2],
    ['max(1, min(5, 3))', 3],
    ['round((7/2))', 4],
    ['ceil ( 7 / 2 )', 4],
  ])('%s = %d', (expression, expected) => {
    expect(value(expression)).toBe(expected);
  });

  it('floor/ceil/round choose the rounding of the division directly inside them only', () => {
    // round(a/b + 1): the division is under '+', which floors: 5/2 = 2, + 1 = 3.
    expect(value('round(5/2 + 1)')).toBe(3);
    expect(value('round(5/2) + 1')).toBe(4);
    // Inside a function argument the rounding resets too.
    expect(value('ceil(max(7/2, 1))')).toBe(3);
  });

  it('parses calls into the tree with their arguments', () => {
    expect(ast('max(1d6, 2)')).toMatchObject({
      kind: 'call',
      name: 'max',
      args: [{ kind: 'dice' }, { kind: 'number', value: 2 }],
    });
  });

  it('a function of one argument rejects two', () => {
    const error = parseError('floor(1,2)');
    expect(error.code).toBe('dice/bad-argument');
    expect(error.column).toBe(1);
  });

  it('min and max need an argument', () => {
    expect(parseError('max()').code).toBe('dice/bad-argument');
    expect(parseError('min( )').code).toBe('dice/bad-argument');
  });

  it('an unknown function is named, with the known ones', () => {
    const error = parseError('foo(1)');
    expect(error.code).toBe('dice/unknown-function');
    expect(error.column).toBe(1);
    expect(error.message).toContain("'foo'");
    expect(error.message).toContain('floor');
    expect(caret(error)).toMatchObject({ column: 1, width: 3 });
  });

  it('an unknown function later in the expression points at its name', () => {
    const error = parseError('1d6 + sqrt(4)');
    expect(error.code).toBe('dice/unknown-function');
    expect(error.column).toBe(7);
    expect(caret(error)).toMatchObject({ column: 7, width: 4 });
  });
});

describe('variables', () => {
  it('parses names as variables', () => {
    expect(ast('STR')).toMatchObject({ kind: 'variable', name: 'STR' });
    expect(ast('weapon_2')).toMatchObject({ kind: 'variable', name: 'weapon_2' });
  });

  it('a name starting with d is a name unless sides follow', () => {
    expect(ast('dex')).toMatchObject({ kind: 'variable', name: 'dex' });
    expect(ast('d')).toMatchObject({ kind: 'variable', name: 'd' });
    expect(ast('d6').kind).toBe('dice');
  });

  it('uses variable values: 2*AGI + 3', () => {
    expect(value('2*AGI + 3', 1, { AGI: 10 })).toBe(23);
    expect(value('(WPN*10) + AP', 1, { WPN: 3, AP: 5 })).toBe(35);
  });
});

describe('dice', () => {
  it('NdS', () => {
    const node = diceAst('3d6');
    expect(node.count).toMatchObject({ kind: 'number', value: 3 });
    expect(node.faces).toMatchObject({ kind: 'standard', sides: { kind: 'number', value: 6 } });
    expect(node.modifiers).toEqual({
      reroll: undefined,
      explode: undefined,
      keep: undefined,
      success: undefined,
      failure: undefined,
    });
  });

  it('dS means 1dS', () => {
    expect(diceAst('d20').count).toMatchObject({ kind: 'number', value: 1 });
    expect(value('d20', 20)).toBe(20);
  });

  it('upper case D: 1D6', () => {
    expect(diceAst('1D6').faces).toMatchObject({ sides: { value: 6 } });
    expect(value('2D6', 6)).toBe(12);
  });

  it('FS as well as fs is Feng Shui', () => {
    expect(ast('fs')).toMatchObject({ kind: 'fengshui' });
    expect(ast('FS')).toMatchObject({ kind: 'fengshui' });
    expect(ast('fs + 2')).toMatchObject({ kind: 'arithmetic', left: { kind: 'fengshui' } });
  });

  it('d% is percentile', () => {
    expect(diceAst('d%').faces).toEqual({ kind: 'percentile' });
    expect(diceAst('2d%').count).toMatchObject({ value: 2 });
  });

  it('0d6 is no dice at all', () => {
    expect(value('0d6')).toBe(0);
  });

  it('computed count: (1d4)d6', () => {
    const node = diceAst('(1d4)d6');
    expect(node.count).toMatchObject({ kind: 'parens', inner: { kind: 'dice' } });
    // Every die shows 4: four d6 showing 4.
    expect(value('(1d4)d6', 4)).toBe(16);
  });

  it('computed sides: 1d(1d6)', () => {
    const node = diceAst('1d(1d6)');
    expect(node.faces).toMatchObject({
      kind: 'standard',
      sides: { kind: 'parens', inner: { kind: 'dice' } },
    });
    expect(value('1d(1d6)', 6)).toBe(6);
    expect(value('2d(2+2)', 6)).toBe(8);
  });

  it('computed count and sides together: (1+1)d(2*3)', () => {
    expect(value('(1+1)d(2*3)', 6)).toBe(12);
  });

  it('dice bind tighter than arithmetic: 2*3d6 is 2*(3d6)', () => {
    expect(ast('2*3d6')).toMatchObject({
      kind: 'arithmetic',
      operator: '*',
      right: { kind: 'dice' },
    });
    expect(value('2*3d6', 6)).toBe(36);
  });

  it('huge dice are parsed (and refused later, when rolled)', () => {
    expect(diceAst('1d4294967296').faces).toMatchObject({ sides: { value: 4294967296 } });
  });
});

describe('modifiers', () => {
  it.each([
    ['4d6kh3', 'kh', 3],
    ['4d6kl1', 'kl', 1],
    ['4d6dh1', 'dh', 1],
    ['4d6dl1', 'dl', 1],
    ['4d6k3', 'kh', 3],
    ['2d20k', 'kh', 1],
    ['2d20kh', 'kh', 1],
    ['2d20kl', 'kl', 1],
    ['3d6kh0', 'kh', 0],
  ])('keep/drop %s', (expression, mode, count) => {
    expect(diceAst(expression).modifiers.keep).toEqual({ mode, count });
  });

  it.each([
    ['1d6r', [{ operator: '=', value: 1 }], false],
    ['1d6r1', [{ operator: '=', value: 1 }], false],
    ['1d6r<3', [{ operator: '<', value: 3 }], false],
    ['1d6r<=2', [{ operator: '<=', value: 2 }], false],
    ['1d6r>5', [{ operator: '>', value: 5 }], false],
    ['1d6r>=5', [{ operator: '>=', value: 5 }], false],
    ['1d6r=2', [{ operator: '=', value: 2 }], false],
    [
      '1d6r1r2',
      [
        { operator: '=', value: 1 },
        { operator: '=', value: 2 },
      ],
      false,
    ],
    ['1d20ro<=3', [{ operator: '<=', value: 3 }], true],
    ['1d6ro', [{ operator: '=', value: 1 }], true],
  ])('reroll %s', (expression, when, once) => {
    expect(diceAst(expression).modifiers.reroll).toEqual({ when, once });
  });

  it.each([
    ['1d6!', undefined, false],
    ['1d6!!', undefined, true],
    ['1d6!>=5', { operator: '>=', value: 5 }, false],
    ['1d6!!5', { operator: '=', value: 5 }, true],
    ['1d6!>4', { operator: '>', value: 4 }, false],
  ])('explode %s', (expression, when, compound) => {
    expect(diceAst(expression).modifiers.explode).toEqual({ when, compound });
  });

  it('success and failure compare points: 5d10>=8f1', () => {
    const { modifiers } = diceAst('5d10>=8f1');
    expect(modifiers.success).toEqual({ operator: '>=', value: 8 });
    expect(modifiers.failure).toEqual({ operator: '=', value: 1 });
  });

  it.each([
    ['5d10>7', '>', 7],
    ['5d10<3', '<', 3],
    ['5d10=10', '=', 10],
    ['5d10<=2', '<=', 2],
  ])('success %s', (expression, operator, compare) => {
    expect(diceAst(expression).modifiers.success).toEqual({ operator, value: compare });
  });

  it('failure with a compare operator: 5d10>=8f<3', () => {
    expect(diceAst('5d10>=8f<3').modifiers.failure).toEqual({ operator: '<', value: 3 });
  });

  it('modifiers combine in any written order', () => {
    const a = diceAst('4d6r1!!kh3>=4').modifiers;
    const b = diceAst('4d6>=4kh3!!r1').modifiers;
    expect(a).toEqual(b);
    expect(a.reroll).toBeDefined();
    expect(a.explode).toBeDefined();
    expect(a.keep).toBeDefined();
    expect(a.success).toBeDefined();
  });

  it('modifiers on d%, computed dice and entered as a dice tail', () => {
    expect(diceAst('2d%kh1').modifiers.keep).toEqual({ mode: 'kh', count: 1 });
    expect(diceAst('(1d4)d6kh1').modifiers.keep).toEqual({ mode: 'kh', count: 1 });
    expect(diceAst('1d(4)!').modifiers.explode).toBeDefined();
  });
});

describe('groups', () => {
  it('{4d6, 3d8}kh1', () => {
    const group = groupAst('{4d6, 3d8}kh1');
    expect(group.items).toHaveLength(2);
    expect(group.items[0]).toMatchObject({ kind: 'dice' });
    expect(group.modifiers.keep).toEqual({ mode: 'kh', count: 1 });
  });

  it('group items are whole expressions', () => {
    const group = groupAst('{1d6+2, 3, max(1,2)}');
    expect(group.items.map((item) => item.kind)).toEqual(['arithmetic', 'number', 'call']);
    expect(value('{1d6+2, 3, max(1,2)}', 6)).toBe(13);
  });

  it('groups keep, drop and count successes', () => {
    expect(value('{1,5,3}kh2')).toBe(8);
    expect(value('{1,5,3}kl1')).toBe(1);
    expect(value('{1,5,3}dh1')).toBe(4);
    expect(value('{1,5,3}dl2')).toBe(5);
    expect(value('{1,5,3}>=3')).toBe(2);
    expect(value('{1,5,3}>=3f1')).toBe(1);
  });

  it('a group of one, and nested groups', () => {
    expect(value('{7}')).toBe(7);
    expect(value('{{1,2}kh1, 5}kl1')).toBe(2);
  });
});

describe('parseDice', () => {
  it('caches: the same text gives the same DiceExpression', () => {
    expect(parseDice('3d6+1')).toBe(parseDice('3d6+1'));
    expect(parseDice('3d6+1').source).toBe('3d6+1');
  });

  it('an expression of exactly 1000 characters is accepted', () => {
    const expression = `1${'+1'.repeat(499)}0`;
    expect(expression).toHaveLength(1000);
    expect(value(expression)).toBe(1 + 498 + 10);
  });

  it('nesting of 64 levels is accepted', () => {
    expect(value(`${'('.repeat(64)}1${')'.repeat(64)}`)).toBe(1);
    expect(value(`${'-'.repeat(64)}1`)).toBe(1);
  });
});

describe('syntax errors: code, column and caret', () => {
  const cases: [string, DiceErrorCode, number, string][] = [
    ['', 'dice/syntax', 1, 'empty'],
    ['   ', 'dice/syntax', 1, 'empty'],
    ['3d6+', 'dice/syntax', 5, 'the end of the expression'],
    ['3d6+$', 'dice/syntax', 5, "'$'"],
    ['5.5d6', 'dice/syntax', 1, 'whole numbers'],
    ['1d6.5', 'dice/syntax', 3, 'whole numbers'],
    ['3d6kh2kh1', 'dice/bad-modifier', 7, 'twice'],
    ['3d6!!!', 'dice/bad-modifier', 6, 'twice'],
    ['5d10>=8>=9', 'dice/bad-modifier', 8, 'twice'],
    ['5d10>=8f1f2', 'dice/bad-modifier', 10, 'twice'],
    ['{1d6}r1', 'dice/bad-modifier', 6, 'group'],
    ['{1d6, 1d8}!', 'dice/bad-modifier', 11, 'group'],
    ['3d6ro1r2', 'dice/bad-modifier', 7, 'mixed'],
    ['1d6f', 'dice/bad-modifier', 4, 'compare point'],
    ['1d6>', 'dice/bad-modifier', 5, "'>'"],
    ['1d6r<', 'dice/bad-modifier', 6, "'<'"],
    ['(1', 'dice/syntax', 3, 'column 1'],
    ['((1)', 'dice/syntax', 5, 'column 1'],
    ['{1,2', 'dice/syntax', 5, 'column 1'],
    ['max(1,2', 'dice/syntax', 8, 'column 4'],
    ['1d(6', 'dice/syntax', 5, 'column 3'],
    ['1)', 'dice/syntax', 2, "')'"],
    ['3 d6', 'dice/syntax', 3, "'d'"],
    ['2d6 kh1', 'dice/syntax', 5, "'k'"],
    ['1d6d6', 'dice/syntax', 4, "'d'"],
    ['2^3', 'dice/syntax', 2, "'^'"],
    ['1++', 'dice/syntax', 4, 'the end'],
    ['*2', 'dice/syntax', 1, "'*'"],
    ['()', 'dice/syntax', 2, "')'"],
    ['{}', 'dice/syntax', 2, "'}'"],
    ['99999999999999999999', 'dice/syntax', 1, 'too large'],
    ['4d6kh99999999999999999', 'dice/syntax', 6, 'too large'],
    ['1d6 + 9007199254740992', 'dice/syntax', 7, 'too large'],
  ];

  it.each(cases)('%j -> %s at column %d', (expression, code, column, message) => {
    const error = parseError(expression);
    expect(error.code).toBe(code);
    expect(error.column).toBe(column);
    expect(error.message).toContain(message);
    expect(caret(error).column).toBe(column);
  });

  it('3d6+$ explains with a caret under column 5', () => {
    const error = parseError('3d6+$');
    expect(error.explain()).toBe(
      "unexpected '$': expected a number, dice, a name or '(' at column 5\n  3d6+$\n      ^",
    );
  });

  it('an empty expression explains with a caret at column 1', () => {
    const error = parseError('');
    expect(error.explain()).toBe('the expression is empty at column 1\n  \n  ^');
  });

  it('5.5d6 underlines the decimal number', () => {
    const error = parseError('5.5d6');
    expect(caret(error)).toMatchObject({ column: 1, width: 3 });
  });

  it('3d6kh2kh1: keep given twice underlines the second keep', () => {
    const error = parseError('3d6kh2kh1');
    expect(error.message).toBe('keep/drop is given twice');
    expect(caret(error)).toMatchObject({ column: 7, width: 3 });
  });

  it('{1d6}r1: reroll on a group is refused', () => {
    const error = parseError('{1d6}r1');
    expect(error.message).toContain('reroll applies to dice');
  });

  it('5d10f1: failures without successes are refused', () => {
    const error = parseError('5d10f1');
    expect(error.code).toBe('dice/bad-modifier');
    expect(error.message).toContain('5d10>=8f1');
  });

  it('5d10f1kh3: the failure error points at the f (column 5)', () => {
    const error = parseError('5d10f1kh3');
    expect(error.code).toBe('dice/bad-modifier');
    expect(error.column).toBe(5);
  });

  it('an over-long expression (more than 1000 characters) is refused at column 1001', () => {
    const expression = `1${'+1'.repeat(500)}`;
    expect(expression.length).toBeGreaterThan(1000);
    const error = parseError(expression);
    expect(error.code).toBe('dice/syntax');
    expect(error.column).toBe(1001);
    expect(error.message).toContain('1000');
    expect(error.message).toContain(String(expression.length));
  });

  it('a huge expression is refused without parsing it', () => {
    const error = parseError('('.repeat(1_000_000));
    expect(error.code).toBe('dice/syntax');
    expect(error.column).toBe(1001);
  });

  it('100 nested parentheses: a syntax error, not a stack overflow', () => {
    const expression = `${'('.repeat(100)}1${')'.repeat(100)}`;
    const error = parseError(expression);
    expect(error.code).toBe('dice/syntax');
    expect(error.message).toContain('nesting');
    expect(error.column).toBe(65);
    expect(caret(error).column).toBe(65);
  });

  it.each([
    ['unary minus', `${'-'.repeat(300)}1`],
    ['braces', `${'{'.repeat(300)}1${'}'.repeat(300)}`],
    ['function calls', `${'abs('.repeat(150)}1${')'.repeat(150)}`],
    ['computed sides', `${'1d('.repeat(200)}6${')'.repeat(200)}`],
    ['unclosed parentheses', '('.repeat(999)],
  ])('deep nesting of %s: a syntax error, not a stack overflow', (_what, expression) => {
    const error = parseError(expression);
    expect(error.code).toBe('dice/syntax');
    expect(error.message).toContain('nesting deeper than 64');
  });

  it('long flat expressions parse without recursion trouble', () => {
    const expression = `1${'+1d6'.repeat(199)}`;
    expect(expression.length).toBeLessThanOrEqual(1000);
    expect(value(expression, 6)).toBe(1 + 199 * 6);
  });

  it('errors are DiceErrors, and explain() without a place is the message', () => {
    const error = new DiceError('dice/bad-seed', 'no place');
    expect(error.column).toBeUndefined();
    expect(error.explain()).toBe('no place');
    expect(error).toBeInstanceOf(Error);
  });

  it('the same bad text always gives the same error (no cache of failures)', () => {
    const a = diceError(() => parseDice('3d6+$'));
    const b = diceError(() => parseDice('3d6+$'));
    expect(a.code).toBe(b.code);
    expect(a.column).toBe(b.column);
  });
});

describe('fixed sources used by these tests', () => {
  it('behave as described', () => {
    expect(maxDice.roll(8)).toBe(8);
    expect(onesDice.roll(8)).toBe(1);
    expect(constantDice(4).roll(3)).toBe(3);
  });
});
