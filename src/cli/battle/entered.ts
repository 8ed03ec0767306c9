import type { DiceAst } from '../../dice/index.js';
import { DiceError, parseDice, parseEnteredFaces } from '../../dice/index.js';
import type { EnteredRoll } from '../../engine/index.js';
import type { RollSlot } from '../../rulesets/system.js';

/**
 * What a GM typed for one roll, as the engine reads it: `3,5` (or `3 5`) the faces as they lie;
 * one number what the dice show, a one-die roll's face or several dice added (`10` on
 * `2*AGI + d12` is the d12's 10); `total:32` a total with the modifiers already added, marked
 * because a bare number never is one. Throws a DiceError saying what is wrong.
 */
export function parseEnteredRoll(text: string): EnteredRoll {
  const marked = /^\s*total\s*:\s*(.*)$/i.exec(text);
  if (marked !== null) {
    const value = marked[1]!.trim();
    if (!/^-?\d{1,10}$/.test(value)) {
      throw new DiceError(
        'dice/entered-out-of-range',
        `a total is one whole number, as total:32, not '${value}'`,
      );
    }
    return { total: Number(value) };
  }
  const faces = parseEnteredFaces(text);
  return faces.length === 1 ? { sum: faces[0]! } : faces;
}

/**
 * What the slot adds to a dice prompt: the roll with the roller's numbers where the rule has
 * names (`1d10+SPD` is `d10 + 5`), and what it takes: ` = d10 + 5 [die 0–10 · total 6–15]`.
 */
export function slotHint(slot: RollSlot | undefined): string {
  if (slot === undefined) return '';
  // d% and Feng Shui's dice are explained by entryHint; their labels would say it twice.
  const named = slot.label !== slot.notation && !slot.label.includes(',') ? ` = ${slot.label}` : '';
  return `${named}${slot.accepts === '' ? '' : ` [${slot.accepts}]`}`;
}

/** How a dice prompt says what to type for a roll of this notation. */
export function entryHint(notation: string): string {
  if (notation.includes('d%'))
    return ' (two d10, tens then ones: 2 8 is 28, 0 0 is 100; or 28 as one number)';
  if (/\bfs\b/.test(notation))
    return ' (the positive die, with a reroll after each 6, then the negative die: 6 3 2 is 9 - 2)';
  let ast: DiceAst;
  try {
    ast = parseDice(notation).ast;
  } catch {
    return ' (the faces as they lie)';
  }
  const faces =
    diceCount(ast) === 1 ? 'the die as it lies' : 'the faces as they lie, 3 5, or their sum';
  return diceAlone(ast) ? ` (${faces})` : ` (${faces}; total:N for the total with modifiers)`;
}

/** The dice a notation rolls when it says so plainly; undefined when a roll decides (`(1d4)d6`). */
function diceCount(ast: DiceAst): number | undefined {
  switch (ast.kind) {
    case 'dice':
      return ast.count.kind === 'number' ? ast.count.value : undefined;
    case 'group':
      return undefined;
    case 'fengshui':
      return 2;
    case 'negate':
      return diceCount(ast.operand);
    case 'parens':
      return diceCount(ast.inner);
    case 'arithmetic': {
      const left = diceCount(ast.left);
      const right = diceCount(ast.right);
      return left === undefined || right === undefined ? undefined : left + right;
    }
    case 'call': {
      let count = 0;
      for (const arg of ast.args) {
        const n = diceCount(arg);
        if (n === undefined) return undefined;
        count += n;
      }
      return count;
    }
    default:
      return 0;
  }
}

/** True when the notation is its dice and nothing else: what they show is its total. */
function diceAlone(ast: DiceAst): boolean {
  if (ast.kind === 'parens') return diceAlone(ast.inner);
  return ast.kind === 'dice' || ast.kind === 'group' || ast.kind === 'fengshui';
}
