/**
 * A whole battle from the starter content ("Several fierce rounds of combat later, the Heket
 * collapses into a slimy heap"): played out, saved, reloaded, undone, redone and replayed; the
 * rewards ("that comes out to 1560 XP and 820 Gil. You each get 520 XP") and level-ups; and
 * every kind of rejected command leaving the battle exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import { type AnyRuleset, loadEncounter, parseSavedEncounter } from '../../../src/engine/index.js';
import { type FfrpgEvent, ffrpg } from '../../../src/rulesets/ffrpg/index.js';
import {
  appliedCommands,
  beginRound,
  d100,
  type FfrpgEncounter,
  firstAttack,
  hp,
  mp,
  ofType,
  only,
  passRound,
  playOut,
  quietRound,
  rejected,
  run,
  sheet,
  snapshot,
  start,
  starterSetup,
  statusesOf,
  whoseTurn,
  windCaveSpec,
} from './battle-helpers.js';
import { windCave } from './fixtures.js';

const SEED = 'wind-cave';
const WITHOUT_MINT = { 'initiative:hiro': [10], 'initiative:haze': [6], 'initiative:heket': [6] };
const rulesets = [ffrpg as unknown as AnyRuleset];

/** The Wind Cave battle from the starter content, played to the end with the simple policy. */
function wholeBattle(seed: number | string = SEED) {
  const encounter = start(starterSetup(), seed);
  const commands = playOut(encounter);
  return { encounter, commands };
}

function stateJson(encounter: { state: unknown }): string {
  return JSON.stringify(encounter.state);
}

function reload(encounter: FfrpgEncounter): FfrpgEncounter {
  const json = JSON.parse(JSON.stringify(encounter.save())) as unknown;
  const loaded = loadEncounter(json, rulesets);
  if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
  return loaded.value as unknown as FfrpgEncounter;
}

/**
 * The starter Wind Cave fight with the Heket nearly beaten (20 HP: one hit of the Playguide's
 * shot), and Hiro to take the shot.
 */
function lastShot(options: Record<string, unknown> = {}, heketHp = 20) {
  const spec = windCaveSpec(options) as { sides: { combatants: Record<string, unknown>[] }[] };
  spec.sides[1]!.combatants[0]!.hp = heketHp;
  const encounter = start(starterSetup(spec));
  return encounter;
}

function shootHeket(encounter: FfrpgEncounter, actor = 'hiro'): readonly FfrpgEvent[] {
  return run(
    encounter,
    { type: 'attack', actor, target: 'heket' },
    { 'hit:heket': d100(5), 'damage:heket': [10] },
  );
}

