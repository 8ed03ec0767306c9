/**
 * Success, failure and damage with the text's own numbers, then every action of the summary
 * table: its shot cost and how it resolves (Cast Spell, Draw and Sense Spellshards, Reloading a
 * Gun, Using an Item, Summon GF), and the options a table may set.
 */
import { describe, expect, it } from 'vitest';
import type { DiceRoller } from '../../../src/engine/index.js';
import { ACTION_DICE, type FfviiiSetup, ffviii } from '../../../src/rulesets/ffviii/index.js';
import { dodgeRating } from '../../../src/rulesets/ffviii/state.js';
import { reloadShots, summonShots } from '../../../src/rulesets/ffviii/validate.js';
import {
  attackTaken,
  beginRound,
  declareAndAnswer,
  EHLRIC,
  type FfviiiEncounter,
  GIANT,
  hp,
  initiative,
  ironGiant,
  ironGiantWith,
  ofType,
  only,
  rejected,
  rollOf,
  run,
  type Sheet,
  sheetOf,
  shotOf,
  start,
  types,
  who,
} from './helpers.js';

/**
 * Boxcars on a roll that fails anything: both dice open on 6; the positive die then shows 1
 * (7), the negative explodes twice more and shows 1 (6 + 6 + 6 + 1 = 19): -12.
 */
const BOXCARS_MINUS_12 = [6, 1, 6, 6, 6, 1];
/** Boxcars that total 0: +[6, 1] -[6, 1]. */
const BOXCARS_ZERO = [6, 1, 6, 1];

/** The example, round 1 begun with the text's initiative: Ehlric on 16, the Giant on 12. */
function shot16(setup: FfviiiSetup = ironGiant()): FfviiiEncounter {
  const encounter = start(setup);
  beginRound(encounter);
  return encounter;
}

type Weapon = Sheet['weapons'][number];

function gun(id: string, kind: string, capacity: number): Weapon {
  return {
    id,
    name: id[0]!.toUpperCase() + id.slice(1),
    skills: ['guns', 'weapon-focus'],
    damage: { strength: false, bonus: 20 },
    shots: 4,
    gun: { kind, capacity },
  };
}

/** A gunner in Ehlric's place: Guns AV 11 (Reflexes 7 + 4), Speed 6. */
function gunner(weapons: Weapon[]): FfviiiSetup {
  const irvine: Sheet = {
    id: 'irvine',
    kind: 'character',
    name: 'Irvine',
    hp: 40,
    attributes: {
      speed: 6,
      strength: 6,
      toughness: 5,
      spirit: 5,
      evade: 3,
      magicEvade: 2,
      reflexes: 7,
    },
    skills: { guns: { attribute: 'reflexes', bonus: 4, combat: true } },
    elementalSpirit: {},
    weapons,
    spellMatrix: {},
    items: {},
    guardianForces: [],
    powers: [],
    spellshards: [],
  };
  return ironGiantWith((setup) => {
    setup.sides[0]!.combatants = [irvine];
  });
}

/** Irvine on 16 (d10 10 + Speed 6), the Giant on 12. */
const GUNNER_INITIATIVE = initiative({ irvine: 10, [GIANT]: 9 });

/** A dice roller for commands that must roll nothing. */
const NO_DICE: DiceRoller = {
  roll(purpose) {
    throw new Error(`unexpected roll ${purpose}`);
  },
};

describe('5: Success and failure', () => {
  it('"he rolls a -4" on Martial Arts AV 11 (Reflexes 8 + Martial arts 3) against "The Iron Giant\'s Dodge rating is 6, and Ehlric connects": 7, by 1', () => {
    const encounter = shot16();
    const events = attackTaken(encounter, EHLRIC, GIANT, rollOf(-4), 'staff');
    const { check } = only(events, 'check-rolled');
    expect(check).toMatchObject({
      skill: 'martial-arts',
      actionValue: 11,
      roll: -4,
      result: 7,
      difficulty: 6,
      against: 'Dodge 6',
      success: true,
      margin: 1,
      boxcars: false,
      criticalFailure: false,
    });
    expect(check.dice).toMatchObject({ purpose: 'attack:iron-giant', notation: ACTION_DICE });
    expect(check.dice.dice).toEqual([1, 5]);
  });

  it('"If the final result is higher than or equal to the difficulty, the action succeeds": exactly Dodge 6 hits, "one point lower ... would have missed the Giant entirely"', () => {
    const equal = shot16();
    const hit = only(attackTaken(equal, EHLRIC, GIANT, rollOf(-5), 'staff'), 'check-rolled');
    expect(hit.check).toMatchObject({ result: 6, success: true, margin: 0 });
    const lower = shot16();
    const missed = attackTaken(lower, EHLRIC, GIANT, rollOf(-6), 'staff');
    expect(only(missed, 'check-rolled').check).toMatchObject({ result: 5, success: false });
    expect(ofType(missed, 'damage-dealt')).toEqual([]);
    expect(ofType(missed, 'critical-failure')).toEqual([]);
  });
});

