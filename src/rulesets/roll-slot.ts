/**
 * What a person at the table needs to enter a roll: the dice written as they lie, with the
 * roller's numbers in place of the rule's variables (`d10 + 20`, not `1d10+SPD`), and the
 * numbers each way of entering it may take. Pure: every system's rolls.ts builds its slots here.
 */
import { type DiceAst, diceDistribution, parseDice, type Variables } from '../dice/index.js';
import type { RollRange, RollSlot } from './system.js';

/** A d10 (and a d100) reads its tenth face as 0: the entry takes 0 for it (dice/random/entered). */
function lowestFace(sides: number): number {
  return sides === 10 || sides === 100 ? 0 : 1;
}

const HAS_MODIFIERS = (ast: Extract<DiceAst, { kind: 'dice' | 'group' }>): boolean => {
  const m = ast.modifiers;
  return (
    m.reroll !== undefined ||
    m.explode !== undefined ||
    m.keep !== undefined ||
    m.success !== undefined ||
    m.failure !== undefined
  );
};

/** The notation as a person reads it: `d12 + 20`, `d% (tens, units)`, `positive die, negative die`. */
function label(source: string, ast: DiceAst, variables: Variables): string {
  // The part without dice, worked out: `2*AGI + d12` with AGI 10 reads `20 + d12`.
  const constant = (node: DiceAst): number | undefined => {
    switch (node.kind) {
      case 'number':
        return node.value;
      case 'variable':
        return Object.hasOwn(variables, node.name) ? variables[node.name] : undefined;
      case 'negate': {
        const v = constant(node.operand);
        return v === undefined ? undefined : -v;
      }
      case 'parens':
        return constant(node.inner);
      case 'arithmetic': {
        // Division rounds by the roll's own rules: left as written.
        if (node.operator === '/') return undefined;
        const l = constant(node.left);
        const r = constant(node.right);
        if (l === undefined || r === undefined) return undefined;
        return node.operator === '+' ? l + r : node.operator === '-' ? l - r : l * r;
      }
      default:
        return undefined;
    }
  };
  const text = (node: DiceAst): string => {
    const folded = constant(node);
    if (folded !== undefined) return String(folded);
    switch (node.kind) {
      case 'number':
        return String(node.value);
      case 'variable':
        return Object.hasOwn(variables, node.name) ? String(variables[node.name]) : node.name;
      case 'negate':
        return `-${text(node.operand)}`;
      case 'arithmetic':
        return `${text(node.left)} ${node.operator === '*' ? '×' : node.operator} ${text(node.right)}`;
      case 'parens':
        return `(${text(node.inner)})`;
      case 'call':
        return `${node.name}(${node.args.map(text).join(', ')})`;
      case 'dice': {
        if (HAS_MODIFIERS(node)) return source.slice(node.span.start, node.span.end);
        const count = text(node.count);
        const shown = count === '1' ? '' : count;
        // "Roll two ten-sided dice, one for tens, one for units": the order they are entered in.
        if (node.faces.kind === 'percentile')
          return `${shown}d% (tens, units${shown === '' ? '' : ' each'})`;
        return `${shown}d${text(node.faces.sides)}`;
      }
      case 'group':
        return source.slice(node.span.start, node.span.end);
      case 'fengshui':
        // Feng Shui's action dice, entered as they are read: the positive die's faces first.
        return 'positive die, negative die';
    }
  };
  return text(ast);
}

/** The dice a roll always lays down, by sides, when that is fixed (no explosions, no rerolls). */
function fixedDice(ast: DiceAst, variables: Variables): number[] | undefined {
  const value = (node: DiceAst): number | undefined => {
    if (node.kind === 'number') return node.value;
    if (node.kind === 'variable' && Object.hasOwn(variables, node.name))
      return variables[node.name];
    return undefined;
  };
  const dice: number[] = [];
  const visit = (node: DiceAst): boolean => {
    switch (node.kind) {
      case 'number':
      case 'variable':
        return true;
      case 'negate':
        return visit(node.operand);
      case 'parens':
        return visit(node.inner);
      case 'arithmetic':
        return visit(node.left) && visit(node.right);
      case 'call':
        return node.args.every(visit);
      case 'dice': {
        const count = value(node.count);
        if (count === undefined || HAS_MODIFIERS(node)) return false;
        const sides = node.faces.kind === 'percentile' ? 100 : value(node.faces.sides);
        if (sides === undefined) return false;
        for (let i = 0; i < count; i++) dice.push(sides);
        return true;
      }
      case 'group':
      case 'fengshui':
        return false;
    }
  };
  return visit(ast) ? dice : undefined;
}

