import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/input.js';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { policyForBattle } from '../../src/cli/sim.js';
import { SeededDice } from '../../src/dice/index.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import type { Policy } from '../../src/sim/policies.js';
import { policyForEncounter } from '../../src/sim/policy-spec.js';
import type { SimReport } from '../../src/sim/report.js';
import { runBattles } from '../../src/sim/runner.js';

const EXAMPLES = [
  ['examples/ffrpg-wind-cave.yaml', 'party', true],
  ['examples/ffviii-iron-giant.yaml', 'ehlric', false],
  ['examples/shining-force-gate.yaml', 'force', true],
  ['examples/zodiac-keef-and-the-ogre.yaml', 'party', true],
] as const;

async function run(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (line) => out.push(line), err: (line) => err.push(line) };
  const status = await main(['node', 'moogle', ...args], io);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

async function report(file: string, ...more: string[]): Promise<SimReport> {
  const { status, out, err } = await run(
    'sim',
    file,
    '-n',
    '300',
    '--seed',
    '15',
    ...more,
    '--json',
  );
  expect(status, err).toBe(0);
  return JSON.parse(out) as SimReport;
}

function inUnit(x: number): void {
  expect(x).toBeGreaterThanOrEqual(0);
  expect(x).toBeLessThanOrEqual(1);
}