describe('6: Damage', () => {
  it('"Ehlric\'s damage for his staff is 12 ... the Iron Giant has a Toughness of 15 ... his staff bounce off the steel hide of the giant with no effect at all"', () => {
    const encounter = shot16();
    const events = attackTaken(encounter, EHLRIC, GIANT, rollOf(-5), 'staff');
    // "Since he rolled exactly the Iron Giant's Dodge when attacking, he gets no bonus damage"
    expect(only(events, 'damage-dealt')).toEqual({
      type: 'damage-dealt',
      source: EHLRIC,
      target: GIANT,
      amount: 0,
      hpAfter: 60,
      breakdown: 'Strength 8 + 4 + margin 0 - Toughness 15 = 0',
    });
    expect(hp(encounter, GIANT)).toBe(60);
  });

  it.each([
    [-4, 1, 0],
    [-2, 3, 0],
    [-1, 4, 1],
    [3, 8, 5],
  ])(
    '"gotten 4 or more above the Giant\'s dodge of 6, he would have ... done at least a little damage": roll %i, margin %i, damage %i',
    (roll, margin, damage) => {
      const encounter = shot16();
      const events = attackTaken(encounter, EHLRIC, GIANT, rollOf(roll), 'staff');
      expect(only(events, 'check-rolled').check.margin).toBe(margin);
      expect(only(events, 'damage-dealt')).toMatchObject({ amount: damage, hpAfter: 60 - damage });
    },
  );

  it('"Every point that an attack exceeded the defender\'s dodge roll adds to the damage", against the dodging Dodge', () => {
    const encounter = shot16();
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'pet' },
      'dodge',
      'attack:iron-giant',
      rollOf(4),
    );
    // Taming 11 + 4 = 15 against Dodge 6 + 3 = 9: margin 6; claws 16 + 6 - 15 = 7.
    expect(only(answered, 'check-rolled').check.margin).toBe(6);
    expect(only(answered, 'damage-dealt')).toMatchObject({
      amount: 7,
      breakdown: '16 + margin 6 - Toughness 15 = 7',
    });
  });

  it('"Fnord rolls a 2, and so his final result is 12 ... The Thunder spell has a damage of 15 ... it\'s spirit is reduced to 3, so the Giant takes 12 damage!"', () => {
    const encounter = shot16();
    const { declared, answered } = declareAndAnswer(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT },
      'dodge',
      'cast:iron-giant',
      rollOf(2),
    );
    expect(only(declared, 'action-taken')).toMatchObject({ action: 'Cast Thunder', cost: 4 });
    expect(only(declared, 'attack-declared').action).toBe('Cast Thunder');
    const { check } = only(answered, 'check-rolled');
    expect(check).toMatchObject({ actionValue: 10, roll: 2, result: 12, difficulty: 4, margin: 8 });
    // "Magical attacks don't recive any extra damage for a well-placed hit": 8 over, still 12.
    expect(only(answered, 'damage-dealt')).toMatchObject({
      amount: 12,
      hpAfter: 48,
      breakdown: 'Sorcery 10 + 5 - Spirit against lightning 3 = 12',
    });
    expect(only(answered, 'spell-spent')).toMatchObject({ spell: 'thunder', left: 2 });
  });

  it('"Normally the Iron Giant would suffer 8 damage": Fire is not lightning, so Spirit 7 stands', () => {
    const encounter = shot16(ironGiantWith((s) => (sheetOf(s, EHLRIC).spellMatrix.fire = 1)));
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'fire', target: GIANT },
      'take-it',
      'cast:iron-giant',
      rollOf(5),
    );
    expect(only(answered, 'damage-dealt')).toMatchObject({
      amount: 8,
      breakdown: 'Sorcery 10 + 5 - Spirit 7 = 8',
    });
  });

  it('"it is possible to hit, but fail to do any damage": damage is never negative and never heals', () => {
    const encounter = shot16(
      ironGiantWith((s) => {
        sheetOf(s, GIANT).attributes.toughness = 60;
      }),
    );
    const events = attackTaken(encounter, EHLRIC, GIANT, rollOf(0), 'staff');
    expect(only(events, 'damage-dealt')).toMatchObject({ amount: 0, hpAfter: 60 });
    expect(hp(encounter, GIANT)).toBe(60);
  });

  it('HP never go below 0', () => {
    const encounter = shot16(ironGiantWith((s) => (sheetOf(s, GIANT).hp = 5)));
    const events = attackTaken(encounter, EHLRIC, GIANT, rollOf(5), 'pet');
    // Taming 11 + 5 = 16 against Dodge 6: 16 + margin 10 - Toughness 15 = 11, of 5 HP.
    expect(only(events, 'damage-dealt')).toMatchObject({ amount: 11, hpAfter: 0 });
    expect(hp(encounter, GIANT)).toBe(0);
  });
});

