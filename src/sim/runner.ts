import { SeededDice } from '../dice/index.js';
import type { CommandBase, EventBase, Result } from '../engine/index.js';
import type { AnySystem, Brief } from '../rulesets/system.js';
import { type Aggregate, type CombatantTally, emptyAggregate, emptyTally } from './aggregate.js';
import { FastDice } from './fast-dice.js';
import { kernelFor } from './kernels/index.js';
import type { Standing } from './kernels/kernel.js';
import { playersSide } from './players.js';
import type { Policy } from './policies.js';

function mapDecided(
  decided: Result<readonly EventBase[]>,
  state: unknown,
  evolve: (state: unknown, event: EventBase) => unknown,
): Result<{ events: readonly EventBase[]; state: unknown }> {
  if (!decided.ok) return decided;
  return { ok: true, value: { events: decided.value, state: decided.value.reduce(evolve, state) } };
}

/** A battle that has not ended after this many commands is counted as unfinished. */
export const MAX_COMMANDS_PER_BATTLE = 10_000;

export interface BattleRange {
  readonly seed: string;
  /** Battles `from` to `to - 1`; battle i's dice come from `${seed}:${i}`, whoever runs it. */
  readonly from: number;
  readonly to: number;
}

/** The rules' dice of battle i. */
export function battleDice(seed: string, i: number): SeededDice {
  return SeededDice.fromSeed(`${seed}:${i}`);
}

/** The seeds of battle i: one stream for the rules' dice, one for the policy's choices. */
export function battleSeeds(seed: string, i: number): { dice: SeededDice; choices: SeededDice } {
  return { dice: battleDice(seed, i), choices: SeededDice.fromSeed(`${seed}:${i}:policy`) };
}

/**
 * Plays battles straight on the ruleset's decide and evolve: no log, no undo, no explanations.
 * `shouldStop` is asked between battles (Ctrl-C); `progress` is told after each.
 *
 * Damage counts only HP actually lost: each blow `damageOf` reports is capped at what its target
 * had left (in the state before the command, less the blows before it in this command) and the
 * rest is overkill. Briefing every state would cost the hot loop a tenth of its speed, so only a
 * command that deals damage is briefed after, and the state before it only when a blow may have
 * gone past what its target had: the target is now at 0 HP or below, or has more HP than its
 * maximum less the blows (it was healed or revived after them in the same command). Who is out
 * of the fight is read from those briefs and at the end of the battle, so a combatant felled
 * without damage (a status, a poison tick) and raised again before the next blow goes unseen.
 */