describe('a whole battle: the party against the Heket, from the starter content', () => {
  it('is played to the end with "the first attack in legalActions"', () => {
    const { encounter, commands } = wholeBattle();
    const outcome = encounter.outcome();
    expect(outcome.over).toBe(true);
    expect(commands.length).toBeGreaterThan(4);
    expect(commands[0]).toEqual({ type: 'begin-round' });
    expect(encounter.legalActions()).toEqual([]);
    const state = encounter.state;
    expect(state.phase).toBe('ended');
    const ended = only(encounter.events, 'battle-ended');
    if (!outcome.over) throw new Error('unreachable');
    expect(ended.winner).toBe(outcome.winner);
    // Whoever lost has nobody standing.
    const losers = Object.values(state.combatants).filter((c) => c.side !== outcome.winner);
    expect(losers.every((c) => c.down || c.fled)).toBe(true);
    for (const c of Object.values(state.combatants)) {
      expect(c.hp).toBeGreaterThanOrEqual(0);
      expect(c.hp).toBeLessThanOrEqual(c.sheet.stats.hp);
      expect(c.down).toBe(c.hp === 0);
    }
    if (outcome.winner === 'party') {
      const standing = Object.values(state.combatants).filter((c) => c.side === 'party' && !c.down);
      const rewards = state.rewards!;
      expect(rewards.xp).toBe(1560);
      expect(rewards.gil).toBe(820);
      expect(rewards.shares.map((s) => s.id)).toEqual(standing.map((c) => c.id));
      for (const share of rewards.shares) {
        expect(share.xp).toBe(Math.floor(1560 / standing.length));
        expect(share.gil).toBe(Math.floor(820 / standing.length));
      }
    } else {
      expect(state.rewards).toBeNull();
    }
  });

  it('every Round has its Initiative, Action and Status Phases in order', () => {
    const { encounter } = wholeBattle();
    const rounds = ofType(encounter.events, 'round-began').map((e) => e.round);
    expect(rounds).toEqual(rounds.map((_, i) => i + 1));
    const ended = ofType(encounter.events, 'round-ended').map((e) => e.round);
    // Every round but perhaps the last (cut short by the battle's end) had its Status Phase.
    expect(ended).toEqual(rounds.slice(0, ended.length));
    expect(rounds.length - ended.length).toBeLessThanOrEqual(1);
    const counted = ofType(encounter.events, 'status-timers-counted').map((e) => e.round);
    expect(counted).toEqual(ended);
  });

  it('is saved (JSON round trip) and reloaded to the same state, log and dice', () => {
    const { encounter } = wholeBattle();
    const saved = encounter.save();
    expect(saved).toMatchObject({ format: 'moogle-encounter', version: 1, ruleset: 'ffrpg' });
    const loaded = reload(encounter);
    expect(stateJson(loaded)).toBe(stateJson(encounter));
    expect(loaded.state).toEqual(encounter.state);
    expect(JSON.stringify(loaded.log)).toBe(JSON.stringify(encounter.log));
    expect(loaded.diceState).toEqual(encounter.diceState);
    expect(loaded.outcome()).toEqual(encounter.outcome());
  });

  it('a save made mid-battle continues with the same dice: both copies finish identically', () => {
    const encounter = start(starterSetup(), SEED);
    playOut(encounter, firstAttack, 12);
    const copy = reload(encounter);
    expect(snapshot(copy)).toBe(snapshot(encounter));
    playOut(encounter);
    playOut(copy);
    expect(JSON.stringify(copy.log)).toBe(JSON.stringify(encounter.log));
    expect(stateJson(copy)).toBe(stateJson(encounter));
  });

  it('is undone several steps and redone to the identical state', () => {
    const encounter = start(starterSetup(), SEED);
    const states: string[] = [stateJson(encounter)];
    const dice = [JSON.stringify(encounter.diceState)];
    while (!encounter.outcome().over) {
      run(encounter, firstAttack(encounter.legalActions(), encounter)!);
      states.push(stateJson(encounter));
      dice.push(JSON.stringify(encounter.diceState));
    }
    const end = states.length - 1;
    const steps = Math.min(7, end);
    expect(encounter.undo(steps)).toEqual({ ok: true, value: steps });
    expect(stateJson(encounter)).toBe(states[end - steps]);
    expect(JSON.stringify(encounter.diceState)).toBe(dice[end - steps]);
    expect(encounter.outcome().over).toBe(false);
    expect(encounter.redoable).toBe(steps);
    expect(encounter.redo(2)).toEqual({ ok: true, value: 2 });
    expect(stateJson(encounter)).toBe(states[end - steps + 2]);
    expect(encounter.redo(steps - 2)).toEqual({ ok: true, value: steps - 2 });
    expect(stateJson(encounter)).toBe(states[end]);
    expect(JSON.stringify(encounter.diceState)).toBe(dice[end]);
    expect(encounter.outcome().over).toBe(true);
    // The undo and redo are in the log too, and the save reloads to the same place.
    expect(encounter.log.map((e) => e.type).slice(-3)).toEqual(['undo', 'redo', 'redo']);
    expect(stateJson(reload(encounter))).toBe(states[end]);
  });

  it('is replayed from the log to the identical state', () => {
    const { encounter, commands } = wholeBattle();
    encounter.undo(3);
    encounter.redo(3);
    const commandsInForce = appliedCommands(encounter);
    expect(commandsInForce).toEqual(commands);
    const replay = start(starterSetup(), SEED);
    for (const command of commandsInForce) run(replay, command);
    expect(stateJson(replay)).toBe(stateJson(encounter));
    expect(JSON.stringify(replay.events)).toBe(JSON.stringify(encounter.events));
  });

  it('the same seed and the same commands give byte-identical logs; another seed does not', () => {
    const a = wholeBattle(SEED);
    const b = start(starterSetup(), SEED);
    for (const command of a.commands) run(b, command);
    expect(JSON.stringify(b.log)).toBe(JSON.stringify(a.encounter.log));
    expect(JSON.stringify(wholeBattle(SEED).encounter.log)).toBe(JSON.stringify(a.encounter.log));
    const other = wholeBattle('another cave');
    expect(JSON.stringify(other.encounter.log)).not.toBe(JSON.stringify(a.encounter.log));
  });

  it('a save that does not match its log does not load', () => {
    const { encounter } = wholeBattle();
    const saved = JSON.parse(JSON.stringify(encounter.save())) as {
      dice: { words: number[] };
      ruleset: string;
    };
    saved.dice.words[0] = (saved.dice.words[0]! + 1) >>> 0;
    const bad = loadEncounter(saved, rulesets);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('save/bad-dice');
    const wrong = { ...(JSON.parse(JSON.stringify(encounter.save())) as object), ruleset: 'dnd' };
    const unknown = loadEncounter(wrong, rulesets);
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error.code).toBe('save/unknown-ruleset');
    expect(parseSavedEncounter(encounter.save()).ok).toBe(true);
  });
});

