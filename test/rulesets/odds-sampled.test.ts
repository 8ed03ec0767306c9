import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seededDice } from '../../src/dice/index.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import {
  type CommandBase,
  CommandDice,
  Encounter,
  type EventBase,
} from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import type { ActionOdds, AnySystem } from '../../src/rulesets/system.js';
import { POLICIES } from '../../src/sim/policies.js';

const EXAMPLES = [
  'ffrpg-wind-cave.yaml',
  'ffviii-iron-giant.yaml',
  'zodiac-keef-and-the-ogre.yaml',
  'shining-force-gate.yaml',
];

/** Decisions checked per example: the states a few commands into a fight played by a policy. */
const STATES = 8;
/** Actions checked per state, and samples per action. */
const ACTIONS = 12;
const SAMPLES = 1500;

/** Rolls that only set up the clock, not an action's effect: no odds owed for them. */
const CLOCK_ROLL = /^(initiative|turn-order|sp|confusion-target|bounce):/;

interface Sampled {
  readonly meanDamage: number;
  readonly sdDamage: number;
  readonly knockOut: number;
}

/** Resolves the action SAMPLES times on one seeded stream: what it did to the target. */
function sample(system: AnySystem, state: unknown, command: CommandBase, target: string): Sampled {
  const stream = seededDice(`odds-check:${target}`);
  const outBefore = system.brief(state).combatants.find((c) => c.id === target)?.out ?? false;
  let sum = 0;
  let squares = 0;
  let knockOuts = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const decided = system.ruleset.decide(
      state,
      command,
      new CommandDice(stream, { explain: false }),
    );
    if (!decided.ok) throw new Error(decided.error.message);
    let after = state;
    let damage = 0;
    for (const event of decided.value as readonly EventBase[]) {
      after = system.ruleset.evolve(after, event);
      const dealt = system.damageOf(event);
      if (dealt !== undefined && dealt.target === target) damage += dealt.amount;
    }
    sum += damage;
    squares += damage * damage;
    const out = system.brief(after).combatants.find((c) => c.id === target)?.out ?? false;
    if (out && !outBefore) knockOuts++;
  }
  const mean = sum / SAMPLES;
  return {
    meanDamage: mean,
    sdDamage: Math.sqrt(Math.max(0, squares / SAMPLES - mean * mean)),
    knockOut: knockOuts / SAMPLES,
  };
}

function checkAgainstSamples(odds: ActionOdds, sampled: Sampled, label: string): void {
  if (odds.meanDamage !== undefined) {
    const allowed = (5 * sampled.sdDamage) / Math.sqrt(SAMPLES) + 0.05;
    expect(
      Math.abs(sampled.meanDamage - odds.meanDamage),
      `${label}: mean damage ${odds.meanDamage} vs sampled ${sampled.meanDamage}`,
    ).toBeLessThanOrEqual(allowed);
  }
  if (odds.knockOut !== undefined) {
    const p = odds.knockOut;
    const allowed = 5 * Math.sqrt((p * (1 - p)) / SAMPLES) + 0.01;
    expect(
      Math.abs(sampled.knockOut - p),
      `${label}: knock-out ${p} vs sampled ${sampled.knockOut}`,
    ).toBeLessThanOrEqual(allowed);
  }
}

describe.each(EXAMPLES)('odds in %s', (file) => {
  it('gives odds for every action that rolls, matching sampled outcomes at a fixed seed', () => {
    const path = fileURLToPath(new URL(`../../examples/${file}`, import.meta.url));
    const read = readEncounterFile(path, SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    const { system, setup } = read.encounter;
    const created = Encounter.create(system.ruleset, setup, 5);
    if (!created.ok) throw new Error(created.error.message);
    const encounter = created.value;
    const policy = POLICIES['focus-weakest']!;
    const choices = seededDice('odds-check:policy');
    let checked = 0;
    for (let step = 0; step < STATES * 4 && !encounter.outcome().over; step++) {
      const state = encounter.state;
      const actions = encounter.legalActions();
      if (step % 4 === 0) {
        for (const action of actions.filter((a) => a.group === undefined).slice(0, ACTIONS)) {
          const rolls = system.rolls(state, action.command);
          const odds = system.odds(state, action.command);
          if (rolls.some((slot) => !CLOCK_ROLL.test(slot.purpose))) {
            expect(odds, `${action.label} rolls dice but has no odds`).toBeDefined();
          }
          if (odds === undefined) continue;
          expect(odds.summary.length, action.label).toBeGreaterThan(0);
          expect(odds.lines.length, action.label).toBeGreaterThan(0);
          if (odds.target === undefined) continue;
          if (odds.meanDamage === undefined && odds.knockOut === undefined) continue;
          checkAgainstSamples(
            odds,
            sample(system, state, action.command, odds.target),
            action.label,
          );
          checked++;
        }
      }
      const chosen = policy(system, state, actions, choices);
      const result = encounter.submit(chosen.command);
      if (!result.ok) throw new Error(result.error.message);
    }
    expect(checked).toBeGreaterThan(0);
  });
});