describe('8: the summary table, shot costs', () => {
  it('Attack 4, Cast Spell 4, Draw Spellshards 4, Sense Spellshards 2, Using an Item 3', () => {
    const costs: Record<string, number> = {};
    const cases: [string, Record<string, unknown>, Record<string, number[]>][] = [
      ['attack', { type: 'attack', actor: EHLRIC, target: GIANT }, {}],
      [
        'cast',
        { type: 'cast', actor: EHLRIC, spell: 'cure', target: EHLRIC },
        { 'cast:ehlric': rollOf(0) },
      ],
      [
        'draw',
        { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'thunder' },
        { 'draw:iron-giant': rollOf(0) },
      ],
      ['sense', { type: 'sense', actor: EHLRIC, target: GIANT }, { 'sense:iron-giant': rollOf(0) }],
      ['use-item', { type: 'use-item', actor: EHLRIC, item: 'potion', target: EHLRIC }, {}],
    ];
    for (const [name, command, entered] of cases) {
      const encounter = shot16();
      const taken = only(run(encounter, command, entered), 'action-taken');
      costs[name] = taken.cost;
      expect(taken.shot, name).toBe(16 - taken.cost);
      expect(shotOf(encounter, EHLRIC), name).toBe(16 - taken.cost);
    }
    expect(costs).toEqual({ attack: 4, cast: 4, draw: 4, sense: 2, 'use-item': 3 });
  });

  it('"Reloading a Pistol takes 1 shot, reloading an automatic rifle or SMG takes 3 shots, and Reloading a Shotgun, Rifle, or Revolver takes 5 shots"', () => {
    expect(
      Object.fromEntries(
        ['pistol', 'automatic-rifle', 'smg', 'shotgun', 'rifle', 'revolver'].map((k) => [
          k,
          reloadShots(k),
        ]),
      ),
    ).toEqual({ pistol: 1, 'automatic-rifle': 3, smg: 3, shotgun: 5, rifle: 5, revolver: 5 });
    // The same costs through the rules, each gun emptied first.
    const kinds = ['pistol', 'automatic-rifle', 'smg', 'shotgun', 'rifle', 'revolver'];
    const encounter = start(gunner(kinds.map((k) => gun(k, k, 6))));
    beginRound(encounter, GUNNER_INITIATIVE);
    const irvine = who(encounter, 'irvine');
    const empty = {
      ...encounter.state,
      combatants: {
        ...encounter.state.combatants,
        irvine: { ...irvine, ammo: Object.fromEntries(kinds.map((k) => [k, 0])) },
      },
    };
    const costs = kinds.map((k) => {
      const decided = ffviii.decide(empty, { type: 'reload', actor: 'irvine', weapon: k }, NO_DICE);
      if (!decided.ok) throw new Error(decided.error.message);
      const taken = only(decided.value, 'action-taken');
      expect(only(decided.value, 'reloaded')).toMatchObject({ weapon: k, ammo: 6 });
      return [taken.cost, taken.shot];
    });
    expect(costs).toEqual([
      [1, 15],
      [3, 13],
      [3, 13],
      [5, 11],
      [5, 11],
      [5, 11],
    ]);
  });

  it('"Summon GF 10 + Variable ... The compatability of a character with his GF is always subtracted from the shot cost to summon, but not from the shot cost to use the actual ability"', () => {
    const encounter = shot16();
    // Infernus: 10 - 4 + 2 = 8, the text's "Summoning is a 8 shot action".
    expect(summonShots(encounter.state, who(encounter, EHLRIC), 'infernus')).toBe(8);
    const events = run(encounter, { type: 'summon', actor: EHLRIC, gf: 'infernus', target: GIANT });
    expect(only(events, 'action-taken')).toMatchObject({
      cost: 8,
      shot: 8,
      debt: 0,
      carrying: null,
    });
    expect(only(events, 'attack-declared').pending).toMatchObject({
      type: 'summon',
      gf: 'infernus',
    });
    // A compatibility above the summon cost takes it to 0, never below; the ability still costs.
    const close = shot16(
      ironGiantWith((s) => {
        s.guardianForces.infernus!.summonShots = 3;
        sheetOf(s, EHLRIC).guardianForces = [{ gf: 'infernus', compatibility: 10 }];
      }),
    );
    expect(summonShots(close.state, who(close, EHLRIC), 'infernus')).toBe(2);
    expect(
      only(
        run(close, { type: 'summon', actor: EHLRIC, gf: 'infernus', target: GIANT }),
        'action-taken',
      ).cost,
    ).toBe(2);
  });
});

