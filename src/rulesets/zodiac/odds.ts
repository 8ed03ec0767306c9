import { diceDistribution, seededDice } from '../../dice/index.js';
import {
  CommandDice,
  combatantById,
  type DiceRoller,
  type RollRecord,
} from '../../engine/index.js';
import { withArticle } from '../grammar.js';
import type { ActionOdds } from '../system.js';
import { BLIND_PENALTY, FLYING_PENALTY, judgeAttack, judgeStatusRoll } from './attack.js';
import type { ZodiacCommand } from './commands.js';
import { resolve, techTargets } from './decide.js';
import type { ZodiacEvent } from './events.js';
import { levelFactor } from './evolve.js';
import {
  type CombatantState,
  effectiveSpeed,
  hasStatus,
  isFighting,
  isStanding,
  type ZodiacState,
} from './state.js';
import { STATUSES, type StatusId } from './statuses.js';
import { ACTION_COST } from './timeline.js';

/**
 * The odds of an action, exactly: the action is resolved by the ruleset itself once for every
 * way its dice can fall that makes a difference, each weighted by its chance, so what follows
 * the action in the same command (Poison at the end of the tick, Death Sentence at the end of
 * the round, Reraise) is counted as play counts it. A d100 against Evade or Resist falls into a
 * few classes (miss, hit, critical; lands or not), every other roll by its totals. An action
 * with too many outcomes to walk (a spell at several targets, each with its own dice) is
 * estimated from seeded samples instead, and says so.
 */

/** Most resolutions one action's exact odds may take before sampling stands in. */
const MAX_BRANCHES = 4000;
/** Samples for an estimate: a KO chance within about 1.5 points either way. */
const SAMPLES = 4000;

/** One way a roll can fall: the total it reads and its chance. */
interface Outcome {
  readonly total: number;
  readonly p: number;
}

/** One resolution of the action, with its chance. */
interface Leaf {
  readonly p: number;
  readonly events: readonly ZodiacEvent[];
  readonly after: ZodiacState;
}

/**
 * Answers every roll from a fixed path of choices, and past the path with the first way each
 * roll can fall, noting how many ways there were: a depth-first walk over the dice.
 */
class PathDice implements DiceRoller {
  readonly explain = false;
  readonly seen: Outcome[][] = [];
  p = 1;
  private depth = 0;

  constructor(
    private readonly path: readonly number[],
    private readonly outcomes: (purpose: string, notation: string) => Outcome[],
  ) {}

  roll(purpose: string, notation: string): RollRecord {
    const ways = this.outcomes(purpose, notation);
    const choice = this.path[this.depth] ?? 0;
    this.seen.push(ways);
    this.depth++;
    const way = ways[choice]!;
    this.p *= way.p;
    return { purpose, notation, total: way.total, dice: [], text: '', entered: false };
  }
}