describe('the sim report on every example encounter', () => {
  it.each(EXAMPLES)(
    '%s: the players, their losses and what is left',
    async (file, side, marked) => {
      const r = await report(file, '--workers', '1');
      // The fields there were before are all still there.
      for (const key of ['battles', 'seed', 'policy', 'workers', 'interrupted', 'wins', 'draws']) {
        expect(r).toHaveProperty(key);
      }
      expect(r.policy).toBe('tactician');
      expect(Object.values(r.policies).every((p) => p === 'tactician')).toBe(true);
      expect(Object.keys(r.policies)).toEqual(Object.keys(r.wins));
      for (const w of Object.values(r.wins)) expect(w.policy).toBe('tactician');
      const p = r.players!;
      expect(p.side).toBe(side);
      expect(p.chosenBy).toBe(marked ? 'marked' : 'first');
      expect(p.policy).toBe('tactician');
      for (const rate of [p.someoneKnockedOut, p.everyoneKnockedOut]) {
        inUnit(rate.rate);
        expect(rate.ci95[0]).toBeLessThanOrEqual(rate.rate);
        expect(rate.ci95[1]).toBeGreaterThanOrEqual(rate.rate);
      }
      expect(p.everyoneKnockedOut.count).toBeLessThanOrEqual(p.someoneKnockedOut.count);
      // A side that lost was all knocked out; it may have been without losing (a draw).
      expect(p.everyoneKnockedOut.count).toBeGreaterThanOrEqual(
        r.battles - r.unfinished - r.draws - r.wins[side]!.count,
      );
      inUnit(p.hpLeft);
      if (p.mpLeft !== null) inUnit(p.mpLeft);
      expect(p.meanOverkillDealt).toBeGreaterThanOrEqual(0);
      expect(p.meanOverkillTaken).toBeGreaterThanOrEqual(0);
      // Each of them, and the others.
      const view = (() => {
        const read = readEncounterFile(file, SYSTEMS);
        if (!read.ok) throw new Error('example does not load');
        const { system, setup } = read.encounter;
        return system.view(system.ruleset.initialState(setup));
      })();
      for (const c of r.combatants) {
        const sheet = view.combatants.find((v) => v.id === c.id)!;
        inUnit(c.survival);
        inUnit(c.knockedOut);
        inUnit(c.fled);
        // Out at the end means knocked out at some point, or fled.
        expect(c.knockedOut + c.fled).toBeGreaterThanOrEqual(1 - c.survival - 1e-12);
        expect(c.meanOverkillDealt).toBeGreaterThanOrEqual(0);
        expect(c.meanOverkillTaken).toBeGreaterThanOrEqual(0);
        expect(c.meanHpLeft).toBeGreaterThanOrEqual(0);
        expect(c.meanHpLeft).toBeLessThanOrEqual(sheet.maxHp);
        expect(c.meanMpLeft).toBeLessThanOrEqual(sheet.maxMp);
      }
      const theirs = r.combatants.filter((c) => c.side === side);
      const sum = (f: (c: SimReport['combatants'][number]) => number): number =>
        theirs.reduce((s, c) => s + f(c), 0);
      expect(p.meanDamageTaken).toBeCloseTo(
        sum((c) => c.meanDamageTaken),
        9,
      );
      expect(p.meanOverkillTaken).toBeCloseTo(
        sum((c) => c.meanOverkillTaken),
        9,
      );
    },
  );

  it.each(EXAMPLES)('%s: no battle takes more HP from anyone than it had', (file) => {
    const read = readEncounterFile(file, SYSTEMS);
    if (!read.ok) throw new Error('example does not load');
    const { system, setup } = read.encounter;
    const initial = system.ruleset.initialState(setup);
    const maxHp = new Map(system.view(initial).combatants.map((c) => [c.id, c.maxHp]));
    for (const spec of ['focus-weakest', 'attacker', 'random']) {
      const chosen = policyForEncounter(system, initial, spec);
      if (!chosen.ok) throw new Error(chosen.error.message);
      for (let i = 0; i < 40; i++) {
        // HP regained (Cure, a Potion, a Healing Seed) may be lost again: the bound is the HP it
        // started with plus every rise seen between one decision and the next.
        const last = new Map<string, number>(
          system.brief(initial).combatants.map((c) => [c.id, c.hp]),
        );
        const regained = new Map<string, number>();
        const watching: Policy = (sys, state, actions, random) => {
          for (const c of sys.brief(state).combatants) {
            const rise = c.hp - Math.max(last.get(c.id) ?? c.hp, 0);
            if (rise > 0) regained.set(c.id, (regained.get(c.id) ?? 0) + rise);
            last.set(c.id, c.hp);
          }
          return chosen.value.policy(sys, state, actions, random);
        };
        // One battle at a time: the invariant is per battle, and the sums would hide a breach.
        const one = runBattles(system, setup, watching, { seed: 'hp', from: i, to: i + 1 });
        for (const c of Object.values(one.combatants)) {
          expect(c.damageTaken, `${file} ${spec} battle ${i} ${c.id}`).toBeLessThanOrEqual(
            maxHp.get(c.id)! + (regained.get(c.id) ?? 0),
          );
          expect(c.overkillTaken).toBeGreaterThanOrEqual(0);
          expect(c.overkillDealt).toBeGreaterThanOrEqual(0);
          expect(c.hpLeft).toBeLessThanOrEqual(c.hpMax);
        }
      }
    }
  });

  it.each([
    ['examples/zodiac-keef-and-the-ogre.yaml', 'party', 'item-used'],
    ['examples/shining-force-gate.yaml', 'force', 'item-used'],
    ['examples/ffviii-iron-giant.yaml', 'ehlric', 'item-spent'],
  ] as const)(
    "%s: items used are the items the players' side spent, a battle",
    (file, side, spent) => {
      const read = readEncounterFile(file, SYSTEMS);
      if (!read.ok) throw new Error('example does not load');
      const { system, setup } = read.encounter;
      const initial = system.ruleset.initialState(setup);
      const ours = new Set(
        system
          .view(initial)
          .combatants.filter((c) => c.side === side)
          .map((c) => c.id),
      );
      const carried = system
        .view(initial)
        .combatants.filter((c) => ours.has(c.id))
        .reduce((n, c) => n + (c.items ?? 0), 0);
      expect(carried).toBeGreaterThan(0);
      // Random play spends items the tactician keeps (FFVIII's Ehlric never needs his Potions).
      const chosen = policyForEncounter(system, initial, 'random');
      if (!chosen.ok) throw new Error(chosen.error.message);
      let events = 0;
      const aggregate = runBattles(
        system,
        setup,
        chosen.value.policy,
        { seed: 'items', from: 0, to: 200 },
        {
          observe: (_command, happened) => {
            for (const e of happened) {
              const by = (e as { actor?: string }).actor;
              if (e.type === spent && by !== undefined && ours.has(by)) events++;
            }
          },
        },
      );
      let held = 0;
      let left = 0;
      for (const c of Object.values(aggregate.combatants)) {
        if (!ours.has(c.id)) continue;
        held += c.itemsHeld;
        left += c.itemsLeft;
      }
      expect(held).toBe(carried * 200);
      expect(events).toBeGreaterThan(0);
      expect(held - left).toBe(events);
    },
  );

  it('no longer counts overkill as damage: the 200-HP Heket loses at most 200 HP', async () => {
    const r = await report('examples/ffrpg-wind-cave.yaml', '--workers', '1');
    const heket = r.combatants.find((c) => c.id === 'heket')!;
    expect(heket.meanDamageTaken).toBeLessThanOrEqual(200);
    expect(heket.meanOverkillTaken).toBeGreaterThan(0);
    // Dealt and taken are the same HP seen from each end (only attacks with a dealer count).
    const dealt = r.combatants.reduce((s, c) => s + c.meanDamageDealt, 0);
    const taken = r.combatants.reduce((s, c) => s + c.meanDamageTaken, 0);
    expect(dealt).toBeCloseTo(taken, 9);
  });

  it.each(EXAMPLES)('%s: the same JSON on one worker and on two', async (file) => {
    const read = readEncounterFile(file, SYSTEMS);
    if (!read.ok) throw new Error('example does not load');
    const sides = read.encounter.system.view(
      read.encounter.system.ruleset.initialState(read.encounter.setup),
    ).sides;
    const spec = `${sides[0]!.id}=random,${sides[1]!.id}=attacker`;
    const one = await report(file, '--workers', '1', '--policy', spec);
    const two = await report(file, '--workers', '2', '--policy', spec);
    expect(one.policies).toEqual({ [sides[0]!.id]: 'random', [sides[1]!.id]: 'attacker' });
    expect(one.policy).toBe(spec);
    // The machine may have one core, which lowers --workers 2 to 1: the rest must match anyway.
    expect({ ...two, workers: 0 }).toEqual({ ...one, workers: 0 });
  });
});