describe('Cast Spell', () => {
  it('"Any spell being cast from a Spell Matrix": casting spends one, hit or miss, and none in stock cannot be cast', () => {
    const encounter = shot16(ironGiantWith((s) => (sheetOf(s, EHLRIC).spellMatrix.thunder = 1)));
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT },
      'take-it',
      'cast:iron-giant',
      rollOf(-10),
    );
    expect(only(answered, 'check-rolled').check).toMatchObject({ result: 0, success: false });
    expect(only(answered, 'spell-spent')).toMatchObject({ left: 0 });
    expect(who(encounter, EHLRIC).matrix.thunder).toBe(0);
    run(encounter, { type: 'pass', actor: GIANT });
    expect(encounter.state.shot).toBe(12);
    rejected(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT },
      'spell/none-in-stock',
    );
    expect(
      encounter
        .legalActions()
        .some((a) => a.command.type === 'cast' && a.command.spell === 'thunder'),
    ).toBe(false);
    rejected(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'blizzard', target: GIANT },
      'spell/none-in-stock',
    );
    rejected(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'flare', target: GIANT },
      'spell/unknown',
    );
  });

  it('"If the target is willing ... the caster simply needs to get any positive result, after rolling. Even a 1 succeeds."', () => {
    const encounter = shot16();
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'hp', value: 10 });
    // Sorcery 10 - 9 = 1: Cure heals Sorcery 10 + 2 = 12. No dodge is offered to a willing target.
    const one = run(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'cure', target: EHLRIC },
      { 'cast:ehlric': rollOf(-9) },
    );
    expect(types(one)).not.toContain('attack-declared');
    expect(only(one, 'check-rolled').check).toMatchObject({
      result: 1,
      difficulty: 1,
      against: 'a willing target',
      success: true,
    });
    expect(only(one, 'healed')).toMatchObject({ target: EHLRIC, amount: 12, hpAfter: 22 });
    // 0 is not a positive result.
    const zero = shot16();
    run(zero, { type: 'gm-set', target: EHLRIC, resource: 'hp', value: 10 });
    const missed = run(
      zero,
      { type: 'cast', actor: EHLRIC, spell: 'cure', target: EHLRIC },
      { 'cast:ehlric': rollOf(-10) },
    );
    expect(only(missed, 'check-rolled').check.success).toBe(false);
    expect(ofType(missed, 'healed')).toEqual([]);
    expect(hp(zero, EHLRIC)).toBe(10);
  });

  it('healing stops at full HP', () => {
    const encounter = shot16();
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'hp', value: 30 });
    const events = run(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'cure', target: EHLRIC },
      { 'cast:ehlric': rollOf(0) },
    );
    expect(only(events, 'healed')).toMatchObject({ amount: 5, hpAfter: 35 });
  });

  it("the GM may set HP, but not above the sheet's: a later Cure never takes HP away", () => {
    const encounter = shot16();
    const adjusted = run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'hp', value: 50 });
    expect(only(adjusted, 'gm-set')).toMatchObject({ value: 35, requested: 50 });
    expect(hp(encounter, EHLRIC)).toBe(35);
    const events = run(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'cure', target: EHLRIC },
      { 'cast:ehlric': rollOf(0) },
    );
    expect(only(events, 'healed')).toMatchObject({ amount: 0, hpAfter: 35 });
  });

  it('"Critical failures usualy explode in the caster\'s face": boxcars on a failed Thunder hit Ehlric', () => {
    const encounter = shot16();
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT },
      'take-it',
      'cast:iron-giant',
      BOXCARS_MINUS_12,
    );
    expect(only(answered, 'check-rolled').check).toMatchObject({
      roll: -12,
      result: -2,
      boxcars: true,
      success: false,
      criticalFailure: true,
    });
    expect(only(answered, 'critical-failure').consequence).toBe(
      "Thunder explodes in the caster's face",
    );
    // Thunder's 15 against Ehlric's own Spirit 5.
    expect(only(answered, 'damage-dealt')).toMatchObject({
      target: EHLRIC,
      amount: 10,
      hpAfter: 25,
    });
    expect(hp(encounter, GIANT)).toBe(60);
  });

  it("boxcars on a Thunder that still reaches the Magic Evade: a success by the `failure-only` default, the caster's face under `always`", () => {
    const lenient = shot16();
    const ok = declareAndAnswer(
      lenient,
      { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT },
      'take-it',
      'cast:iron-giant',
      BOXCARS_ZERO,
    ).answered;
    expect(only(ok, 'check-rolled').check).toMatchObject({
      result: 10,
      boxcars: true,
      success: true,
    });
    expect(only(ok, 'damage-dealt').target).toBe(GIANT);
    const strict = shot16(ironGiantWith((s) => (s.options.boxcars = 'always')));
    const bad = declareAndAnswer(
      strict,
      { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT },
      'take-it',
      'cast:iron-giant',
      BOXCARS_ZERO,
    ).answered;
    expect(only(bad, 'check-rolled').check).toMatchObject({
      result: 10,
      success: false,
      criticalFailure: true,
    });
    expect(only(bad, 'damage-dealt')).toMatchObject({ target: EHLRIC, amount: 10 });
  });

  it('a critical failure on a healing spell fizzles without hurting anyone', () => {
    const encounter = shot16();
    const events = run(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'cure', target: EHLRIC },
      { 'cast:ehlric': BOXCARS_MINUS_12 },
    );
    expect(only(events, 'critical-failure').consequence).toBe('Cure fizzles unpleasantly');
    expect(ofType(events, 'damage-dealt')).toEqual([]);
    expect(ofType(events, 'healed')).toEqual([]);
  });

  it('"A mage can hit any target within his Sorcery AV x 3, measured in yards": Ehlric\'s Sorcery 10 reaches 30 yards', () => {
    const at = (x: number, y: number) =>
      shot16(
        ironGiantWith((s) => {
          sheetOf(s, EHLRIC).position = { x: 0, y: 0 };
          sheetOf(s, GIANT).position = { x, y };
        }),
      );
    const cast = { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT };
    expect(types(run(at(30, 0), cast))).toContain('attack-declared');
    expect(types(run(at(18, 24), cast))).toContain('attack-declared');
    const far = at(31, 0);
    const error = rejected(far, cast, 'spell/out-of-range');
    expect(error.message).toContain('reaches 30 (Sorcery AV x 3)');
    expect(
      far.legalActions().some((a) => a.command.type === 'cast' && a.command.target === GIANT),
    ).toBe(false);
    // The staff reaches where the spell does not: range is the spell's.
    expect(types(run(far, { type: 'attack', actor: EHLRIC, target: GIANT }))).toContain(
      'attack-declared',
    );
  });

  it('"Spells can only be cast on targets that the caster has a line of sight with ... opaque ones cannot"', () => {
    const encounter = shot16(ironGiantWith((s) => (s.blockedSight = [[GIANT, EHLRIC]])));
    rejected(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'thunder', target: GIANT },
      'spell/no-line-of-sight',
    );
    // Nothing stands between Ehlric and himself; and a wall stops no sword.
    run(
      encounter,
      { type: 'cast', actor: EHLRIC, spell: 'cure', target: EHLRIC },
      { 'cast:ehlric': rollOf(0) },
    );
    const sword = run(encounter, { type: 'attack', actor: GIANT, target: EHLRIC });
    expect(types(sword)).toContain('attack-declared');
  });
});