describe('rewards: "that comes out to 1560 XP and 820 Gil. You each get 520 XP"', () => {
  it('split evenly among the three standing party members, the odd Gil reported', () => {
    const encounter = lastShot();
    beginRound(encounter);
    const events = shootHeket(encounter);
    expect(only(events, 'battle-ended')).toMatchObject({ winner: 'party' });
    const { rewards } = only(events, 'rewards-awarded');
    expect(rewards.xp).toBe(1560);
    expect(rewards.gil).toBe(820);
    expect(rewards.shares.map((s) => [s.id, s.xp, s.gil])).toEqual([
      ['hiro', 520, 273],
      ['haze', 520, 273],
      ['mint', 520, 273],
    ]);
    expect(rewards.unsplitXp).toBe(0);
    expect(rewards.unsplitGil).toBe(1);
    expect(encounter.state.rewards).toEqual(rewards);
    for (const id of ['hiro', 'haze', 'mint']) expect(encounter.state.combatants[id]?.xp).toBe(520);
  });

  it('level-ups from the starter level table', () => {
    const encounter = lastShot();
    const table = encounter.state.setup.levelTable!;
    const expected = Math.max(...table.filter((row) => row.xp <= 520).map((row) => row.level));
    beginRound(encounter);
    const { rewards } = only(shootHeket(encounter), 'rewards-awarded');
    for (const share of rewards.shares) {
      expect(share.levelBefore).toBe(1);
      expect(share.levelAfter).toBe(expected);
      expect(encounter.state.combatants[share.id]?.level).toBe(expected);
    }
    expect(expected).toBeGreaterThan(1);
  });

  it('knocked-out characters get no share by default: two standing get 780 each', () => {
    const encounter = lastShot();
    run(encounter, { type: 'gm-set', target: 'mint', resource: 'hp', value: 0 });
    beginRound(encounter, WITHOUT_MINT);
    const { rewards } = only(shootHeket(encounter), 'rewards-awarded');
    expect(rewards.shares.map((s) => [s.id, s.xp, s.gil])).toEqual([
      ['hiro', 780, 410],
      ['haze', 780, 410],
    ]);
    expect(encounter.state.combatants.mint?.xp).toBe(0);
  });

  it('with option xpToKnockedOut they share: 520 XP each again', () => {
    const encounter = lastShot({ xpToKnockedOut: true });
    run(encounter, { type: 'gm-set', target: 'mint', resource: 'hp', value: 0 });
    beginRound(encounter, WITHOUT_MINT);
    const { rewards } = only(shootHeket(encounter), 'rewards-awarded');
    expect(rewards.shares.map((s) => [s.id, s.xp])).toEqual([
      ['hiro', 520],
      ['haze', 520],
      ['mint', 520],
    ]);
    expect(encounter.state.combatants.mint?.xp).toBe(520);
  });

  it('characters who fled get nothing, even with xpToKnockedOut', () => {
    const encounter = lastShot({ xpToKnockedOut: true });
    beginRound(encounter);
    run(encounter, { type: 'flee', actor: 'hiro' });
    const { rewards } = only(shootHeket(encounter, 'haze'), 'rewards-awarded');
    expect(rewards.shares.map((s) => [s.id, s.xp])).toEqual([
      ['haze', 780],
      ['mint', 780],
    ]);
  });

  it('levels follow the level table, several at once if the XP reaches them', () => {
    // The fixture's table: Level n needs (n - 1)^2 x 100 XP: 0, 100, 400, 900, 1600, 2500, ...
    const setup = windCave();
    sheet(setup, 'hiro').xp = 1100; // + 520 = 1620: Level 5
    sheet(setup, 'haze').level = 4;
    sheet(setup, 'haze').xp = 900; // + 520 = 1420: still Level 4
    sheet(setup, 'heket').hp = 20;
    const encounter = start(setup);
    beginRound(encounter);
    const { rewards } = only(shootHeket(encounter), 'rewards-awarded');
    expect(rewards.shares.map((s) => [s.id, s.levelBefore, s.levelAfter])).toEqual([
      ['hiro', 1, 5],
      ['haze', 4, 4],
      ['mint', 1, 3],
    ]);
    expect(encounter.state.combatants.hiro).toMatchObject({ xp: 1620, level: 5 });
    expect(encounter.state.combatants.haze).toMatchObject({ xp: 1420, level: 4 });
  });

  it('without a level table nobody changes Level', () => {
    const setup = windCave();
    delete setup.levelTable;
    sheet(setup, 'heket').hp = 20;
    const encounter = start(setup);
    beginRound(encounter);
    const { rewards } = only(shootHeket(encounter), 'rewards-awarded');
    expect(rewards.shares.every((s) => s.levelBefore === 1 && s.levelAfter === 1)).toBe(true);
  });

  it("every beaten monster's XP and Gil count; only characters share them", () => {
    const setup = windCave();
    sheet(setup, 'heket').hp = 20;
    setup.sides[1]!.combatants.push({
      ...structuredClone(sheet(setup, 'heket')),
      id: 'heket-2',
      name: 'Heket 2',
      hp: 0,
    });
    setup.sides[0]!.combatants.push({
      id: 'chocobo',
      name: 'Chocobo',
      kind: 'monster',
      attributes: { STR: 5, VIT: 5, AGI: 5, SPD: 1, MAG: 5, SPR: 5 },
      stats: { hp: 30 },
    });
    const encounter = start(setup);
    beginRound(encounter, {
      'initiative:hiro': [10],
      'initiative:haze': [6],
      'initiative:mint': [4],
      'initiative:heket': [6],
      'initiative:chocobo': [1],
    });
    const { rewards } = only(shootHeket(encounter), 'rewards-awarded');
    expect(rewards.xp).toBe(3120);
    expect(rewards.gil).toBe(1640);
    expect(rewards.shares.map((s) => [s.id, s.xp, s.gil])).toEqual([
      ['hiro', 1040, 546],
      ['haze', 1040, 546],
      ['mint', 1040, 546],
    ]);
    expect(rewards.unsplitGil).toBe(2);
  });
});

