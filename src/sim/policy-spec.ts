import type { SeededDice } from '../dice/index.js';
import type { CommandBase, LegalAction, Result } from '../engine/index.js';
import type { AnySystem } from '../rulesets/system.js';
import { DEFAULT_POLICY, type DirectChoice, POLICIES, type Policy } from './policies.js';

/** The policy name playing each side, by side id, in the encounter's order of sides. */
export type SidePolicies = Readonly<Record<string, string>>;

interface Side {
  readonly id: string;
}

/** The reason a spec was refused, for a person: what was wrong, and what exists instead. */
export interface PolicySpecError {
  readonly message: string;
}

function unknownPolicy(name: string): PolicySpecError {
  return { message: `unknown policy '${name}': one of ${Object.keys(POLICIES).join(', ')}` };
}

/** A spec as written, before it meets an encounter: side ids are not checked yet. */
export interface PolicySpec {
  /** The policy for every side not named, when one was given bare. */
  readonly others: string | undefined;
  /** `side=policy` pairs in the order given. */
  readonly named: readonly (readonly [side: string, policy: string])[];
}

/**
 * Reads `--policy`: one name for every side (`random`), or `side=name` pairs separated by commas
 * (`party=random,enemies=attacker`), where a bare name among them sets the sides not named.
 * Policy names are checked here; side ids need the encounter (see assignPolicies), so a
 * command can refuse a misspelt policy before it reads any file.
 */
export function readPolicySpec(text: string): Result<PolicySpec, PolicySpecError> {
  const named: (readonly [string, string])[] = [];
  let others: string | undefined;
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry.length === 0) {
      return { ok: false, error: { message: `--policy '${text}' has an empty entry` } };
    }
    const at = entry.indexOf('=');
    const policy = (at < 0 ? entry : entry.slice(at + 1)).trim();
    if (!Object.hasOwn(POLICIES, policy)) return { ok: false, error: unknownPolicy(policy) };
    if (at >= 0) {
      const side = entry.slice(0, at).trim();
      if (named.some(([s]) => s === side)) {
        return { ok: false, error: { message: `--policy names side '${side}' twice` } };
      }
      named.push([side, policy]);
    } else if (others !== undefined) {
      return {
        ok: false,
        error: {
          message: `--policy '${text}' names two policies for every side ('${others}' and '${policy}'): give one, and side=policy for the others`,
        },
      };
    } else others = policy;
  }
  return { ok: true, value: { others, named } };
}

/**
 * Each side's policy. Sides named neither way keep the default policy, so naming one side does
 * not oblige a user to look up the ids of all the others. A side that is not the encounter's is
 * refused with the list of those that are, rather than silently ignored.
 */
export function assignPolicies(
  spec: PolicySpec,
  sides: readonly Side[],
): Result<SidePolicies, PolicySpecError> {
  for (const [side] of spec.named) {
    if (!sides.some((s) => s.id === side)) {
      return {
        ok: false,
        error: {
          message: `unknown side '${side}' in --policy: the encounter's sides are ${sides.map((s) => s.id).join(', ')}`,
        },
      };
    }
  }
  const named = new Map(spec.named);
  const bySide: Record<string, string> = {};
  for (const side of sides) bySide[side.id] = named.get(side.id) ?? spec.others ?? DEFAULT_POLICY;
  return { ok: true, value: bySide };
}

/** readPolicySpec and assignPolicies in one: a spec read against an encounter's sides. */
export function parsePolicySpec(
  text: string,
  sides: readonly Side[],
): Result<SidePolicies, PolicySpecError> {
  const spec = readPolicySpec(text);
  return spec.ok ? assignPolicies(spec.value, sides) : spec;
}

/** The spec in its shortest form: one name when every side has the same policy. */
export function formatSidePolicies(policies: SidePolicies): string {
  const names = Object.values(policies);
  if (names.length > 0 && names.every((name) => name === names[0])) return names[0]!;
  return Object.entries(policies)
    .map(([side, name]) => `${side}=${name}`)
    .join(',');
}

function actorOf(command: CommandBase): string | undefined {
  const actor = (command as { actor?: unknown }).actor;
  return typeof actor === 'string' ? actor : undefined;
}

/**
 * One policy that hands each decision to the policy of the deciding combatant's side. With the
 * same policy on every side it is that policy itself: the common case pays nothing extra.
 *
 * The decider is the actor of the first legal action that names one (every list the four
 * systems offer is one actor's, or a round's start with one actor's option beside it); a list
 * nobody owns (starting a round) goes to the first side's policy, which has only that to pick.
 * `start` is the state the battles start from: the setup's initial state, or an encounter as it
 * stands, whose newcomers are known from it; those who join later (`gm add`, summons) are
 * found through the brief. Every side draws
 * from the one choices stream it is handed, so a battle stays a function of its seed.
 */
export function sidePolicy(system: AnySystem, start: unknown, policies: SidePolicies): Policy {
  const bySide = new Map<string, Policy>();
  for (const [side, name] of Object.entries(policies)) {
    const policy = POLICIES[name];
    if (policy === undefined || !Object.hasOwn(POLICIES, name))
      throw new Error(`unknown policy ${name}`);
    bySide.set(side, policy);
  }
  const distinct = new Set(bySide.values());
  const fallback = bySide.values().next().value;
  if (fallback === undefined) throw new Error('an encounter without sides has nobody to play');
  if (distinct.size === 1) return fallback;
  const byCombatant = new Map<string, Policy>();
  for (const c of system.brief(start).combatants) {
    const policy = bySide.get(c.side);
    if (policy !== undefined) byCombatant.set(c.id, policy);
  }
  const policyOf = (state: unknown, actor: string): Policy => {
    const known = byCombatant.get(actor);
    if (known !== undefined) return known;
    for (const c of system.brief(state).combatants) {
      if (c.id === actor) return bySide.get(c.side) ?? fallback;
    }
    return fallback;
  };
  const chooseFromList = (
    sys: AnySystem,
    state: unknown,
    actions: readonly LegalAction<CommandBase>[],
    random: SeededDice,
  ): LegalAction<CommandBase> => {
    for (const action of actions) {
      const actor = actorOf(action.command);
      if (actor !== undefined) return policyOf(state, actor)(sys, state, actions, random);
    }
    return fallback(sys, state, actions, random);
  };
  // The direct path of the side whose combatant the encounter waits on, so a mixed spec keeps
  // the simulator's cheap path. A policy's direct choice answers only where the actions are all
  // that combatant's (Shining Force's active unit), else undefined and the list decides.
  const direct: DirectChoice = (sys, state, random) => {
    const actor = sys.brief(state).actor;
    if (actor === null) return undefined;
    return policyOf(state, actor).direct?.(sys, state, random);
  };
  return [...distinct].some((p) => p.direct !== undefined)
    ? Object.assign(chooseFromList, { direct })
    : chooseFromList;
}

/**
 * A spec read against an encounter, as one policy: what `battle --auto` and `sim` play. `start`
 * is the state the battles start from (see sidePolicy).
 */
export function policyForEncounter(
  system: AnySystem,
  start: unknown,
  text: string,
): Result<{ readonly policy: Policy; readonly policies: SidePolicies }, PolicySpecError> {
  const parsed = parsePolicySpec(text, system.view(start).sides);
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    value: { policy: sidePolicy(system, start, parsed.value), policies: parsed.value },
  };
}