describe('Draw Spellshards', () => {
  it('"the final result must equal or exceed the target\'s Spirit or Magic Evade, whichever is higher": Sorcery 10 against Spirit 7', () => {
    const encounter = shot16();
    const events = run(
      encounter,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'thunder' },
      { 'draw:iron-giant': rollOf(-3) },
    );
    expect(types(events)).not.toContain('attack-declared');
    expect(only(events, 'check-rolled').check).toMatchObject({
      result: 7,
      difficulty: 7,
      against: 'Spirit 7',
      success: true,
    });
    // "Success means that the character has drawn the targeted Spellshard into his Spell Matrix."
    expect(only(events, 'shard-drawn')).toMatchObject({ spell: 'thunder', stock: 4 });
    expect(who(encounter, EHLRIC).matrix.thunder).toBe(4);
  });

  it('Magic Evade when it is the higher; a shard new to the Spell Matrix starts at 1', () => {
    const encounter = shot16(
      ironGiantWith((s) => {
        sheetOf(s, GIANT).attributes.magicEvade = 9;
        sheetOf(s, GIANT).spellshards = ['blizzard'];
      }),
    );
    const events = run(
      encounter,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'blizzard' },
      { 'draw:iron-giant': rollOf(-1) },
    );
    expect(only(events, 'check-rolled').check).toMatchObject({
      difficulty: 9,
      against: 'Magic Evade 9',
    });
    expect(only(events, 'shard-drawn')).toMatchObject({ spell: 'blizzard', stock: 1 });
  });

  it('option shardsPerDraw: one Draw may put several into the matrix', () => {
    const encounter = shot16(ironGiantWith((s) => (s.options.shardsPerDraw = 3)));
    const events = run(
      encounter,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'cure' },
      { 'draw:iron-giant': rollOf(0) },
    );
    expect(only(events, 'shard-drawn').stock).toBe(5);
  });

  it('"Failure simply means that he must try again, if he really wants that shard"', () => {
    const encounter = shot16();
    const events = run(
      encounter,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'thunder' },
      { 'draw:iron-giant': rollOf(-4) },
    );
    expect(only(events, 'check-rolled').check.success).toBe(false);
    expect(types(events)).not.toContain('shard-drawn');
    expect(types(events)).not.toContain('draw-barred');
    expect(who(encounter, EHLRIC).matrix.thunder).toBe(3);
    run(encounter, { type: 'pass', actor: GIANT });
    run(
      encounter,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'thunder' },
      { 'draw:iron-giant': rollOf(0) },
    );
    expect(who(encounter, EHLRIC).matrix.thunder).toBe(4);
  });

  it('"Critical failures prevent the character from ever drawing from that particular monster again"', () => {
    const encounter = shot16();
    const events = run(
      encounter,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'thunder' },
      { 'draw:iron-giant': BOXCARS_MINUS_12 },
    );
    expect(only(events, 'check-rolled').check.criticalFailure).toBe(true);
    expect(only(events, 'draw-barred')).toEqual({
      type: 'draw-barred',
      actor: EHLRIC,
      target: GIANT,
    });
    run(encounter, { type: 'pass', actor: GIANT });
    for (const spell of ['thunder', 'cure'])
      rejected(encounter, { type: 'draw', actor: EHLRIC, target: GIANT, spell }, 'draw/barred');
    expect(encounter.legalActions().some((a) => a.command.type === 'draw')).toBe(false);
    // Ever: the next round too.
    run(encounter, { type: 'pass', actor: EHLRIC });
    beginRound(encounter);
    rejected(
      encounter,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'cure' },
      'draw/barred',
    );
  });

  it('boxcars that still reach the difficulty: drawn under `failure-only`, barred forever under `always`', () => {
    const lenient = shot16();
    const drawn = run(
      lenient,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'thunder' },
      { 'draw:iron-giant': BOXCARS_ZERO },
    );
    expect(only(drawn, 'check-rolled').check).toMatchObject({ result: 10, boxcars: true });
    expect(types(drawn)).toContain('shard-drawn');
    const strict = shot16(ironGiantWith((s) => (s.options.boxcars = 'always')));
    const barred = run(
      strict,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'thunder' },
      { 'draw:iron-giant': BOXCARS_ZERO },
    );
    expect(types(barred)).toContain('draw-barred');
    expect(types(barred)).not.toContain('shard-drawn');
  });

  it('only a shard the monster holds can be drawn', () => {
    const encounter = shot16();
    rejected(
      encounter,
      { type: 'draw', actor: EHLRIC, target: GIANT, spell: 'fire' },
      'draw/no-such-shard',
    );
  });
});