export function runBattles(
  system: AnySystem,
  setup: unknown,
  policy: Policy,
  range: BattleRange,
  hooks: {
    shouldStop?: () => boolean;
    progress?: (done: number) => void;
    /** Told every command played and its events, in order (to check that a battle is unchanged). */
    observe?: (command: CommandBase, events: readonly EventBase[]) => void;
    /**
     * false: every battle through the loop over the rules, never a system's kernel
     * (kernels/kernel.ts), as the tests that check a kernel against that loop need.
     */
    kernel?: boolean;
  } = {},
  startingState?: unknown,
): Aggregate {
  const { ruleset } = system;
  const direct = policy.direct;
  const aggregate = emptyAggregate();
  const initial = startingState ?? ruleset.initialState(setup);
  const start = system.view(initial);
  // A kernel plays whole battles with no events to observe: only when nobody observes them.
  const kernel =
    hooks.observe === undefined && hooks.kernel !== false
      ? kernelFor(system, initial, policy)
      : undefined;
  const players = playersSide(setup, start.sides)?.id;
  // Combatants by slot: typed arrays and a map of ids, not records, in the per-command loop.
  const slots = new Map<string, number>();
  const tallies: CombatantTally[] = [];
  const isPlayer: boolean[] = [];
  for (const c of start.combatants) {
    slots.set(c.id, tallies.length);
    const tally = emptyTally(c);
    aggregate.combatants[c.id] = tally;
    tallies.push(tally);
    isPlayer.push(c.side === players);
  }
  const playerCount = isPlayer.filter(Boolean).length;
  const maxHp = Float64Array.from(start.combatants, (c) => c.maxHp);
  const itemsAtStart = Float64Array.from(start.combatants, (c) => c.items ?? 0);
  // Who had fled before a run from 'now': nobody comes back in a simulated battle, so they end
  // it fled too (a kernel's ends say nothing of fleeing).
  const fledAtStart = Uint8Array.from(start.combatants, (c) => (c.fled ? 1 : 0));
  const hp = new Float64Array(tallies.length);
  const everOut = new Uint8Array(tallies.length);
  // The blows of one command, by slot (-1: a combatant not in the encounter at the start).
  const blowTarget: number[] = [];
  const blowSource: number[] = [];
  const blowAmount: number[] = [];
  const struck = new Float64Array(tallies.length);
  const left = new Float64Array(tallies.length);
  // A policy that briefs (focus-weakest) reuses the runner's brief of the state it is asked
  // about rather than paying twice. The runner itself always briefs afresh.
  let briefed: unknown;
  let brief: Brief = system.brief(initial);
  const startBrief = brief;
  const seen = Object.create(system) as AnySystem;
  seen.brief = (state) => (state === briefed ? brief : system.brief(state));
  // After a command: HP now, who is out, and whether the players are all out at once.
  let someoneOut = false;
  let allOut = false;
  const note = (b: Brief): void => {
    let playersOut = 0;
    let playersFled = 0;
    for (const c of b.combatants) {
      const k = slots.get(c.id);
      if (k === undefined) continue;
      hp[k] = c.hp;
      if (c.out) {
        everOut[k] = 1;
        if (isPlayer[k]) {
          playersOut++;
          playersFled += fledAtStart[k]!;
        }
      }
    }
    // Someone knocked out: one who had fled before the run is gone, not knocked out.
    if (playersOut > playersFled) someoneOut = true;
    if (playerCount > 0 && playersOut === playerCount) allOut = true;
  };
  // Kept out of the battle loop, which stays small enough for the engine to inline the rules.
  const tallyBlows = (before: unknown, after: unknown, events: readonly EventBase[]): void => {
    let blows = 0;
    for (const event of events) {
      const damage = system.damageOf(event);
      if (damage === undefined) continue;
      blowTarget[blows] = slots.get(damage.target) ?? -1;
      blowSource[blows] = slots.get(damage.source) ?? -1;
      blowAmount[blows] = Math.max(damage.amount, 0);
      blows++;
    }
    if (blows === 0) return;
    brief = system.brief(after);
    briefed = after;
    note(brief);
    for (let b = 0; b < blows; b++) {
      const t = blowTarget[b]!;
      if (t >= 0) struck[t] = struck[t]! + blowAmount[b]!;
    }
    let capped = false;
    for (let b = 0; b < blows; b++) {
      const t = blowTarget[b]!;
      if (t >= 0 && (hp[t]! <= 0 || hp[t]! + struck[t]! > maxHp[t]!)) capped = true;
    }
    if (capped) {
      for (const c of system.brief(before).combatants) {
        const k = slots.get(c.id);
        if (k !== undefined) left[k] = Math.max(c.hp, 0);
      }
    }
    for (let b = 0; b < blows; b++) {
      const t = blowTarget[b]!;
      const s = blowSource[b]!;
      const rolled = blowAmount[b]!;
      let lost = rolled;
      if (t >= 0) {
        struck[t] = 0;
        if (capped) {
          lost = Math.min(rolled, left[t]!);
          left[t] = left[t]! - lost;
        }
        tallies[t]!.damageTaken += lost;
        tallies[t]!.overkillTaken += rolled - lost;
      }
      if (s >= 0) {
        tallies[s]!.damageDealt += lost;
        tallies[s]!.overkillDealt += rolled - lost;
      }
    }
  };
  for (let i = range.from; i < range.to; i++) {
    if (hooks.shouldStop?.()) break;
    let state = initial;
    everOut.fill(0);
    someoneOut = false;
    allOut = false;
    brief = startBrief;
    briefed = initial;
    note(brief);
    let standing: readonly Standing[] | undefined;
    if (kernel !== undefined) {
      // The kernel tallies its blows itself; who was out is read at the end, as below (in a
      // simulated battle nobody out of the fight comes back: no GM to raise them). It draws on
      // the rules' dice alone: no stream of choices, no dice wrapper made for it.
      const played = kernel.play(battleDice(range.seed, i), MAX_COMMANDS_PER_BATTLE, tallies);
      state = played.state;
      standing = played.standing;
    } else {
      const seeds = battleSeeds(range.seed, i);
      const dice = new FastDice(seeds.dice);
      for (let commands = 0; commands < MAX_COMMANDS_PER_BATTLE; commands++) {
        if (ruleset.outcome(state).over) break;
        let command = direct?.(seen, state, seeds.choices);
        let label: string | undefined;
        if (command === undefined) {
          const actions = ruleset.legalActions(state);
          if (actions.length === 0) break;
          const choice = policy(seen, state, actions, seeds.choices);
          command = choice.command as CommandBase;
          label = choice.label;
        }
        // Every command here is one the ruleset offered in this state, so it may skip the checks
        // (resolveOffered); resolve hands back the state too: no second pass of evolve.
        const before = state;
        const resolved =
          ruleset.resolveOffered?.(state, command, dice) ??
          ruleset.resolve?.(state, command, dice) ??
          mapDecided(ruleset.decide(state, command, dice), state, ruleset.evolve);
        if (!resolved.ok)
          throw new Error(
            `the policy chose a refused action (${label ?? JSON.stringify(command)}): ${resolved.error.message}`,
          );
        state = resolved.value.state;
        hooks.observe?.(command, resolved.value.events as readonly EventBase[]);
        tallyBlows(before, state, resolved.value.events as readonly EventBase[]);
      }
    }
    const outcome = ruleset.outcome(state);
    aggregate.battles++;
    if (!outcome.over) aggregate.unfinished++;
    else if (outcome.winner === null) aggregate.draws++;
    else aggregate.wins[outcome.winner] = (aggregate.wins[outcome.winner] ?? 0) + 1;
    const rounds = system.rounds(state);
    aggregate.roundsSum += rounds;
    aggregate.rounds[rounds] = (aggregate.rounds[rounds] ?? 0) + 1;
    // Once a battle, the full view: MP and maximum HP are not in the brief. It is also the last
    // look at who is out, for a battle ended by something other than a blow (a poison tick).
    let playersOut = 0;
    let playersKnockedOut = 0;
    // A kernel hands its combatants' ends by place; else the view lists them, by id.
    const viewed = standing === undefined ? system.view(state).combatants : undefined;
    const ends: readonly Standing[] = standing ?? viewed ?? [];
    for (let place = 0; place < ends.length; place++) {
      const c = ends[place]!;
      const k = viewed === undefined ? place : slots.get(viewed[place]!.id);
      if (k === undefined) continue;
      const tally = tallies[k]!;
      if (!c.out) tally.survived++;
      const fled = viewed === undefined ? fledAtStart[k] === 1 : viewed[place]!.fled;
      if (c.out && isPlayer[k]) {
        playersOut++;
        if (!fled) playersKnockedOut++;
      }
      if (fled) tally.fled++;
      else if (everOut[k] === 1 || c.out) tally.knockedOut++;
      tally.hpLeft += Math.min(Math.max(c.hp, 0), c.maxHp);
      tally.hpMax += c.maxHp;
      tally.mpLeft += Math.min(Math.max(c.mp, 0), c.maxMp);
      tally.mpMax += c.maxMp;
      tally.itemsHeld += itemsAtStart[k]!;
      tally.itemsLeft += c.items ?? 0;
    }
    if (someoneOut || playersKnockedOut > 0) aggregate.playersSomeoneOut++;
    if (allOut || (playerCount > 0 && playersOut === playerCount)) aggregate.playersAllOut++;
    hooks.progress?.(i - range.from + 1);
  }
  return aggregate;
}