const span = (r: RollRange): string => (r.min === r.max ? `${r.min}` : `${r.min}–${r.max}`);

/**
 * The numbers a slot takes, as its entry shows them: `die 1–12 · total 21–32`, `2 dice 1–6
 * each · showing 2–12`. Empty where the dice set no bounds (Feng Shui's dice reroll on a 6).
 */
function accepts(slot: Omit<RollSlot, 'accepts'>): string {
  const parts: string[] = [];
  const faces = slot.faces ?? [];
  const first = faces[0];
  if (first !== undefined) {
    const same = faces.every((f) => f.min === first.min && f.max === first.max);
    if (faces.length === 1) parts.push(`die ${span(first)}`);
    else if (same) parts.push(`${faces.length} dice ${span(first)} each`);
    else parts.push(`dice ${faces.map(span).join(', ')}`);
  }
  const { sum, total } = slot;
  if (sum !== undefined && (faces.length !== 1 || sum.max !== first?.max))
    parts.push(`showing ${span(sum)}`);
  if (total !== undefined && (sum === undefined || total.min !== sum.min || total.max !== sum.max))
    parts.push(`total ${span(total)}`);
  return parts.join(' · ');
}

/**
 * The slot of one roll: `variables` are the roller's numbers the roll is made with (SPD in
 * `1d10+SPD`), as the ruleset will pass them when it rolls.
 */
export function rollSlot(
  purpose: string,
  notation: string,
  roller?: string,
  variables: Variables = {},
): RollSlot {
  // Every change of a live encounter offers its actions again with their slots, nearly all as
  // before: the same arguments give the same slot, worked out once (its total range is an
  // exact distribution). Slots are read-only, so one object serves every caller.
  const key = JSON.stringify([purpose, notation, roller ?? null, variables]);
  let slot = slotsMade.get(key);
  if (slot === undefined) {
    slot = makeRollSlot(purpose, notation, roller, variables);
    if (slotsMade.size >= SLOTS_KEPT) slotsMade.delete(slotsMade.keys().next().value as string);
    slotsMade.set(key, slot);
  }
  return slot;
}

/** Slots kept for `rollSlot`, oldest dropped first: a table's fights ask for a few hundred. */
const SLOTS_KEPT = 4096;
const slotsMade = new Map<string, RollSlot>();

function makeRollSlot(
  purpose: string,
  notation: string,
  roller: string | undefined,
  variables: Variables,
): RollSlot {
  const expression = parseDice(notation);
  const dice = fixedDice(expression.ast, variables);
  let sum: RollRange | undefined;
  let total: RollRange | undefined;
  let faces: RollSlot['faces'];
  if (dice !== undefined && dice.length > 0) {
    // A d% is two d10s on the table (tens, units) but one number read off them, 1 to 100.
    const laid = dice.flatMap((sides) => (sides === 100 ? [10, 10] : [sides]));
    faces = laid.map((sides) => ({ min: lowestFace(sides), max: sides }));
    sum = { min: dice.length, max: dice.reduce((a, b) => a + b, 0) };
    try {
      const odds = diceDistribution(notation, { variables });
      total = { min: odds.min, max: odds.max };
    } catch {
      // A variable the slot was not given, or odds past their budget: the range goes unsaid.
    }
  }
  const slot = {
    purpose,
    notation,
    ...(roller === undefined ? {} : { roller }),
    label: label(notation, expression.ast, variables),
    ...(faces === undefined ? {} : { faces }),
    ...(sum === undefined ? {} : { sum }),
    ...(total === undefined ? {} : { total }),
  };
  return { ...slot, accepts: accepts(slot) };
}