describe('Sense Spellshards', () => {
  it('"Awareness action value. The difficulty is the target\'s Magic Evade ... Success means that the character can identify all the draw-capable spellshards"', () => {
    const encounter = shot16();
    expect(encounter.legalActions().some((a) => a.command.type === 'sense')).toBe(true);
    const events = run(
      encounter,
      { type: 'sense', actor: EHLRIC, target: GIANT },
      { 'sense:iron-giant': rollOf(-5) },
    );
    // Awareness: Perception 5 + 1 = 6; 6 - 5 = 1 against Magic Evade 1.
    expect(only(events, 'check-rolled').check).toMatchObject({
      skill: 'awareness',
      actionValue: 6,
      result: 1,
      difficulty: 1,
      success: true,
    });
    expect(only(events, 'shards-sensed').spells).toEqual(['thunder', 'cure']);
    expect(who(encounter, EHLRIC).sensed).toEqual([GIANT]);
    expect(only(events, 'action-taken')).toMatchObject({ cost: 2, shot: 14 });
    // Sensed once is enough: it is not offered again.
    expect(encounter.state.shot).toBe(14);
    expect(encounter.legalActions().some((a) => a.command.type === 'sense')).toBe(false);
  });

  it('"Failure means the character must try again"', () => {
    const encounter = shot16();
    const events = run(
      encounter,
      { type: 'sense', actor: EHLRIC, target: GIANT },
      { 'sense:iron-giant': rollOf(-6) },
    );
    expect(types(events)).not.toContain('shards-sensed');
    expect(types(events)).not.toContain('sense-barred');
    expect(who(encounter, EHLRIC).sensed).toEqual([]);
    expect(encounter.legalActions().some((a) => a.command.type === 'sense')).toBe(true);
  });

  it('"On a critical failure, the character will be unable to sense anything meaningful about that particular monster for a full moon cycle"', () => {
    const encounter = shot16();
    const events = run(
      encounter,
      { type: 'sense', actor: EHLRIC, target: GIANT },
      { 'sense:iron-giant': BOXCARS_MINUS_12 },
    );
    expect(only(events, 'sense-barred')).toEqual({
      type: 'sense-barred',
      actor: EHLRIC,
      target: GIANT,
    });
    rejected(encounter, { type: 'sense', actor: EHLRIC, target: GIANT }, 'sense/barred');
    expect(encounter.legalActions().some((a) => a.command.type === 'sense')).toBe(false);
  });
});

