import type { CommandBase } from '../../engine/index.js';
import type { ActionOdds, AnySystem } from '../../rulesets/system.js';

/**
 * Exact odds cost more than a simulated command (a damage roll's whole distribution), and a
 * battle asks about the same few actions over and over. A system's tactics name everything the
 * numbers the scoring reads (chance, damage, status) depend on, and the answer is kept per
 * encounter setup, which every battle of a run shares. So a kept answer is the one the system
 * gives for those names whatever battle asked first, and a run's report does not depend on
 * what the process played before nor on how many workers shared it. The target's HP is among
 * the names only where the numbers depend on it (`targetHp`, undefined elsewhere): most blows' chance
 * and damage do not, and the scoring applies the HP itself.
 *
 * The names are walked one by one down a tree of maps rather than joined into one string key:
 * they are strings the state already holds (ids, spell names), so a lookup builds nothing, and
 * a policy asks thousands of times a battle.
 */
interface Node {
  readonly next: Map<string, Node>;
  /** By the target's HP, for the answers that depend on it. */
  byHp?: Map<number, Node>;
  odds?: ActionOdds | null;
}

const CACHES = new WeakMap<object, { root: Node; size: number }>();

/** Counts the times a cache started over: an answer kept in front (keptOdds) is good within one. */
let generation = 0;

/** How many times an odds cache has started over: an answer kept outside it holds within one. */
export function oddsGeneration(): number {
  return generation;
}

/** Past this many answers a setup's cache starts over: memory stays bounded in long runs. */
const MAX_ENTRIES = 20_000;

function child(node: Node, key: string): Node {
  let next = node.next.get(key);
  if (next === undefined) {
    next = { next: new Map() };
    node.next.set(key, next);
  }
  return next;
}

function childByHp(node: Node, hp: number): Node {
  node.byHp ??= new Map();
  let next = node.byHp.get(hp);
  if (next === undefined) {
    next = { next: new Map() };
    node.byHp.set(hp, next);
  }
  return next;
}

/**
 * Where an answer is kept. Nearly always neither side has a status and the HP is no part of the
 * key: that answer is kept on the target's node, and only the rest walk on.
 */
function nodeOf(
  root: Node,
  kind: string,
  actor: string,
  what: string,
  target: string,
  actorCondition: string,
  targetCondition: string,
  targetHp: number | undefined,
): Node {
  let node = child(child(child(child(root, kind), actor), what), target);
  if (targetHp !== undefined) node = childByHp(node, targetHp);
  if (actorCondition === '' && targetCondition === '') return node;
  return child(child(node, actorCondition), targetCondition);
}

/**
 * The odds of `command` in `state`, asked of the system once per distinct (kind, actor, what,
 * target, the actor's condition, the target's condition) in this setup.
 */
export function cachedOdds(
  system: AnySystem,
  setup: object,
  state: unknown,
  command: CommandBase,
  kind: string,
  actor: string,
  what: string,
  target: string,
  actorCondition: string,
  targetCondition: string,
  targetHp?: number,
): ActionOdds | undefined {
  let cache = CACHES.get(setup);
  if (cache === undefined) {
    cache = { root: { next: new Map() }, size: 0 };
    CACHES.set(setup, cache);
  }
  const leaf = nodeOf(
    cache.root,
    kind,
    actor,
    what,
    target,
    actorCondition,
    targetCondition,
    targetHp,
  );
  if (leaf.odds !== undefined) return leaf.odds ?? undefined;
  const odds = system.odds(state, command);
  if (cache.size >= MAX_ENTRIES) {
    cache.root.next.clear();
    cache.size = 0;
    generation++;
    nodeOf(cache.root, kind, actor, what, target, actorCondition, targetCondition, targetHp).odds =
      odds ?? null;
  } else leaf.odds = odds ?? null;
  cache.size++;
  return odds;
}

/**
 * The answer cachedOdds keeps for these names in this setup's tree, without asking the system
 * when there is none (NOT_KEPT then) and without growing the tree: for a caller that keeps its
 * own copy of the names and only needs the state to ask the system when the tree has nothing.
 */
export function treeOdds(
  setup: object,
  kind: string,
  actor: string,
  what: string,
  target: string,
  actorCondition: string,
  targetCondition: string,
  targetHp: number | undefined,
): ActionOdds | undefined | typeof NOT_KEPT {
  const root = CACHES.get(setup)?.root;
  let node = root?.next.get(kind)?.next.get(actor)?.next.get(what)?.next.get(target);
  if (node !== undefined && targetHp !== undefined) node = node.byHp?.get(targetHp);
  if (node !== undefined && (actorCondition !== '' || targetCondition !== ''))
    node = node.next.get(actorCondition)?.next.get(targetCondition);
  if (node?.odds === undefined) return NOT_KEPT;
  return node.odds ?? undefined;
}

interface Kept {
  readonly setup: object;
  readonly generation: number;
  readonly a: unknown;
  readonly b: unknown;
  readonly c: unknown;
  readonly d: unknown;
  readonly e: unknown;
  readonly odds: ActionOdds | undefined;
}

const KEPT = new WeakMap<object, WeakMap<object, Kept>>();

/** What keptOdds answers when it has nothing kept. */
export const NOT_KEPT = Symbol('not kept');

/**
 * An answer kept in front of the tree by two objects that stand for a question (the attacker's
 * and the defender's sheets for a blow), good while `a` to `e` are the same values as when it
 * was kept (the statuses lists, the items: whatever the tree's key is made of beyond the
 * sheets), in the same setup, and the tree has not started over since. A system's tactics
 * keep there only what the tree answered, so a kept answer is the tree's answer: two lookups
 * by object instead of walking the names.
 */
export function keptOdds(
  setup: object,
  first: object,
  second: object,
  a: unknown,
  b: unknown,
  c: unknown,
  d: unknown,
  e: unknown,
): ActionOdds | undefined | typeof NOT_KEPT {
  const kept = KEPT.get(first)?.get(second);
  if (
    kept === undefined ||
    kept.a !== a ||
    kept.b !== b ||
    kept.c !== c ||
    kept.d !== d ||
    kept.e !== e ||
    kept.setup !== setup ||
    kept.generation !== generation
  )
    return NOT_KEPT;
  return kept.odds;
}

export function keepOdds(
  setup: object,
  first: object,
  second: object,
  a: unknown,
  b: unknown,
  c: unknown,
  d: unknown,
  e: unknown,
  odds: ActionOdds | undefined,
): void {
  let bySecond = KEPT.get(first);
  if (bySecond === undefined) {
    bySecond = new WeakMap();
    KEPT.set(first, bySecond);
  }
  bySecond.set(second, { setup, generation, a, b, c, d, e, odds });
}

const CONDITIONS = new WeakMap<object, string>();

/**
 * A combatant's statuses as one name, '' for none: worked out once per statuses list, which
 * the state shares between commands while it does not change.
 */
export function conditionOf<T extends object>(
  statuses: T,
  none: boolean,
  name: (statuses: T) => string,
): string {
  if (none) return '';
  let known = CONDITIONS.get(statuses);
  if (known === undefined) {
    known = name(statuses);
    CONDITIONS.set(statuses, known);
  }
  return known;
}