describe('rejected commands change nothing', () => {
  function hirosTurn() {
    const encounter = start(starterSetup(), SEED);
    beginRound(encounter);
    expect(whoseTurn(encounter)).toBe('hiro');
    return encounter;
  }

  it('not your turn', () => {
    const encounter = hirosTurn();
    const error = rejected(
      encounter,
      { type: 'attack', actor: 'haze', target: 'heket' },
      'action/not-your-turn',
    );
    expect(error.message).toBe("Haze cannot act now: it is Hiro's turn");
    rejected(encounter, { type: 'pass', actor: 'heket' }, 'action/not-your-turn');
    rejected(encounter, { type: 'flee', actor: 'mint' }, 'action/not-your-turn');
    rejected(encounter, { type: 'pass', actor: 'moogle' }, 'action/unknown-combatant');
  });

  it('no round begun yet', () => {
    const encounter = start(starterSetup(), SEED);
    rejected(encounter, { type: 'attack', actor: 'hiro', target: 'heket' }, 'battle/no-round');
    rejected(encounter, { type: 'pass', actor: 'hiro' }, 'battle/no-round');
  });

  it("a dead target ('action/target-down')", () => {
    const setup = windCave();
    setup.sides[1]!.combatants.push({
      ...structuredClone(sheet(setup, 'heket')),
      id: 'heket-2',
      name: 'Heket 2',
    });
    const encounter = start(setup);
    beginRound(encounter, {
      'initiative:hiro': [10],
      'initiative:haze': [6],
      'initiative:mint': [4],
      'initiative:heket': [6],
      'initiative:heket-2': [1],
    });
    run(encounter, { type: 'gm-set', target: 'heket-2', resource: 'hp', value: 0 });
    const error = rejected(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket-2' },
      'action/target-down',
    );
    expect(error.message).toBe('Heket 2 is already down');
    expect(encounter.legalActions().map((a) => a.label)).toEqual([
      'Attack Heket with Valiant Rifle',
      'Pass',
      'Flee',
    ]);
  });

  it('too little MP', () => {
    const encounter = start(starterSetup(), SEED);
    run(encounter, { type: 'gm-set', target: 'mint', resource: 'mp', value: 5 });
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    expect(whoseTurn(encounter)).toBe('mint');
    rejected(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'cure', target: 'hiro' },
      'action/not-enough-mp',
    );
    rejected(
      encounter,
      { type: 'use-ability', actor: 'mint', ability: 'sleep-spell', target: 'heket' },
      'action/not-enough-mp',
    );
  });

  it('an unknown ability', () => {
    const encounter = hirosTurn();
    rejected(
      encounter,
      { type: 'use-ability', actor: 'hiro', ability: 'ultima', target: 'heket' },
      'action/unknown-ability',
    );
    rejected(
      encounter,
      { type: 'use-ability', actor: 'hiro', ability: 'darkside', target: 'heket' },
      'action/unknown-ability',
    );
  });

  it('an entered die out of range, too many or too few dice, or dice for no roll', () => {
    const encounter = hirosTurn();
    const attack = { type: 'attack', actor: 'hiro', target: 'heket' };
    rejected(encounter, attack, 'dice/entered-out-of-range', {
      entered: { 'hit:heket': [2, 8], 'damage:heket': [13] },
    });
    rejected(encounter, attack, 'dice/entered-out-of-range', {
      entered: { 'hit:heket': [11, 8] },
    });
    rejected(encounter, attack, 'dice/entered-out-of-range', {
      entered: { 'hit:heket': [2, -1] },
    });
    rejected(encounter, attack, 'dice/entered-too-many', {
      entered: { 'hit:heket': [2, 8, 1] },
    });
    rejected(encounter, attack, 'dice/entered-too-few', { entered: { 'hit:heket': [] } });
    rejected(encounter, attack, 'dice/entered-unused', {
      entered: { 'hit:heket': [2, 8], 'hit:haze': [5, 5] },
    });
    rejected(encounter, attack, 'dice/needs-entry', { enterAll: true });
    const start1 = start(starterSetup(), SEED);
    rejected(start1, { type: 'begin-round' }, 'dice/entered-out-of-range', {
      entered: { 'initiative:hiro': [16] },
    });
  });

  it('begin-round during a round', () => {
    const encounter = hirosTurn();
    rejected(encounter, { type: 'begin-round' }, 'battle/round-in-progress');
  });

  it('malformed commands', () => {
    const encounter = hirosTurn();
    rejected(encounter, { type: 'cast', actor: 'hiro' }, 'command/invalid');
    rejected(encounter, { type: 'attack', actor: 'hiro' }, 'command/invalid');
    rejected(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket', extra: 1 },
      'command/invalid',
    );
    rejected(
      encounter,
      { type: 'gm-set', target: 'hiro', resource: 'hp', value: 1.5 },
      'command/invalid',
    );
    rejected(encounter, null, 'command/invalid');
    rejected(encounter, 'attack', 'command/invalid');
  });

  it('commands after the battle ended (the GM can still adjust)', () => {
    const { encounter } = wholeBattle();
    const someone = Object.keys(encounter.state.combatants)[0]!;
    rejected(encounter, { type: 'begin-round' }, 'battle/over');
    rejected(encounter, { type: 'attack', actor: 'hiro', target: 'heket' }, 'battle/over');
    rejected(encounter, { type: 'pass', actor: someone }, 'battle/over');
    rejected(
      encounter,
      { type: 'use-ability', actor: 'haze', ability: 'darkside', target: 'heket' },
      'battle/over',
    );
    const outcome = encounter.outcome();
    run(encounter, { type: 'gm-set', target: 'hiro', resource: 'hp', value: 5 });
    expect(encounter.outcome()).toEqual(outcome);
  });

  it('undo and redo beyond the history', () => {
    const encounter = hirosTurn();
    const before = snapshot(encounter);
    expect(encounter.undo(2)).toMatchObject({
      ok: false,
      error: { code: 'history/nothing-to-undo' },
    });
    expect(encounter.redo()).toMatchObject({
      ok: false,
      error: { code: 'history/nothing-to-redo' },
    });
    expect(encounter.undo(0)).toMatchObject({ ok: false, error: { code: 'history/bad-steps' } });
    expect(snapshot(encounter)).toBe(before);
  });

  it('a combatant the GM knocks out on its own turn cannot attack', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'gm-set', target: 'hiro', resource: 'hp', value: 0 });
    // The countdown moves on to Haze (14): nothing is offered to Hiro any more.
    expect(
      encounter.legalActions().every((a) => 'actor' in a.command && a.command.actor === 'haze'),
    ).toBe(true);
    const result = encounter.submit(
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { entered: { 'hit:heket': d100(28), 'damage:heket': [10] } },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'action/not-your-turn' } });
  });
});