describe('Using an Item', () => {
  const withBombs = () =>
    shot16(ironGiantWith((s) => (sheetOf(s, EHLRIC).items['bomb-fragment'] = 2)));

  it('"Potions and other \'normal\' items can be used automaticaly": no roll, 3 shots', () => {
    const encounter = shot16();
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'hp', value: 10 });
    const events = run(encounter, {
      type: 'use-item',
      actor: EHLRIC,
      item: 'potion',
      target: EHLRIC,
    });
    expect(types(events)).not.toContain('check-rolled');
    expect(only(events, 'healed')).toMatchObject({ amount: 15, hpAfter: 25 });
    expect(only(events, 'item-spent')).toMatchObject({ item: 'potion', left: 1 });
    expect(only(events, 'action-taken')).toMatchObject({ cost: 3, shot: 13 });
  });

  it('"Targeting an unwilling recipient ... The difficulty is the Dodge rating of the unwilling target": a Bomb Fragment on Martial Arts 11 against Dodge 6', () => {
    const encounter = withBombs();
    const { declared, answered } = declareAndAnswer(
      encounter,
      { type: 'use-item', actor: EHLRIC, item: 'bomb-fragment', target: GIANT },
      'take-it',
      'item:iron-giant',
      rollOf(-4),
    );
    expect(only(declared, 'attack-declared').action).toBe('Use Bomb Fragment');
    expect(only(answered, 'check-rolled').check).toMatchObject({
      skill: 'martial-arts',
      actionValue: 11,
      difficulty: 6,
      result: 7,
      success: true,
    });
    // Its fire is magical: 18 against Spirit 7, no bonus for the margin.
    expect(only(answered, 'damage-dealt')).toMatchObject({ target: GIANT, amount: 11 });
    expect(who(encounter, EHLRIC).items['bomb-fragment']).toBe(1);
  });

  it('"whichever the player wishes to use": the skill named is the one rolled', () => {
    const encounter = withBombs();
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'use-item', actor: EHLRIC, item: 'bomb-fragment', target: GIANT, skill: 'guns' },
      'take-it',
      'item:iron-giant',
      rollOf(5),
    );
    expect(only(answered, 'check-rolled').check).toMatchObject({
      skill: 'guns',
      actionValue: 0,
      result: 5,
    });
  });

  it('"On a failure, or critical failure, the item is usualy just lost"', () => {
    const encounter = withBombs();
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'use-item', actor: EHLRIC, item: 'bomb-fragment', target: GIANT },
      'dodge',
      'item:iron-giant',
      rollOf(-3),
    );
    expect(only(answered, 'check-rolled').check).toMatchObject({ difficulty: 9, success: false });
    expect(ofType(answered, 'damage-dealt')).toEqual([]);
    expect(only(answered, 'item-spent').left).toBe(1);
    // A non-dangerous unwilling item's critical failure is just lost too.
    const potions = shot16(
      ironGiantWith((s) => {
        s.items['sleeping-draught'] = {
          name: 'Sleeping draught',
          effect: { kind: 'damage', type: 'magical', rating: 20 },
          willing: false,
          dangerous: false,
        };
        sheetOf(s, EHLRIC).items['sleeping-draught'] = 1;
      }),
    );
    const lost = declareAndAnswer(
      potions,
      { type: 'use-item', actor: EHLRIC, item: 'sleeping-draught', target: GIANT },
      'take-it',
      'item:iron-giant',
      BOXCARS_MINUS_12,
    ).answered;
    expect(only(lost, 'check-rolled').check.criticalFailure).toBe(true);
    expect(ofType(lost, 'damage-dealt')).toEqual([]);
    expect(ofType(lost, 'critical-failure')).toEqual([]);
    expect(who(potions, EHLRIC).items['sleeping-draught']).toBe(0);
  });

  it('"some items that mimic spells or destructive effects can be dangerous on a critical failure": the Bomb Fragment goes off on Ehlric', () => {
    const encounter = withBombs();
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'use-item', actor: EHLRIC, item: 'bomb-fragment', target: GIANT },
      'take-it',
      'item:iron-giant',
      BOXCARS_MINUS_12,
    );
    expect(only(answered, 'critical-failure').consequence).toBe(
      "Bomb Fragment goes off in the user's hands",
    );
    // 18 fire against Ehlric's Spirit 5.
    expect(only(answered, 'damage-dealt')).toMatchObject({
      target: EHLRIC,
      amount: 13,
      hpAfter: 22,
    });
    expect(hp(encounter, GIANT)).toBe(60);
  });

  it('no item left, no use', () => {
    const encounter = shot16(ironGiantWith((s) => (sheetOf(s, EHLRIC).items.potion = 1)));
    run(encounter, { type: 'use-item', actor: EHLRIC, item: 'potion', target: EHLRIC });
    expect(encounter.state.shot).toBe(13);
    rejected(
      encounter,
      { type: 'use-item', actor: EHLRIC, item: 'potion', target: EHLRIC },
      'item/none-left',
    );
    rejected(
      encounter,
      { type: 'use-item', actor: EHLRIC, item: 'elixir', target: EHLRIC },
      'item/unknown',
    );
  });
});

describe('Reloading a Gun', () => {
  it('a gun fires a round per attack; an empty gun is refused until reloaded', () => {
    const encounter = start(gunner([gun('pistol', 'pistol', 1)]));
    beginRound(encounter, GUNNER_INITIATIVE);
    rejected(encounter, { type: 'reload', actor: 'irvine', weapon: 'pistol' }, 'weapon/full');
    // Without a weapon named, the first gun not full: every gun is full.
    rejected(encounter, { type: 'reload', actor: 'irvine' }, 'weapon/full');
    const shot = attackTaken(encounter, 'irvine', GIANT, rollOf(0));
    expect(only(shot, 'round-fired')).toMatchObject({ weapon: 'pistol', left: 0 });
    // Guns 11 against Dodge 6: 20 + margin 5 - Toughness 15 = 10.
    expect(only(shot, 'damage-dealt').amount).toBe(10);
    run(encounter, { type: 'pass', actor: GIANT });
    expect(encounter.state.shot).toBe(12);
    rejected(encounter, { type: 'attack', actor: 'irvine', target: GIANT }, 'weapon/empty');
    expect(encounter.legalActions().some((a) => a.command.type === 'attack')).toBe(false);
    const reload = run(encounter, { type: 'reload', actor: 'irvine' });
    expect(only(reload, 'action-taken')).toMatchObject({
      action: 'Reload Pistol',
      cost: 1,
      shot: 11,
    });
    expect(only(reload, 'reloaded')).toMatchObject({ weapon: 'pistol', ammo: 1 });
    expect(who(encounter, 'irvine').ammo.pistol).toBe(1);
    expect(types(run(encounter, { type: 'attack', actor: 'irvine', target: GIANT }))).toContain(
      'action-taken',
    );
  });

  it('a 5 shot reload with 2 shots left carries over like a summon, and the gun is loaded when it completes', () => {
    const encounter = start(gunner([gun('shotgun', 'shotgun', 2)]));
    beginRound(encounter, GUNNER_INITIATIVE);
    attackTaken(encounter, 'irvine', GIANT, rollOf(0));
    run(encounter, { type: 'pass', actor: GIANT });
    run(encounter, { type: 'wait', actor: 'irvine', shots: 10 });
    expect(shotOf(encounter, 'irvine')).toBe(2);
    const started = run(encounter, { type: 'reload', actor: 'irvine', weapon: 'shotgun' });
    expect(only(started, 'action-taken')).toMatchObject({
      cost: 5,
      shot: 0,
      debt: 3,
      carrying: { type: 'reload', weapon: 'shotgun' },
    });
    expect(types(started)).not.toContain('reloaded');
    expect(who(encounter, 'irvine').ammo.shotgun).toBe(1);
    const round2 = only(beginRound(encounter, GUNNER_INITIATIVE), 'round-began');
    expect(round2.initiative[0]).toMatchObject({ debt: 3, initiative: 13 });
    rejected(
      encounter,
      { type: 'attack', actor: 'irvine', target: GIANT },
      'action/carried-action-first',
    );
    const done = run(encounter, { type: 'complete', actor: 'irvine' });
    expect(only(done, 'reloaded')).toMatchObject({ weapon: 'shotgun', ammo: 2 });
    expect(who(encounter, 'irvine').carrying).toBeNull();
  });

  it('no gun, no reload', () => {
    rejected(shot16(), { type: 'reload', actor: EHLRIC }, 'weapon/no-gun');
  });
});