describe('moogle sim --policy per side', () => {
  it('names each side with its own policy in the text report', async () => {
    const { status, out } = await run(
      'sim',
      'examples/ffrpg-wind-cave.yaml',
      '-n',
      '50',
      '--seed',
      '1',
      '--workers',
      '1',
      '--policy',
      'party=random,enemies=attacker',
    );
    expect(status).toBe(0);
    expect(out).toContain('policy party=random,enemies=attacker');
    expect(out).toMatch(/The party win .*\[random\]/);
    expect(out).toMatch(/The Heket win .*\[attacker\]/);
    expect(out).toContain('The party (the players, policy random):');
    expect(out).toContain('someone knocked out');
  });

  it('says when the first side stands in for the players (FFVIII)', async () => {
    const { out } = await run('sim', 'examples/ffviii-iron-giant.yaml', '-n', '20', '--seed', '1');
    expect(out).toContain('the first side, taken as the players');
  });

  it.each([
    [
      'heroes=random',
      "unknown side 'heroes' in --policy: the encounter's sides are party, enemies",
    ],
    [
      'party=cheat',
      "unknown policy 'cheat': one of tactician, focus-weakest, random, attacker, first",
    ],
    ['party=random,party=first', "names side 'party' twice"],
  ])('refuses --policy %j with status 2', async (spec, message) => {
    const { status, err } = await run(
      'sim',
      'examples/ffrpg-wind-cave.yaml',
      '-n',
      '10',
      '--policy',
      spec,
    );
    expect(status).toBe(2);
    expect(err).toContain(message);
  });
});

describe('policyForBattle: the same --policy for battle --auto', () => {
  const read = readEncounterFile('examples/ffrpg-wind-cave.yaml', SYSTEMS);
  if (!read.ok) throw new Error('example does not load');
  const { system, setup } = read.encounter;
  const state = system.ruleset.initialState(setup);
  const actions = system.ruleset.legalActions(state);
  const random = SeededDice.fromSeed('battle');

  it('refuses an unknown policy at once, before any encounter is read', () => {
    expect(() => policyForBattle('party=cheat')).toThrow(UsageError);
    expect(() => policyForBattle('party=cheat')).toThrow("unknown policy 'cheat'");
  });

  it('refuses an unknown side when it first meets the encounter', () => {
    const policy = policyForBattle('heroes=random');
    expect(() => policy(system, state, actions, random)).toThrow(UsageError);
    expect(() => policy(system, state, actions, random)).toThrow('sides are party, enemies');
  });

  it('plays a per-side spec, and the default without one', () => {
    expect(actions).toContain(
      policyForBattle('party=random,enemies=attacker')(system, state, actions, random),
    );
    expect(actions).toContain(policyForBattle()(system, state, actions, random));
  });
});
