import type { Die, GroupItem, RollNode } from './tree.js';

/**
 * One line that shows a roll the way a person checks it: the expression, every die, the total.
 * `4d6kh3 = [6, 5, 5, 1d] = 16`. Marks: `d` dropped, `!` exploded, `!!` compounded,
 * `~1~` a face rerolled away, `*` a success, `_` a failure; d% shows its tens and ones dice
 * as `70+3`.
 */
export function describeRoll(expression: string, tree: RollNode): string {
  return `${expression.trim()} = ${renderNode(tree)} = ${tree.value}`;
}

export function renderNode(node: RollNode): string {
  switch (node.kind) {
    case 'number':
      return String(node.value);
    case 'variable':
      return String(node.value);
    case 'negate':
      return `-${renderNode(node.operand)}`;
    case 'parens':
      return `(${renderNode(node.inner)})`;
    case 'arithmetic':
      return `${renderNode(node.left)} ${node.operator} ${renderNode(node.right)}`;
    case 'call':
      return `${node.name}(${node.args.map(renderNode).join(', ')})`;
    case 'dice': {
      const list = renderDiceList(node.dice);
      if (node.computedCount === undefined && node.computedSides === undefined) return list;
      const count =
        node.computedCount === undefined ? String(node.count) : renderOperand(node.computedCount);
      const sides =
        node.computedSides === undefined
          ? node.percentile
            ? '%'
            : String(node.sides)
          : renderOperand(node.computedSides);
      return `${count}d${sides}:${list}`;
    }
    case 'group':
      return `{${node.items.map(renderGroupItem).join(', ')}}`;
    case 'fengshui': {
      const boxcars = node.boxcars ? ' boxcars' : '';
      return `(+${renderChain(node.positive)} -${renderChain(node.negative)}${boxcars})`;
    }
  }
}

/** A computed count or number of sides, bracketed once. */
function renderOperand(node: RollNode): string {
  return node.kind === 'parens' ? renderNode(node) : `(${renderNode(node)})`;
}

function renderGroupItem(item: GroupItem): string {
  const shown =
    item.node.kind === 'number'
      ? String(item.node.value)
      : `${renderNode(item.node)} = ${item.node.value}`;
  return shown + (item.kept ? '' : 'd') + outcomeMark(item.outcome);
}

function outcomeMark(outcome: GroupItem['outcome']): string {
  return outcome === 'success' ? '*' : outcome === 'failure' ? '_' : '';
}

function renderFace(die: Die, index: number): string {
  const digits = die.digits?.[index];
  if (digits === undefined) return String(die.faces[index]);
  return `${digits[0]}0+${digits[1]}`;
}

/**
 * A list shows at most this many dice, and a die at most this many of its rerolled faces; the
 * rest is counted. Without it 10000d4294967296r<4294967296 printed one 12.9 MB line. The total
 * and the roll tree (`--json`'s detail) keep every die.
 */
export const MAX_DICE_SHOWN = 100;
export const MAX_REROLLS_SHOWN = 3;

/** Built with plain concatenation: this runs once per explained roll. */
function renderDiceList(dice: readonly Die[]): string {
  let list = '[';
  const shown = Math.min(dice.length, MAX_DICE_SHOWN);
  for (let i = 0; i < shown; i++) {
    if (i > 0) list += ', ';
    list += renderDie(dice[i]!);
  }
  if (dice.length > shown) list += `, ... ${dice.length - shown} more dice`;
  return `${list}]`;
}

function renderDie(die: Die): string {
  let shown = '';
  if (die.compounded) {
    shown = `${die.value}!!`;
  } else {
    const last = die.faces.length - 1;
    const listed = Math.min(last, MAX_REROLLS_SHOWN);
    for (let i = 0; i < listed; i++) shown += `~${renderFace(die, i)}~ `;
    if (last > listed) shown += `~${last - listed} more~ `;
    shown += renderFace(die, last);
    if (die.exploded) shown += '!';
  }
  if (!die.kept) shown += 'd';
  return shown + outcomeMark(die.outcome);
}

/** A Feng Shui die with each face it added: `[6!, 6!, 2]`. */
function renderChain(die: Die): string {
  return `[${die.faces.map((face, i) => (i < die.faces.length - 1 ? `${face}!` : String(face))).join(', ')}]`;
}
