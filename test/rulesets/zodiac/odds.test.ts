/**
 * ZODIAC odds against sampled play: for every legal action of the example encounter, and of
 * states a few commands in, `meanDamage`, `knockOut`, the hit and the status chance are what
 * thousands of decides at a fixed seed give. Exact odds walk the ruleset itself, so they must
 * agree within sampling error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededDice } from '../../../src/dice/index.js';
import { readEncounterFile } from '../../../src/encounters/file.js';
import { CommandDice, type DiceRoller, type RollRecord } from '../../../src/engine/index.js';
import { SYSTEMS } from '../../../src/rulesets/index.js';
import {
  type ZodiacCommand,
  type ZodiacSetup,
  type ZodiacState,
  zodiac,
  zodiacSystem,
} from '../../../src/rulesets/zodiac/index.js';
import { begin, duel, keef, ogre, run, start, type ZodiacEncounter } from './helpers.js';

const SAMPLES = 3000;

interface Sampled {
  readonly meanDamage: number;
  readonly damageSd: number;
  readonly knockOut: number;
  readonly hit: number;
  readonly status: number;
}

/** The action decided SAMPLES times at one seed, read as the cross-system test reads it. */
function sample(state: ZodiacState, command: ZodiacCommand, target: string, seed: string): Sampled {
  const stream = seededDice(seed);
  let sum = 0;
  let squares = 0;
  let out = 0;
  let hits = 0;
  let landed = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const decided = zodiac.resolve!(state, command, new CommandDice(stream, { explain: false }));
    if (!decided.ok) throw new Error(decided.error.message);
    let damage = 0;
    for (const e of decided.value.events) {
      const d = zodiacSystem.damageOf(e);
      if (d?.target === target) damage += d.amount;
      if (e.type === 'attacked' && e.target === target && e.attack.hit) hits++;
      if (e.type === 'status-inflicted' && e.target === target) landed++;
    }
    sum += damage;
    squares += damage * damage;
    const brief = zodiacSystem.brief(decided.value.state);
    if (brief.combatants.find((c) => c.id === target)?.out) out++;
  }
  const mean = sum / SAMPLES;
  return {
    meanDamage: mean,
    damageSd: Math.sqrt(Math.max(0, squares / SAMPLES - mean * mean)),
    knockOut: out / SAMPLES,
    hit: hits / SAMPLES,
    status: landed / SAMPLES,
  };
}

/** Within five standard errors: never flaky at a fixed seed, and still sharp. */
function near(sampled: number, expected: number, sd: number): void {
  expect(Math.abs(sampled - expected)).toBeLessThanOrEqual((5 * sd) / Math.sqrt(SAMPLES) + 1e-9);
}

function bernoulliSd(p: number): number {
  return Math.sqrt(p * (1 - p));
}

/** Every legal action with a target: its odds against sampled play. */
function checkAll(encounter: ZodiacEncounter, seed: string): number {
  let checked = 0;
  for (const action of zodiac.legalActions(encounter.state)) {
    const odds = zodiacSystem.odds(encounter.state, action.command);
    expect(odds, action.label).toBeDefined();
    expect(odds!.summary.length, odds!.summary).toBeLessThanOrEqual(48);
    if (odds!.target === undefined) continue;
    const s = sample(encounter.state, action.command, odds!.target, `${seed}:${action.label}`);
    near(s.meanDamage, odds!.meanDamage!, s.damageSd);
    near(s.knockOut, odds!.knockOut!, bernoulliSd(odds!.knockOut!));
    if (action.command.type === 'attack') near(s.hit, odds!.chance!, bernoulliSd(odds!.chance!));
    if (odds!.status !== undefined) near(s.status, odds!.status, bernoulliSd(odds!.status));
    checked++;
  }
  return checked;
}

function example(): ZodiacEncounter {
  const read = readEncounterFile('examples/zodiac-keef-and-the-ogre.yaml', SYSTEMS);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return start(read.encounter.setup as ZodiacSetup, 'odds');
}

describe('odds for every action of the example encounter, against sampled play', () => {
  it("Keef's turn, the ogre's, and a wounded ogre a few commands in", () => {
    const encounter = example();
    begin(encounter);
    expect(checkAll(encounter, 'keef')).toBeGreaterThanOrEqual(3);
    run(encounter, { type: 'attack', actor: 'keef', target: 'ogre' });
    expect(checkAll(encounter, 'ogre')).toBeGreaterThanOrEqual(1);
    run(encounter, { type: 'defend', actor: 'ogre' });
    // Keef's second turn ends the tick: Poison at its end counts in the knock-out chance.
    run(encounter, { type: 'gm-set', target: 'ogre', resource: 'hp', value: 90 });
    expect(checkAll(encounter, 'wounded')).toBeGreaterThanOrEqual(3);
    const odds = zodiacSystem.odds(encounter.state, {
      type: 'attack',
      actor: 'keef',
      target: 'ogre',
    })!;
    expect(odds.exact).toBe(true);
    expect(odds.knockOut).toBeGreaterThan(0);
    expect(odds.summary).toMatch(/^hit \d+% · \d+-\d+ · .*KO \d+%/);
  });

  it('Power Strike and Potions have odds; Defend costs its SP with no chance in it', () => {
    const encounter = example();
    begin(encounter);
    const strike = zodiacSystem.odds(encounter.state, {
      type: 'tech',
      actor: 'keef',
      tech: 'power-strike',
      target: 'ogre',
    })!;
    expect(strike.summary).toMatch(/^hit \d+%/);
    expect(strike.cost).toContain('MP');
    const potion = zodiacSystem.odds(encounter.state, {
      type: 'item',
      actor: 'keef',
      item: 'potion',
      target: 'keef',
    })!;
    expect(potion.cost).toBe('a Potion, 8 SP');
    const defend = zodiacSystem.odds(encounter.state, { type: 'defend', actor: 'keef' })!;
    expect(defend).toMatchObject({ cost: '8 SP', exact: true });
    expect(defend.lines[0]).toContain('the rest of the round');
  });
});