describe('9: Dodge ratings and the options', () => {
  it('"The dodge score is the character\'s highest combat skill bonus + their evade attribute": Ehlric\'s Taming 5 + Evade 4 = 9 (the text\'s "total dodge score of 5" adds up to 9)', () => {
    const encounter = shot16();
    expect(dodgeRating(encounter.state, who(encounter, EHLRIC))).toBe(9);
    run(encounter, { type: 'pass', actor: EHLRIC });
    const events = run(
      encounter,
      { type: 'attack', actor: GIANT, target: EHLRIC },
      { 'attack:ehlric': rollOf(0) },
    );
    expect(only(events, 'check-rolled').check).toMatchObject({ difficulty: 9, against: 'Dodge 9' });
  });

  it('only combat skills count toward the Dodge: 7 points in Sorcery leave it at Taming 5 + Evade 4', () => {
    const encounter = shot16(
      ironGiantWith((s) => {
        sheetOf(s, EHLRIC).skills.sorcery!.bonus = 7;
      }),
    );
    expect(dodgeRating(encounter.state, who(encounter, EHLRIC))).toBe(9);
    // and the highest combat skill counts, not the first: Martial Arts 3, then Taming 6.
    const tamer = shot16(ironGiantWith((s) => (sheetOf(s, EHLRIC).skills.taming!.bonus = 6)));
    expect(dodgeRating(tamer.state, who(tamer, EHLRIC))).toBe(10);
  });

  it('option dodgeFormula `evade`: "The dodge rating of any target is simply his or her Evade attribute", 4 for Ehlric', () => {
    const encounter = shot16(ironGiantWith((s) => (s.options.dodgeFormula = 'evade')));
    expect(dodgeRating(encounter.state, who(encounter, EHLRIC))).toBe(4);
    run(encounter, { type: 'pass', actor: EHLRIC });
    const events = run(
      encounter,
      { type: 'attack', actor: GIANT, target: EHLRIC },
      { 'attack:ehlric': rollOf(-5) },
    );
    // Martial Arts 9 - 5 = 4 against Dodge 4: a hit.
    expect(only(events, 'check-rolled').check).toMatchObject({ difficulty: 4, success: true });
  });

  it('"The Iron Giant\'s Dodge rating is 6" under either formula, though its Evade is 2', () => {
    for (const dodgeFormula of ['combat-skill-plus-evade', 'evade'] as const) {
      const encounter = shot16(ironGiantWith((s) => (s.options.dodgeFormula = dodgeFormula)));
      expect(dodgeRating(encounter.state, who(encounter, GIANT)), dodgeFormula).toBe(6);
    }
  });

  it('option dodgeBonus: a table may make dodging worth other than 3', () => {
    const encounter = shot16(ironGiantWith((s) => (s.options.dodgeBonus = 5)));
    const { answered } = declareAndAnswer(
      encounter,
      { type: 'attack', actor: EHLRIC, target: GIANT },
      'dodge',
      'attack:iron-giant',
      rollOf(0),
    );
    expect(only(answered, 'check-rolled').check).toMatchObject({
      difficulty: 11,
      against: 'Dodge 6 + 5 (dodging)',
    });
  });

  it('boxcars on a failed attack are a critical failure the GM narrates; the attack misses', () => {
    const encounter = shot16();
    const events = attackTaken(encounter, EHLRIC, GIANT, BOXCARS_MINUS_12, 'staff');
    expect(only(events, 'check-rolled').check).toMatchObject({
      boxcars: true,
      criticalFailure: true,
    });
    expect(only(events, 'critical-failure').consequence).toContain('the GM decides');
    expect(ofType(events, 'damage-dealt')).toEqual([]);
  });
});
