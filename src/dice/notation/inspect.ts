import type { DiceAst } from './ast.js';

/** Every node of a syntax tree, parents before children. */
function* nodes(ast: DiceAst): Generator<DiceAst> {
  yield ast;
  switch (ast.kind) {
    case 'negate':
      yield* nodes(ast.operand);
      break;
    case 'parens':
      yield* nodes(ast.inner);
      break;
    case 'arithmetic':
      yield* nodes(ast.left);
      yield* nodes(ast.right);
      break;
    case 'call':
      for (const arg of ast.args) yield* nodes(arg);
      break;
    case 'dice':
      yield* nodes(ast.count);
      if (ast.faces.kind === 'standard') yield* nodes(ast.faces.sides);
      break;
    case 'group':
      for (const item of ast.items) yield* nodes(item);
      break;
    default:
      break;
  }
}

/** The variable names an expression uses, so content can be checked before anything rolls. */
export function variablesUsed(ast: DiceAst): string[] {
  const names = new Set<string>();
  for (const node of nodes(ast)) if (node.kind === 'variable') names.add(node.name);
  return [...names];
}

/** True when evaluating the expression rolls at least one die. */
export function rollsDice(ast: DiceAst): boolean {
  for (const node of nodes(ast)) if (node.kind === 'dice' || node.kind === 'fengshui') return true;
  return false;
}

/** Every dice term whose count is written as a number (`4294967296d9`), for limit checks. */
export function literalDiceTerms(ast: DiceAst): Extract<DiceAst, { kind: 'dice' }>[] {
  const found: Extract<DiceAst, { kind: 'dice' }>[] = [];
  for (const node of nodes(ast))
    if (node.kind === 'dice' && node.count.kind === 'number') found.push(node);
  return found;
}