describe('odds of Techs: Resist rolls, criticals, short range against fliers', () => {
  it('a status spell: d100 + Magic Accuracy against Resist, exactly', () => {
    // "equal to or greater than the target's Resist": d100 + 30 >= 80 on a natural 50 or more.
    const encounter = start(
      duel([keef({ techs: ['sleep'] })], [ogre({ stats: { ...ogre().stats, resist: 80 } })]),
    );
    begin(encounter);
    const command: ZodiacCommand = { type: 'tech', actor: 'keef', tech: 'sleep', target: 'ogre' };
    const odds = zodiacSystem.odds(encounter.state, command)!;
    expect(odds.status).toBeCloseTo(0.51, 12);
    expect(odds.summary).toContain('Sleep 51%');
    const s = sample(encounter.state, command, 'ogre', 'sleep');
    near(s.status, 0.51, 0.5);
  });

  it('short range against a flier: -60, and a natural 90+ always hits', () => {
    const encounter = start(
      duel([keef()], [ogre({ flying: true, stats: { ...ogre().stats, evade: 40 } })]),
    );
    begin(encounter);
    const odds = zodiacSystem.odds(encounter.state, {
      type: 'attack',
      actor: 'keef',
      target: 'ogre',
    })!;
    // 1d100 + 40 - 60 > 40 needs 61+: 40 of 100.
    expect(odds.chance).toBeCloseTo(0.4, 12);
    expect(odds.lines[1]).toContain('- 60');
  });

  it('a spell at several foes with dice each: estimated from seeded samples, and says so', () => {
    const foes = ['a', 'b', 'c'].map((id) =>
      ogre({ id, name: id.toUpperCase(), stats: { ...ogre().stats, resist: 60 } }),
    );
    const setup = duel([keef({ techs: ['blizzard'] })], foes);
    const blizzard = {
      ...setup.techs!.blizzard!,
      inflicts: [{ status: 'slow' as const, ticks: 3 }],
    };
    const encounter = start({ ...setup, techs: { ...setup.techs, blizzard } });
    begin(encounter, { keef: 3, a: 1, b: 1, c: 1 });
    const command: ZodiacCommand = { type: 'tech', actor: 'keef', tech: 'blizzard' };
    const odds = zodiacSystem.odds(encounter.state, command)!;
    expect(odds.exact).toBe(false);
    expect(odds.lines.at(-1)).toContain('estimated');
    expect(odds.target).toBe('a');
    const s = sample(encounter.state, command, 'a', 'blizzard');
    near(s.meanDamage, odds.meanDamage!, 2 * s.damageSd);
  });
});

/** Dice from a seed that note every purpose asked, `#n` stripped. */
class Noting implements DiceRoller {
  readonly asked = new Set<string>();
  readonly explain = false;
  constructor(private readonly inner: CommandDice) {}
  roll(purpose: string, notation: string): RollRecord {
    this.asked.add(`${purpose.replace(/#\d+$/, '')} ${notation}`);
    return this.inner.roll(purpose, notation);
  }
}

describe('rolls: every purpose a command may ask for is listed', () => {
  it('for random legal actions at random seeds', () => {
    const setup = duel(
      [
        keef({
          techs: ['sleep', 'power-strike', 'cure', 'blizzard', 'fire', 'life'],
          items: { potion: 2, 'phoenix-down': 1 },
        }),
      ],
      [ogre({ statuses: [{ status: 'wall' }] }), ogre({ id: 'imp', name: 'Imp', flying: true })],
      { wallBounce: true },
    );
    fc.assert(
      fc.property(
        fc.integer(),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        (seed, picks) => {
          const encounter = start(setup, seed);
          const stream = seededDice(seed);
          for (const pick of picks) {
            const actions = zodiac.legalActions(encounter.state);
            if (actions.length === 0) break;
            const command = actions[pick % actions.length]!.command;
            const listed = new Set(
              zodiacSystem.rolls(encounter.state, command).map((r) => `${r.purpose} ${r.notation}`),
            );
            const dice = new Noting(new CommandDice(stream, { explain: false }));
            const decided = zodiac.resolve!(encounter.state, command, dice);
            if (!decided.ok) throw new Error(decided.error.message);
            for (const asked of dice.asked)
              expect(listed, JSON.stringify(command)).toContain(asked);
            encounter.submit(command);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('a GM amount in dice, and a newcomer in round 1', () => {
    const encounter = start();
    begin(encounter);
    expect(
      zodiacSystem.rolls(encounter.state, {
        type: 'gm-damage',
        target: 'ogre',
        amount: '2d6',
        raw: false,
      }),
    ).toMatchObject([{ purpose: 'gm:ogre', notation: '2d6' }]);
    const newcomer = { ...ogre(), statuses: [], items: {}, techs: [], immunities: [] };
    expect(
      zodiacSystem.rolls(encounter.state, {
        type: 'gm-add',
        side: 'monsters',
        newcomer: newcomer as never,
      }),
    ).toMatchObject([{ purpose: 'sp:ogre-2', notation: '1d8' }]);
  });
});