describe('undo restores', () => {
  it('HP', () => {
    const encounter = start();
    beginRound(encounter);
    run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(28), 'damage:heket': [10] },
    );
    expect(hp(encounter, 'heket')).toBe(280);
    encounter.undo();
    expect(hp(encounter, 'heket')).toBe(300);
    encounter.redo();
    expect(hp(encounter, 'heket')).toBe(280);
  });

  it('HP paid for an ability, and a knock-out', () => {
    const setup = windCave();
    sheet(setup, 'heket').hp = 20;
    const encounter = start(setup);
    beginRound(encounter);
    shootHeket(encounter);
    expect(encounter.state.combatants.heket).toMatchObject({ hp: 0, down: true });
    expect(encounter.outcome().over).toBe(true);
    encounter.undo();
    expect(encounter.state.combatants.heket).toMatchObject({ hp: 20, down: false });
    expect(encounter.outcome()).toEqual({ over: false });
    expect(encounter.state.rewards).toBeNull();
    expect(encounter.state.combatants.hiro?.xp).toBe(0);
    expect(encounter.legalActions().length).toBeGreaterThan(0);
  });

  it('MP', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    run(encounter, { type: 'use-ability', actor: 'mint', ability: 'cure', target: 'mint' });
    expect(mp(encounter, 'mint')).toBe(24);
    encounter.undo();
    expect(mp(encounter, 'mint')).toBe(30);
  });

  it('Timers', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'hiro', status: 'protect', timer: 3 });
    beginRound(encounter);
    passRound(encounter);
    expect(statusesOf(encounter, 'hiro')).toEqual([{ status: 'protect', timer: 2 }]);
    encounter.undo(); // the last pass, which ran the Status Phase
    expect(statusesOf(encounter, 'hiro')).toEqual([{ status: 'protect', timer: 3 }]);
    expect(encounter.state.phase).toBe('action');
  });

  it('Status Conditions that had expired', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'hiro', status: 'protect', timer: 1 });
    const round = quietRound(encounter);
    expect(only(round, 'status-ended').reason).toBe('expired');
    expect(statusesOf(encounter, 'hiro')).toEqual([]);
    encounter.undo();
    expect(statusesOf(encounter, 'hiro')).toEqual([{ status: 'protect', timer: 1 }]);
  });

  it('Status Conditions that ended on damage or knock-out', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'heket', status: 'sleep' });
    beginRound(encounter);
    shootHeket(encounter);
    expect(statusesOf(encounter, 'heket')).toEqual([]);
    encounter.undo();
    expect(statusesOf(encounter, 'heket')).toEqual([{ status: 'sleep', timer: 4 }]);
  });

  it('whose turn it is, and the round', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    run(encounter, { type: 'pass', actor: 'haze' });
    expect(whoseTurn(encounter)).toBe('mint');
    encounter.undo();
    expect(whoseTurn(encounter)).toBe('haze');
    rejected(encounter, { type: 'pass', actor: 'mint' }, 'action/not-your-turn');
    encounter.undo();
    expect(whoseTurn(encounter)).toBe('hiro');
    encounter.undo();
    expect(encounter.state.phase).toBe('initiative');
    expect(encounter.state.round).toBe(0);
    expect(whoseTurn(encounter)).toBeUndefined();
    expect(encounter.legalActions().map((a) => a.command)).toEqual([{ type: 'begin-round' }]);
  });

  it('the dice stream: the same command after an undo rolls the same dice', () => {
    const encounter = start(windCave(), 42);
    run(encounter, { type: 'begin-round' });
    const actor = whoseTurn(encounter)!;
    const target = actor === 'heket' ? 'hiro' : 'heket';
    const first = run(encounter, { type: 'attack', actor, target });
    encounter.undo();
    const again = run(encounter, { type: 'attack', actor, target });
    expect(again).toEqual(first);
  });

  it('a new command after an undo drops what could have been redone', () => {
    const encounter = start();
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: 'hiro' });
    encounter.undo();
    expect(encounter.redoable).toBe(1);
    shootHeket(encounter);
    expect(encounter.redoable).toBe(0);
    expect(encounter.redo()).toMatchObject({ ok: false });
  });

  it('undoing everything returns the state the encounter started from', () => {
    const { encounter } = wholeBattle();
    encounter.undo(encounter.undoable);
    expect(encounter.state).toEqual(ffrpg.initialState(encounter.setup));
    expect(encounter.events).toEqual([]);
    expect(encounter.legalActions().map((a) => a.command)).toEqual([{ type: 'begin-round' }]);
  });
});

