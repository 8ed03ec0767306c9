import { describe, expect, it } from 'vitest';
import { SeededDice } from '../../src/dice/index.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import type { CommandBase, LegalAction } from '../../src/engine/index.js';
import type { FfrpgState } from '../../src/rulesets/ffrpg/state.js';
import type { FfviiiState } from '../../src/rulesets/ffviii/state.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { combatantOf, type ShiningForceState } from '../../src/rulesets/shining-force/state.js';
import type { AnySystem } from '../../src/rulesets/system.js';
import type { ZodiacSetup } from '../../src/rulesets/zodiac/model.js';
import type { ZodiacState } from '../../src/rulesets/zodiac/state.js';
import { FastDice } from '../../src/sim/fast-dice.js';
import { tactician, worth } from '../../src/sim/tactician/index.js';
import { shiningForceTactics } from '../../src/sim/tactician/shining-force.js';
import { zodiacTactics } from '../../src/sim/tactician/zodiac.js';

function encounter(file: string) {
  const read = readEncounterFile(file, SYSTEMS);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.encounter;
}

/**
 * Plays battles of an example under the tactician, handing every decision to `see` before it
 * is made: what the state and the legal actions are, to ask the tactician about changed states.
 */
function decisions<State>(
  file: string,
  seeds: number,
  see: (state: State, actions: readonly LegalAction<CommandBase>[]) => void,
): void {
  const { system, setup } = encounter(file);
  const { ruleset } = system;
  const choices = SeededDice.fromSeed('choices');
  for (let seed = 0; seed < seeds; seed++) {
    const dice = new FastDice(SeededDice.fromSeed(`choices:${seed}`));
    let state = ruleset.initialState(setup);
    for (let i = 0; i < 1000 && !ruleset.outcome(state).over; i++) {
      const actions = ruleset.legalActions(state);
      see(state as State, actions);
      const chosen = tactician(system, state, actions, choices);
      const decided = ruleset.decide(state, chosen.command, dice);
      if (!decided.ok) throw new Error(decided.error.message);
      for (const e of decided.value) state = ruleset.evolve(state, e);
    }
  }
}

/**
 * The state at `actor`'s first turn in a battle of `setup`: the battle begun, and whoever comes
 * before it playing the first action listed, on the dice of `seed`.
 */
function untilActs(system: AnySystem, setup: unknown, actor: string, seed: string): unknown {
  const { ruleset } = system;
  const dice = new FastDice(SeededDice.fromSeed(seed));
  let state = ruleset.initialState(setup);
  for (let i = 0; i < 50; i++) {
    const actions = ruleset.legalActions(state);
    if (actions.some((a) => (a.command as { actor?: string }).actor === actor)) break;
    const decided = ruleset.decide(state, actions[0]!.command, dice);
    if (!decided.ok) throw new Error(decided.error.message);
    for (const e of decided.value) state = ruleset.evolve(state, e);
  }
  return state;
}

type Chosen = { type: string; target?: string; ability?: string; spell?: string };

