/** Setups, starter content, Free Actions and the GM's commands. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../../src/content/index.js';
import { readEncounterFile } from '../../../src/encounters/file.js';
import { Encounter } from '../../../src/engine/index.js';
import { SYSTEMS } from '../../../src/rulesets/index.js';
import {
  STARTER_CONTENT_DIR,
  zodiac,
  zodiacKinds,
  zodiacSetupFrom,
  zodiacSystem,
} from '../../../src/rulesets/zodiac/index.js';
import {
  begin,
  duel,
  hp,
  keef,
  ogre,
  only,
  rejected,
  run,
  start,
  statuses,
  whoseTurn,
} from './helpers.js';

describe('setups and content', () => {
  it('the starter content loads, and the example encounter builds from it', () => {
    const loaded = loadContent([STARTER_CONTENT_DIR], [...zodiacKinds]);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const read = readEncounterFile('examples/zodiac-keef-and-the-ogre.yaml', SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    expect(read.encounter.system.ruleset.id).toBe('zodiac');
    const setup = zodiacSetupFrom(loaded.library, {
      sides: [
        {
          id: 'party',
          name: 'Heroes',
          combatants: [{ character: 'diff' }, { character: 'merlin' }],
        },
        { id: 'foes', name: 'Foes', combatants: [{ monster: 'bomb' }, { monster: 'harpy' }] },
      ],
      options: { damageCap: true },
    });
    if (!setup.ok) throw new Error(setup.error.message);
    expect(setup.value.sides[0]!.combatants[0]!.weapon?.name).toBe('Biffcalibur');
    expect(setup.value.options.damageCap).toBe(true);
  });

  it('refuses what cannot be played, saying where', () => {
    const bad = (setup: unknown, text: string) => {
      const created = Encounter.create(zodiac, setup, 1);
      expect(created.ok).toBe(false);
      if (!created.ok) expect(created.error.message).toContain(text);
    };
    bad(duel([keef({ techs: ['nope'] })]), "unknown tech 'nope'");
    bad(duel([keef({ items: { elixir: 1 } })]), "unknown item 'elixir'");
    bad(duel([keef(), keef()]), "combatant id 'keef' is used twice");
    bad(
      { ...duel(), techs: { s: { name: 'S', type: 'magic', inflicts: [{ status: 'sleep' }] } } },
      'Sleep is Temporary: give its duration in ticks',
    );
    bad(
      {
        ...duel(),
        techs: { s: { name: 'S', type: 'magic', inflicts: [{ status: 'blind', ticks: 3 }] } },
      },
      'Blind is Permanent',
    );
    bad(
      { ...duel(), techs: { s: { name: 'S', type: 'weapon', damage: { die: 8 } } } },
      "a Weapon Tech rolls its weapon's die class",
    );
    bad(duel([keef({ stats: { ...keef().stats, speed: -1 } })]), 'speed');
  });

  it('a content file with a misspelt element names the file, the path and the line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-zodiac-'));
    try {
      writeFileSync(
        join(dir, 'imp.yaml'),
        'format: 1\nkind: zodiac/monster\nid: imp\nname: Imp\nstats: { hp: 10, speed: 5, accuracy: 0, evade: 0, critical: 99, attackPower: 1 }\naffinities:\n  fyre: weakness\n',
      );
      const loaded = loadContent([STARTER_CONTENT_DIR, dir], [...zodiacKinds]);
      expect(loaded.ok).toBe(false);
      if (!loaded.ok) {
        expect(loaded.errors[0]!.file).toContain('imp.yaml');
        expect(loaded.errors[0]!.path).toContain('affinities');
        expect(loaded.errors[0]!.line).toBe(7);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Free Actions: "you can only make one Free Action per turn"', () => {
  it('one per turn, costs no SP, and does not end the turn', () => {
    const encounter = start();
    begin(encounter);
    const events = run(encounter, { type: 'free-action', actor: 'keef', action: 'ends Cover' });
    expect(only(events, 'free-action').action).toBe('ends Cover');
    expect(whoseTurn(encounter)).toBe('keef');
    expect(encounter.state.combatants.keef!.sp).toBe(23);
    expect(zodiac.legalActions(encounter.state).some((a) => a.command.type === 'free-action')).toBe(
      false,
    );
    rejected(
      encounter,
      { type: 'free-action', actor: 'keef', action: 'again' },
      'action/free-action-used',
    );
    run(encounter, { type: 'defend', actor: 'keef' });
    // The ogre's turn: a new Free Action.
    run(encounter, { type: 'free-action', actor: 'ogre', action: 'roars' });
  });
});

describe("the GM's hand", () => {
  it('gm-set sets HP, MP and SP; to 0 HP knocks out, above 0 revives', () => {
    const encounter = start(duel([keef(), keef({ id: 'kid', name: 'Kid' })]));
    begin(encounter, { keef: 3, kid: 2, ogre: 1 });
    run(encounter, { type: 'gm-set', target: 'kid', resource: 'hp', value: 0 });
    expect(encounter.state.combatants.kid!.unconscious).toBe(true);
    run(encounter, { type: 'gm-set', target: 'kid', resource: 'hp', value: 50 });
    run(encounter, { type: 'gm-set', target: 'kid', resource: 'sp', value: 16 });
    expect(encounter.state.combatants.kid).toMatchObject({ unconscious: false, hp: 50, sp: 16 });
  });

  it('gm-death: "Death is permanent"; gm-status inflicts and removes, Temporary ones with ticks', () => {
    const encounter = start(duel([keef(), keef({ id: 'kid', name: 'Kid' })]));
    begin(encounter, { keef: 3, kid: 2, ogre: 1 });
    rejected(encounter, { type: 'gm-status', target: 'kid', status: 'sleep' }, 'gm/needs-timer');
    rejected(
      encounter,
      { type: 'gm-status', target: 'kid', status: 'blind', remove: true },
      'gm/no-such-status',
    );
    run(encounter, { type: 'gm-status', target: 'kid', status: 'blind' });
    expect(statuses(encounter, 'kid')).toEqual(['blind']);
    run(encounter, { type: 'gm-death', target: 'kid' });
    expect(encounter.state.combatants.kid).toMatchObject({ dead: true, hp: 0 });
    rejected(encounter, { type: 'gm-death', target: 'kid' }, 'action/already-dead');
    // The GM taking out the last foe ends the battle.
    run(encounter, { type: 'gm-status', target: 'ogre', status: 'unconscious' });
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
    expect(hp(encounter, 'ogre')).toBe(0);
  });

  it('a Temporary status of one tick reads "1 tick", in the view and in the log', () => {
    const encounter = start(duel([keef(), keef({ id: 'kid', name: 'Kid' })]));
    begin(encounter, { keef: 3, kid: 2, ogre: 1 });
    const events = run(encounter, { type: 'gm-status', target: 'kid', status: 'sleep', timer: 1 });
    const lines = zodiacSystem.describe(events, encounter.state).join('\n');
    expect(lines).toContain('for 1 tick');
    expect(lines).not.toContain('1 ticks');
    const kid = zodiacSystem.view(encounter.state).combatants.find((c) => c.id === 'kid')!;
    expect(kid.statuses).toContainEqual({ id: 'sleep', name: 'Sleep', timer: '1 tick' });
  });

  it('a Death Sentence brought into the battle falls at the end of round 1', () => {
    const encounter = start(
      duel([keef()], [ogre({ statuses: [{ status: 'death-sentence' }] })], {
        defendLasts: 'until-next-turn',
      }),
    );
    begin(encounter);
    run(encounter, { type: 'defend', actor: 'keef' });
    run(encounter, { type: 'defend', actor: 'ogre' });
    run(encounter, { type: 'defend', actor: 'keef' });
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'party' });
  });
});

describe('Death Sentence and Stone', () => {
  it('a statue\'s Death Sentence waits: under Stone "nothing can harm you"', () => {
    const statue = ogre({
      id: 'statue',
      name: 'Statue',
      statuses: [{ status: 'death-sentence' }, { status: 'stone' }],
    });
    const encounter = start(duel([keef()], [ogre(), statue], { defendLasts: 'until-next-turn' }));
    begin(encounter);
    // Everyone defends through round 1, at whose end a Death Sentence brought in falls.
    for (let i = 0; i < 20 && encounter.state.round === 1; i++) {
      const actor = encounter.state.order.find((id) => id === whoseTurn(encounter));
      if (actor === undefined) break;
      run(encounter, { type: 'defend', actor });
    }
    expect(encounter.state.round).toBe(2);
    const after = encounter.state.combatants.statue!;
    expect(after.hp).toBe(after.maxHp);
    expect(after.statuses.map((s) => s.status)).toContain('death-sentence');
  });
});

describe('the odds of an attack', () => {
  it('counts the d100 exactly: Accuracy 40 against Evade 60 hits on 21 or more (80%), criticals on 95+', async () => {
    const { zodiacSystem } = await import('../../../src/rulesets/zodiac/index.js');
    const encounter = start(duel([keef()], [ogre({ stats: { ...ogre().stats, evade: 60 } })]));
    begin(encounter);
    const odds = zodiacSystem.odds!(encounter.state, {
      type: 'attack',
      actor: 'keef',
      target: 'ogre',
    });
    expect(odds?.lines[2]).toBe('  hits 80.0% (critical 6.0%), misses 20.0%');
    // (1d4 x 10) + 20 + 10: 40 to 70; doubled on a critical (95 to 100 of the 80 hits).
    expect(odds?.damage).toMatchObject({ min: 40, max: 140 });
    expect(odds?.meanDamage).toBeCloseTo(0.74 * 55 + 0.06 * 110, 9);
    expect(odds?.exact).toBe(true);
  });
});
