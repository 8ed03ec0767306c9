import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import type { CommandBase, LegalAction } from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { DEFAULT_POLICY, POLICIES, type Policy } from '../../src/sim/policies.js';
import {
  formatSidePolicies,
  parsePolicySpec,
  policyForEncounter,
  sidePolicy,
} from '../../src/sim/policy-spec.js';
import { runBattles } from '../../src/sim/runner.js';

const SIDES = [{ id: 'party' }, { id: 'enemies' }];

function encounter(file: string) {
  const read = readEncounterFile(file, SYSTEMS);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.encounter;
}

describe('--policy per side', () => {
  it.each([
    ['random', { party: 'random', enemies: 'random' }],
    ['party=random,enemies=attacker', { party: 'random', enemies: 'attacker' }],
    [' enemies = first ', { party: DEFAULT_POLICY, enemies: 'first' }],
    ['attacker,party=random', { party: 'random', enemies: 'attacker' }],
    ['party=random,first', { party: 'random', enemies: 'first' }],
  ])('reads %j', (text, expected) => {
    const parsed = parsePolicySpec(text, SIDES);
    expect(parsed).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['cheat', "unknown policy 'cheat': one of tactician, focus-weakest, random, attacker, first"],
    ['party=cheat', "unknown policy 'cheat'"],
    [
      'heroes=random',
      "unknown side 'heroes' in --policy: the encounter's sides are party, enemies",
    ],
    ['party=random,party=first', "names side 'party' twice"],
    ['random,attacker', 'names two policies for every side'],
    ['party=random,', 'has an empty entry'],
    ['', 'has an empty entry'],
    ['party=', "unknown policy ''"],
    ['__proto__=random', "unknown side '__proto__'"],
    ['party=toString', "unknown policy 'toString'"],
  ])('refuses %j naming what exists', (text, message) => {
    const parsed = parsePolicySpec(text, SIDES);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toContain(message);
  });

  it('writes the spec back in its shortest form', () => {
    expect(formatSidePolicies({ party: 'random', enemies: 'random' })).toBe('random');
    expect(formatSidePolicies({ party: 'random', enemies: 'first' })).toBe(
      'party=random,enemies=first',
    );
  });

  it('is the policy itself when every side has it: the common case costs nothing', () => {
    const { system, setup } = encounter('examples/ffrpg-wind-cave.yaml');
    const initial = system.ruleset.initialState(setup);
    expect(sidePolicy(system, initial, { party: 'first', enemies: 'first' })).toBe(POLICIES.first);
  });

  it("hands each decision to the deciding combatant's side", () => {
    for (const file of [
      'examples/ffrpg-wind-cave.yaml',
      'examples/ffviii-iron-giant.yaml',
      'examples/shining-force-gate.yaml',
      'examples/zodiac-keef-and-the-ogre.yaml',
    ]) {
      const { system, setup } = encounter(file);
      const initial = system.ruleset.initialState(setup);
      const sides = system.view(initial).sides.map((s) => s.id);
      const sideOf = new Map(system.view(initial).combatants.map((c) => [c.id, c.side]));
      const asked = new Map<string, Set<string>>();
      // Two spies that play `first` and note whose actions they were given.
      const spy =
        (name: string): Policy =>
        (sys, state, actions, random) => {
          for (const a of actions as readonly LegalAction<CommandBase>[]) {
            const actor = (a.command as { actor?: unknown }).actor;
            if (typeof actor === 'string') {
              const seen = asked.get(name) ?? new Set<string>();
              seen.add(sideOf.get(actor) ?? '?');
              asked.set(name, seen);
              break;
            }
          }
          return POLICIES.first!(sys, state, actions, random);
        };
      const spies = { a: spy('a'), b: spy('b') };
      const saved = { ...POLICIES };
      // sidePolicy looks policies up by name: lend it the spies under two real names.
      Object.assign(POLICIES as Record<string, Policy>, { random: spies.a, attacker: spies.b });
      try {
        const policy = sidePolicy(system, initial, {
          [sides[0]!]: 'random',
          [sides[1]!]: 'attacker',
        });
        runBattles(system, setup, policy, { seed: 'spy', from: 0, to: 5 });
      } finally {
        Object.assign(POLICIES as Record<string, Policy>, saved);
      }
      expect([...(asked.get('a') ?? [])], file).toEqual([sides[0]]);
      expect([...(asked.get('b') ?? [])], file).toEqual([sides[1]]);
    }
  });

  it('reads the spec against the encounter it plays', () => {
    const { system, setup } = encounter('examples/ffviii-iron-giant.yaml');
    const initial = system.ruleset.initialState(setup);
    const good = policyForEncounter(system, initial, 'giant=attacker');
    expect(good.ok && good.value.policies).toEqual({ ehlric: DEFAULT_POLICY, giant: 'attacker' });
    const bad = policyForEncounter(system, initial, 'party=attacker');
    expect(!bad.ok && bad.error.message).toContain('sides are ehlric, giant');
  });
});

describe('a mixed spec keeps the simulator direct path of the side that acts', () => {
  it('plays exactly the battles its list path plays (Shining Force, tactician against focus-weakest)', () => {
    const read = readEncounterFile('examples/shining-force-gate.yaml', SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    const { system, setup } = read.encounter;
    const start = system.ruleset.initialState(setup);
    const mixed = sidePolicy(system, start, { force: 'tactician', runefaust: 'focus-weakest' });
    expect(mixed.direct).toBeDefined();
    const listOnly: Policy = (sys, state, actions, random) => mixed(sys, state, actions, random);
    const play = (policy: Policy): string[] => {
      const log: string[] = [];
      runBattles(
        system,
        setup,
        policy,
        { seed: 'mixed-direct', from: 0, to: 12 },
        { observe: (command, events) => log.push(JSON.stringify(command), JSON.stringify(events)) },
      );
      return log;
    };
    const direct = play(mixed);
    expect(direct.length).toBeGreaterThan(100);
    expect(direct).toEqual(play(listOnly));
  });
});