describe("the GM's hand: gm-set", () => {
  it('sets HP and MP, never above the maximum, and never moves the countdown', () => {
    const encounter = start();
    beginRound(encounter);
    const events = run(encounter, { type: 'gm-set', target: 'mint', resource: 'hp', value: 999 });
    expect(events).toEqual([
      {
        type: 'resource-set',
        target: 'mint',
        resource: 'hp',
        value: 50,
        clamped: true,
        revived: false,
      },
    ]);
    run(encounter, { type: 'gm-set', target: 'mint', resource: 'mp', value: 7 });
    expect(mp(encounter, 'mint')).toBe(7);
    run(encounter, { type: 'gm-set', target: 'mint', resource: 'mp', value: 500 });
    expect(mp(encounter, 'mint')).toBe(30);
    expect(hp(encounter, 'mint')).toBe(50);
    expect(whoseTurn(encounter)).toBe('hiro');
  });

  it('0 HP knocks out and ends Status Conditions; more brings the combatant back', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: 'haze', status: 'protect' });
    const ko = run(encounter, { type: 'gm-set', target: 'haze', resource: 'hp', value: 0 });
    expect(ko).toEqual([
      {
        type: 'resource-set',
        target: 'haze',
        resource: 'hp',
        value: 0,
        clamped: false,
        revived: false,
      },
      { type: 'knocked-out', target: 'haze' },
      { type: 'status-ended', target: 'haze', status: 'protect', reason: 'knocked-out' },
    ]);
    const round = only(
      beginRound(encounter, {
        'initiative:hiro': [10],
        'initiative:mint': [4],
        'initiative:heket': [6],
      }),
      'round-began',
    );
    expect(round.initiative.map((i) => i.id)).toEqual(['hiro', 'mint', 'heket']);
    run(encounter, { type: 'gm-set', target: 'haze', resource: 'hp', value: 10 });
    expect(encounter.state.combatants.haze).toMatchObject({ hp: 10, down: false });
    passRound(encounter);
    const next = only(beginRound(encounter), 'round-began');
    expect(next.initiative.map((i) => i.id)).toEqual(['hiro', 'haze', 'mint', 'heket']);
  });

  it('knocking out the last enemy mid-round ends the battle with the rewards', () => {
    const encounter = start();
    beginRound(encounter);
    const events = run(encounter, { type: 'gm-set', target: 'heket', resource: 'hp', value: 0 });
    expect(events.map((e) => e.type)).toEqual([
      'resource-set',
      'knocked-out',
      'battle-ended',
      'rewards-awarded',
    ]);
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
  });

  it('before the first round it only sets the scene', () => {
    const encounter = start();
    const events = run(encounter, { type: 'gm-set', target: 'heket', resource: 'hp', value: 0 });
    expect(events.map((e) => e.type)).toEqual(['resource-set', 'knocked-out']);
    expect(encounter.outcome()).toEqual({ over: false });
    const began = run(
      encounter,
      { type: 'begin-round' },
      {
        'initiative:hiro': [10],
        'initiative:haze': [6],
        'initiative:mint': [4],
      },
    );
    expect(began.map((e) => e.type)).toEqual(['round-began', 'battle-ended', 'rewards-awarded']);
  });

  it('rejects an unknown target', () => {
    rejected(
      start(),
      { type: 'gm-set', target: 'moogle', resource: 'hp', value: 5 },
      'gm/unknown-combatant',
    );
  });
});

describe('a save edited by hand', () => {
  it('is refused when an event no longer follows from its command and dice (the Heket at "lots" HP)', () => {
    const encounter = start();
    beginRound(encounter);
    run(
      encounter,
      { type: 'attack', actor: 'hiro', target: 'heket' },
      { 'hit:heket': d100(28), 'damage:heket': [10] },
    );
    const saved = JSON.parse(JSON.stringify(encounter.save()));
    expect(loadEncounter(saved, [ffrpg]).ok).toBe(true);
    const dealt = saved.log[1].events.find((e: { type: string }) => e.type === 'damage-dealt');
    for (const hpAfter of ['lots', -500, 1]) {
      dealt.hpAfter = hpAfter;
      expect(loadEncounter(saved, [ffrpg])).toMatchObject({
        ok: false,
        error: { code: 'save/inconsistent' },
      });
    }
  });
});