/** The ways a roll falls: a d100 against Evade or Resist by class, anything else by total. */
function outcomesOf(
  state: ZodiacState,
  command: ZodiacCommand,
): (purpose: string, notation: string) => Outcome[] {
  const cache = new Map<string, Outcome[]>();
  const actor = 'actor' in command ? combatantById(state.combatants, command.actor) : undefined;
  return (purpose, notation) => {
    const key = `${purpose} ${notation}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    const [kind, id = ''] = purpose.split(':');
    const target = combatantById(state.combatants, id);
    let ways: Outcome[];
    if (notation === 'd100' && actor !== undefined && target !== undefined && kind === 'hit') {
      const { accuracy, critical } = actor.sheet.stats;
      const penalty = attackPenalty(actor, target, command.type === 'tech');
      ways = classes((n) => {
        const j = judgeAttack(n, accuracy, target.sheet.stats.evade, critical, penalty);
        return j.critical ? 2 : j.hit ? 1 : 0;
      });
    } else if (
      notation === 'd100' &&
      actor !== undefined &&
      target !== undefined &&
      kind === 'status'
    ) {
      const { magicAccuracy } = actor.sheet.stats;
      ways = classes((n) => (judgeStatusRoll(n, magicAccuracy, target.sheet.stats.resist) ? 1 : 0));
    } else {
      ways = diceDistribution(notation).distribution.map(([total, p]) => ({ total, p }));
    }
    cache.set(key, ways);
    return ways;
  };
}

/** Naturals 1 to 100 by the class `judge` puts them in: the first of each, with its share. */
function classes(judge: (natural: number) => number): Outcome[] {
  const found = new Map<number, { total: number; count: number }>();
  for (let natural = 1; natural <= 100; natural++) {
    const c = judge(natural);
    const entry = found.get(c);
    if (entry === undefined) found.set(c, { total: natural, count: 1 });
    else entry.count++;
  }
  return [...found.values()].map((e) => ({ total: e.total, p: e.count / 100 }));
}

/** Blind -30; short range against a flier -60 ("ALL Techs ... are considered long-range"). */
export function attackPenalty(
  actor: CombatantState,
  target: CombatantState,
  tech: boolean,
): number {
  let penalty = hasStatus(actor, 'blind') ? BLIND_PENALTY : 0;
  const longRange = tech || actor.sheet.weapon?.range === 'long';
  if (target.sheet.flying && !longRange) penalty += FLYING_PENALTY;
  return penalty;
}

/** Every way the action can go, or undefined when there are too many to walk. */
function walk(state: ZodiacState, command: ZodiacCommand): Leaf[] | undefined {
  const outcomes = outcomesOf(state, command);
  const leaves: Leaf[] = [];
  const stack: number[][] = [[]];
  while (stack.length > 0) {
    if (leaves.length >= MAX_BRANCHES) return undefined;
    const path = stack.pop()!;
    const dice = new PathDice(path, outcomes);
    const resolved = resolve(state, command, dice);
    if (!resolved.ok) return [];
    leaves.push({ p: dice.p, events: resolved.value.events, after: resolved.value.state });
    for (let depth = dice.seen.length - 1; depth >= path.length; depth--) {
      for (let choice = 1; choice < dice.seen[depth]!.length; choice++) {
        const next = path.slice();
        while (next.length < depth) next.push(0);
        next.push(choice);
        stack.push(next);
      }
    }
  }
  return leaves;
}

/** The action played SAMPLES times from one seed: each an equal share. */
function sample(state: ZodiacState, command: ZodiacCommand): Leaf[] {
  const stream = seededDice(`odds:${JSON.stringify(command)}`);
  const leaves: Leaf[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const resolved = resolve(state, command, new CommandDice(stream, { explain: false }));
    if (!resolved.ok) return [];
    leaves.push({ p: 1 / SAMPLES, events: resolved.value.events, after: resolved.value.state });
  }
  return leaves;
}

/** Whom the action is mainly about: its target, or the first a spell reaches. */
function mainTarget(state: ZodiacState, command: ZodiacCommand): string | undefined {
  switch (command.type) {
    case 'attack':
    case 'item':
      return command.target;
    case 'tech': {
      const actor = combatantById(state.combatants, command.actor);
      const tech = combatantById(state.setup.techs, command.tech);
      if (actor === undefined || tech === undefined) return undefined;
      const targets = techTargets(state, actor, tech, command.target);
      if (!targets.ok) return undefined;
      // A spell at a side: the first foe it reaches, if it reaches any.
      return (
        targets.value.find((id) => state.combatants[id]!.side !== actor.side) ?? targets.value[0]
      );
    }
    default:
      return undefined;
  }
}

/** A probability summed from shares, with float dust at 0 and 1 swept away. */
function settled(p: number): number {
  if (p < 1e-12) return 0;
  if (p > 1 - 1e-12) return 1;
  return p;
}

function pct(p: number): string {
  if (p > 0 && p < 0.005) return '<1%';
  if (p < 1 && p > 0.995) return '>99%';
  return `${Math.round(p * 100)}%`;
}

function pctLong(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

/** What `damageOf` counts for the target: HP lost to a blow with a source, not absorbed. */
function counted(event: ZodiacEvent, target: string): number {
  return event.type === 'damage-dealt' &&
    !event.absorbed &&
    event.source !== null &&
    event.target === target
    ? event.amount
    : 0;
}

/** The odds of one action the legal list offers; undefined only for a GM command. */
export function zodiacOdds(state: ZodiacState, command: ZodiacCommand): ActionOdds | undefined {
  if (command.type === 'defend') {
    const actor = combatantById(state.combatants, command.actor);
    const until =
      state.setup.options.defendLasts === 'rest-of-round'
        ? 'the rest of the round'
        : 'its next turn';
    return {
      summary: `no roll · damage halved · ${ACTION_COST} SP`,
      lines: [
        `${actor?.sheet.name ?? command.actor} Defends: no roll; all damage taken is halved until ${until} (not Poison or Venom, not Absorbencies)`,
        `  costs ${ACTION_COST} SP`,
      ],
      cost: `${ACTION_COST} SP`,
      exact: true,
    };
  }
  if (command.type === 'free-action')
    return {
      summary: 'no roll · no SP',
      lines: ['A Free Action: no roll and no SP; one a turn, before the action'],
      cost: 'no SP',
      exact: true,
    };
  if (command.type === 'begin-battle') {
    const lines = ['Round 1: everyone standing gains Speed + 1d8 SP (purpose sp:<id>)'];
    for (const id of state.order) {
      const c = state.combatants[id]!;
      const speed = effectiveSpeed(c);
      if (isStanding(c)) lines.push(`  ${c.sheet.name}: ${speed + 1} to ${speed + 8} SP`);
    }
    return { summary: 'Speed + 1d8 SP each', lines, exact: true };
  }
  if (command.type !== 'attack' && command.type !== 'tech' && command.type !== 'item')
    return undefined;
  const actor = combatantById(state.combatants, command.actor);
  const targetId = mainTarget(state, command);
  if (actor === undefined) return undefined;
  const walked = walk(state, command);
  const exact = walked !== undefined;
  const leaves = walked ?? sample(state, command);
  if (leaves.length === 0) return undefined;
  const target = targetId === undefined ? undefined : state.combatants[targetId];
  const tech = command.type === 'tech' ? combatantById(state.setup.techs, command.tech) : undefined;
  const item = command.type === 'item' ? combatantById(state.setup.items, command.item) : undefined;
  const weaponLike = command.type === 'attack' || tech?.type === 'weapon';
  const factor = levelFactor(state.setup);
  const status: StatusId | undefined =
    command.type === 'attack' ? actor.sheet.weapon?.inflicts[0]?.status : tech?.inflicts[0]?.status;

  let chance = 0;
  let critical = 0;
  let statusChance = 0;
  let meanDamage = 0;
  let knockOut = 0;
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  let sum = 0;
  let weight = 0;
  for (const leaf of leaves) {
    let landed = false;
    let amount = 0;
    let dealt = false;
    for (const e of leaf.events) {
      if (targetId === undefined) break;
      if (e.type === 'attacked' && e.target === targetId) {
        if (e.attack.hit) landed = true;
        if (e.attack.critical) critical += leaf.p;
      }
      if ('target' in e && e.target === targetId && !weaponLike) {
        if (
          e.type === 'damage-dealt' ||
          e.type === 'healed' ||
          e.type === 'revived' ||
          e.type === 'mp-changed' ||
          e.type === 'status-inflicted' ||
          e.type === 'status-ended'
        )
          landed = true;
      }
      if (e.type === 'status-inflicted' && e.target === targetId && e.status === status)
        statusChance += leaf.p;
      if (e.type === 'damage-dealt' && e.target === targetId && e.source === actor.id) {
        amount += e.absorbed ? -e.amount : e.amount;
        dealt = true;
      } else if (e.type === 'healed' && e.target === targetId && e.source === actor.id) {
        // Before the maximum caps it: the roll's total, or a Potion's fixed amount.
        amount -= e.roll?.total ?? (item === undefined ? e.amount : item.restoreHp * factor);
        dealt = true;
      }
      if (targetId !== undefined) meanDamage += leaf.p * counted(e, targetId);
    }
    if (landed) chance += leaf.p;
    if (dealt) {
      low = Math.min(low, amount);
      high = Math.max(high, amount);
      sum += amount * leaf.p;
      weight += leaf.p;
    }
    const after = targetId === undefined ? undefined : leaf.after.combatants[targetId];
    if (after !== undefined && !isFighting(after)) knockOut += leaf.p;
  }

  // Sums of many small shares: a certainty is 1, not 0.9999999999.
  chance = settled(chance);
  statusChance = settled(statusChance);
  knockOut = settled(knockOut);
  const name = target?.sheet.name ?? 'nobody';
  const healing = weight > 0 && high <= 0;
  const damage =
    weight === 0
      ? undefined
      : healing
        ? { min: -high, mean: -sum / weight, max: -low }
        : { min: low, mean: sum / weight, max: high };
  const cost =
    command.type === 'tech'
      ? `${tech?.mpCost ?? 0} MP, ${ACTION_COST} SP`
      : command.type === 'item'
        ? `${withArticle(item?.name ?? command.item)}, ${ACTION_COST} SP`
        : `${ACTION_COST} SP`;
  const statusName = status === undefined ? undefined : STATUSES[status].name;

  const parts: string[] = [];
  if (weaponLike) parts.push(`hit ${pct(chance)}`);
  else if (chance < 1) parts.push(`lands ${pct(chance)}`);
  if (damage !== undefined)
    parts.push(
      healing
        ? `+${damage.min === damage.max ? damage.min : `${damage.min}-${damage.max}`} HP`
        : damage.min === damage.max
          ? `${damage.min}`
          : `${damage.min}-${damage.max}`,
    );
  if (statusName !== undefined && (!weaponLike || statusChance < chance))
    parts.push(`${statusName} ${pct(statusChance)}`);
  if (knockOut > 0 && target !== undefined && isFighting(target)) parts.push(`KO ${pct(knockOut)}`);
  if (tech !== undefined && tech.mpCost > 0) parts.push(`${tech.mpCost} MP`);
  if (parts.length === 0) parts.push(cost);

  const what =
    command.type === 'attack'
      ? `attacks ${name} with ${actor.sheet.weapon?.name ?? 'bare hands'}`
      : command.type === 'tech'
        ? `uses ${tech?.name ?? command.tech}${target === undefined ? '' : ` (odds for ${name})`}`
        : `uses ${item?.name ?? command.item} on ${name}`;
  const lines = [`${actor.sheet.name} ${what}`];
  if (weaponLike && target !== undefined) {
    const penalty = attackPenalty(actor, target, command.type === 'tech');
    lines.push(
      `  d100 + Accuracy ${actor.sheet.stats.accuracy}${penalty > 0 ? ` - ${penalty}` : ''} against Evade ${target.sheet.stats.evade} (a natural 90+ always hits; critical at ${actor.sheet.stats.critical}+)`,
      `  hits ${pctLong(chance)} (critical ${pctLong(critical)}), misses ${pctLong(1 - chance)}`,
    );
  } else {
    lines.push(`  takes effect on ${name}: ${pctLong(chance)}`);
  }
  if (damage !== undefined)
    lines.push(
      `  ${healing ? 'HP restored' : 'damage'} when it lands: ${damage.min} to ${damage.max}, mean ${damage.mean.toFixed(1)}${healing ? '' : ` (mean over all outcomes ${meanDamage.toFixed(1)})`}`,
    );
  if (statusName !== undefined) lines.push(`  ${statusName} lands: ${pctLong(statusChance)}`);
  if (target !== undefined)
    lines.push(
      `  ${name} has ${target.hp} of ${target.maxHp} HP; out after this: ${pctLong(knockOut)}`,
    );
  lines.push(`  costs ${cost}`);
  if (!exact)
    lines.push(`  estimated from ${SAMPLES} seeded samples: too many outcomes to count exactly`);
  return {
    summary: parts.join(' · '),
    lines,
    ...(targetId === undefined ? {} : { target: targetId }),
    chance,
    ...(damage === undefined ? {} : { damage }),
    meanDamage,
    knockOut,
    ...(statusName === undefined ? {} : { status: statusChance }),
    cost,
    exact,
  };
}