describe('the tactician chooses', () => {
  it('FFRPG: Mint casts Cure on Hiro at 1 HP, whom the Heket would fell, rather than attack; at full HP she does not', () => {
    const file = 'examples/ffrpg-wind-cave.yaml';
    const { system } = encounter(file);
    let asked = 0;
    decisions<FfrpgState>(file, 10, (state, actions) => {
      const canCure = actions.some(
        (a) => (a.command as Chosen).ability === 'cure' && (a.command as Chosen).target === 'hiro',
      );
      if (!canCure || !actions.some((a) => a.command.type === 'attack')) return;
      if (state.combatants.hiro!.down) return;
      // Everyone at full HP but Hiro: only he is in danger, and the Heket is far from falling.
      const withHiroAt = (hp: number): FfrpgState => {
        const combatants = { ...state.combatants };
        for (const [id, c] of Object.entries(combatants))
          combatants[id] = { ...c, hp: id === 'hiro' ? hp : c.sheet.stats.hp };
        return { ...state, combatants };
      };
      const choices = SeededDice.fromSeed('x');
      const inDanger = tactician(system, withHiroAt(1), actions, choices).command as Chosen;
      expect(inDanger).toMatchObject({ type: 'use-ability', ability: 'cure', target: 'hiro' });
      const healthy = tactician(system, withHiroAt(72), actions, choices).command as Chosen;
      expect(healthy.ability).not.toBe('cure');
      asked++;
    });
    expect(asked).toBeGreaterThan(5);
  });

  it('Shining Force: never spends MP (Blaze, Freeze) on an enemy at 1 HP that its own attack in reach kills', () => {
    const file = 'examples/shining-force-gate.yaml';
    const { system } = encounter(file);
    let asked = 0;
    let attacked = 0;
    decisions<ShiningForceState>(file, 20, (state, actions) => {
      for (const a of actions) {
        const target = (a.command as Chosen).target;
        if (a.command.type !== 'attack' || target === undefined) continue;
        const spells = actions.filter(
          (b) => b.command.type === 'cast' && (b.command as Chosen).target === target,
        );
        if (spells.length === 0) continue;
        const c = combatantOf(state, target)!;
        const weak: ShiningForceState = {
          ...state,
          combatants: state.combatants.map((other) => (other === c ? { ...c, hp: 1 } : other)),
        };
        const chosen = tactician(system, weak, actions, SeededDice.fromSeed('x')).command as Chosen;
        expect(chosen.type === 'cast' && chosen.target === target, JSON.stringify(chosen)).toBe(
          false,
        );
        if (chosen.type === 'attack' && chosen.target === target) attacked++;
        asked++;
        return;
      }
    });
    expect(asked).toBeGreaterThan(10);
    // Mostly it takes the kill with the attack; now and then a blow elsewhere is worth more.
    expect(attacked / asked).toBeGreaterThan(0.75);
  });

  it("FFVIII: Ehlric dodges the Iron Giant's sword (lands 57% taken, 22% dodging); the Giant, out of reach of Thunder's 12, takes it (97% taken, 93% dodging)", () => {
    const file = 'examples/ffviii-iron-giant.yaml';
    const { system } = encounter(file);
    const seen = { ehlricDodged: 0, ehlricTook: 0, giantDodged: 0, giantTook: 0 };
    decisions<FfviiiState>(file, 40, (state, actions) => {
      const pending = state.pending;
      if (pending === null || !actions.some((a) => a.command.type === 'dodge')) return;
      const chosen = tactician(system, state, actions, SeededDice.fromSeed('x')).command.type;
      const target = state.combatants[pending.target]!;
      if (pending.type === 'attack' && pending.target === 'ehlric') {
        if (chosen === 'dodge') seen.ehlricDodged++;
        else seen.ehlricTook++;
      }
      if (
        pending.type === 'cast' &&
        pending.spell === 'thunder' &&
        pending.target === 'iron-giant' &&
        target.hp > 12
      ) {
        if (chosen === 'dodge') seen.giantDodged++;
        else seen.giantTook++;
      }
    });
    expect(seen.ehlricDodged).toBeGreaterThan(5);
    expect(seen.ehlricTook).toBe(0);
    expect(seen.giantTook).toBeGreaterThan(5);
    expect(seen.giantDodged).toBe(0);
  });

  it('Shining Force: Lowe cures a poisoned fighter in reach (Detox or an Antidote: one of its blows back) when no blow of his own is in reach; the same fighter unpoisoned, he does not', () => {
    const file = 'examples/shining-force-gate.yaml';
    const { system } = encounter(file);
    // Those whose blow is worth more than the Detox's MP (Tao's is not: her worth is her spells).
    const FIGHTERS = ['max', 'ken', 'hans'];
    const isCure = (c: Chosen & { item?: string }) =>
      (c.type === 'cast' && c.spell === 'detox-1') || (c.type === 'use' && c.item === 'antidote');
    let asked = 0;
    decisions<ShiningForceState>(file, 30, (state, actions) => {
      if (state.step !== 'act' || state.order[state.cursor] !== 'lowe') return;
      if (actions.some((a) => a.command.type === 'attack')) return;
      const target = actions
        .map((a) => a.command as Chosen)
        .find((c) => isCure(c) && FIGHTERS.includes(c.target ?? ''))?.target;
      if (target === undefined) return;
      // Everyone at full HP, so no heal is worth anything; only the target's poison differs.
      const withTarget = (poisoned: boolean): ShiningForceState => ({
        ...state,
        combatants: state.combatants.map((c) => ({
          ...c,
          hp: c.defeated ? c.hp : c.sheet.stats.hp,
          statuses:
            c.id === target && poisoned ? [{ status: 'poison', turns: null, amount: 2 }] : [],
        })),
      });
      const choices = SeededDice.fromSeed('x');
      const cured = tactician(system, withTarget(true), actions, choices).command as Chosen;
      expect(isCure(cured)).toBe(true);
      expect(cured.target).toBe(target);
      const left = tactician(system, withTarget(false), actions, choices).command as Chosen;
      expect(isCure(left)).toBe(false);
      asked++;
    });
    expect(asked).toBeGreaterThan(3);
  });

  it("Shining Force: the Dark Mage's Desoul counts as the knock-out it may be: worth its chance of the target's HP and more, where before it scored nothing", () => {
    const file = 'examples/shining-force-gate.yaml';
    const { system } = encounter(file);
    let asked = 0;
    decisions<ShiningForceState>(file, 30, (state, actions) => {
      const desoul = actions.find(
        (a) => a.command.type === 'cast' && (a.command as Chosen).spell === 'desoul-1',
      );
      if (desoul === undefined) return;
      const target = combatantOf(state, (desoul.command as Chosen).target!)!;
      const field = {
        actor: { id: 'dark-mage', side: 'runefaust', hp: 10, maxHp: 10, out: false },
        fighter: (id: string) => {
          const c = combatantOf(state, id);
          return c && { id, side: c.side, hp: c.hp, maxHp: c.sheet.stats.hp, out: c.defeated };
        },
        threatOn: () => 0,
        threatOf: () => 0,
      };
      const estimate = shiningForceTactics.estimator(system, state, field)(desoul.command);
      expect(estimate?.harm).toEqual({ min: target.hp, mean: target.hp, max: target.hp });
      // Less the decision's own term for where the mage stands (the same for every option).
      const odds = system.odds(state, desoul.command);
      expect(odds?.chance ?? 0).toBeGreaterThan(0);
      expect(estimate?.chance).toBe(odds?.chance);
      expect(worth(estimate!, field) - (estimate?.extra ?? 0)).toBeGreaterThanOrEqual(
        (odds?.chance ?? 0) * target.hp,
      );
      asked++;
    });
    expect(asked).toBeGreaterThan(3);
  });

  it('ZODIAC: an Antidote on a poisoned Keef is worth one of his blows; on Keef unpoisoned, nothing', () => {
    const { system, setup } = encounter('examples/zodiac-keef-and-the-ogre.yaml');
    const withAntidote = structuredClone(setup) as ZodiacSetup;
    (withAntidote.items as Record<string, ZodiacSetup['items'][string]>).antidote = {
      name: 'Antidote',
      restoreHp: 0,
      restoreMp: 0,
      cures: ['poison'],
    };
    const state = untilActs(system, withAntidote, 'keef', 'antidote') as ZodiacState;
    const keef = state.combatants.keef!;
    const keefWith = (poisoned: boolean): ZodiacState => ({
      ...state,
      combatants: {
        ...state.combatants,
        keef: {
          ...keef,
          items: { ...keef.items, antidote: 1 },
          statuses: poisoned ? [{ status: 'poison', ticks: null, untilRound: null }] : [],
        },
      },
    });
    const antidote = { type: 'item', actor: 'keef', item: 'antidote', target: 'keef' };
    const scoreOf = (s: ZodiacState) => {
      const field = {
        actor: { id: 'keef', side: 'party', hp: keef.hp, maxHp: keef.maxHp, out: false },
        fighter: (id: string) => {
          const c = s.combatants[id];
          return c && { id, side: c.side, hp: c.hp, maxHp: c.maxHp, out: false };
        },
        threatOn: () => 0,
        threatOf: (id: string) => (id === 'keef' ? 30 : 0),
      };
      const estimate = zodiacTactics.estimator(system, s, field)(antidote);
      return estimate === undefined ? undefined : worth(estimate, field);
    };
    expect(scoreOf(keefWith(true))).toBeCloseTo(30, 9);
    expect(scoreOf(keefWith(false))).toBeUndefined();
  });

  it('ZODIAC: Keef wakes a fallen Merlin with a Phoenix Down when he holds two (her 10% and half her HP back, against the item), and strikes the ogre when it is his last', () => {
    const { system, setup } = encounter('test/sim/fixtures/zodiac-keef-and-merlin.yaml');
    const { ruleset } = system;
    const state = untilActs(system, setup, 'keef', 'phoenix') as ZodiacState;
    const keef = state.combatants.keef!;
    const merlin = state.combatants.merlin!;
    const fallen = (downs: number): ZodiacState => ({
      ...state,
      combatants: {
        ...state.combatants,
        keef: { ...keef, items: { ...keef.items, 'phoenix-down': downs } },
        merlin: { ...merlin, hp: 0, unconscious: true },
      },
    });
    const chosen = (s: ZodiacState) => {
      const actions = ruleset.legalActions(s);
      return tactician(system, s, actions, SeededDice.fromSeed('x')).command as Chosen & {
        item?: string;
      };
    };
    expect(chosen(fallen(2))).toMatchObject({
      type: 'item',
      item: 'phoenix-down',
      target: 'merlin',
    });
    expect(chosen(fallen(1)).type).toBe('attack');
    const field = {
      actor: { id: 'keef', side: 'party', hp: keef.hp, maxHp: keef.maxHp, out: false },
      fighter: (id: string) => {
        const c = fallen(2).combatants[id];
        return c && { id, side: c.side, hp: c.hp, maxHp: c.maxHp, out: c.unconscious };
      },
      threatOn: () => 0,
      threatOf: () => 0,
    };
    const phoenixDown = { type: 'item', actor: 'keef', item: 'phoenix-down', target: 'merlin' };
    const estimate = zodiacTactics.estimator(system, fallen(2), field)(phoenixDown);
    // Phoenix Down: 10% of her maximum HP.
    expect(estimate?.revives).toBe(Math.floor(merlin.maxHp / 10));
    expect(worth(estimate!, field)).toBeCloseTo(
      Math.floor(merlin.maxHp / 10) + merlin.maxHp / 2,
      9,
    );
  });
});
