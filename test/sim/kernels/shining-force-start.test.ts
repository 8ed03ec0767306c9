/**
 * The kernel from start states, as the GM screen's balance panel passes one: some commands of a
 * battle played through the rules, then the GM's changes (gm.ts: statuses put on and taken off,
 * turns skipped, combatants removed, added and moved, HP, MP and items set, the clock changed),
 * each resolved by the ruleset. From each, the same battles both ways.
 */
import { describe, expect, it } from 'vitest';
import type { EncounterFile } from '../../../src/encounters/file.js';
import type { ShiningForceState } from '../../../src/rulesets/shining-force/state.js';
import { kernelFor } from '../../../src/sim/kernels/index.js';
import { runBattles } from '../../../src/sim/runner.js';
import {
  applyGm,
  caseOf,
  compared,
  fixture,
  GATE,
  loopBattle,
  readEncounter,
  startAfter,
  TACTICIAN,
} from './helpers.js';

const gate = readEncounter(GATE);
const statuses = fixture('statuses');

interface Scenario {
  readonly name: string;
  readonly encounter: EncounterFile;
  /** Commands of battle `start:<name>` played through the rules first. */
  readonly commands: number;
  /** The GM's lines then, as typed after `gm`; or made from the state they are typed in. */
  readonly gm: readonly string[] | ((state: ShiningForceState) => string[]);
}

/** The first combatant the test finds defeated, or standing, in a state. */
function firstWhere(state: ShiningForceState, defeated: boolean): string {
  const c = state.combatants.find((x) => x.defeated === defeated);
  if (c === undefined) throw new Error(`nobody ${defeated ? 'defeated' : 'standing'}`);
  return c.id;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'a Force member charmed', encounter: gate, commands: 3, gm: ['status tao +charmed'] },
  { name: 'a monster charmed', encounter: gate, commands: 3, gm: ['status goblin +charmed 4'] },
  {
    name: 'asleep, one for good',
    encounter: gate,
    commands: 5,
    gm: ['status max +sleep', 'status goblin-2 +sleep infinite'],
  },
  {
    name: 'confused',
    encounter: gate,
    commands: 5,
    gm: ['status ken +confused 5', 'status dark-dwarf +confused', 'status max +confused'],
  },
  {
    name: 'paralysed',
    encounter: gate,
    commands: 5,
    gm: ['status hans +paralysed 3', 'status ooze +paralysed'],
  },
  {
    name: 'Illusion',
    encounter: gate,
    commands: 5,
    gm: ['status lowe +illusion', 'status goblin +illusion infinite'],
  },
  {
    name: 'poison on and off',
    encounter: gate,
    commands: 5,
    gm: [
      'status max +poison',
      'status dark-mage +poison',
      'status ken +poison',
      'status max -poison',
    ],
  },
  {
    name: 'frozen',
    encounter: gate,
    commands: 5,
    gm: ['status ken +frozen 2', 'status goblin +frozen'],
  },
  { name: 'turns skipped', encounter: gate, commands: 5, gm: ['skip goblin', 'skip max'] },
  {
    name: 'the one acting skips',
    encounter: gate,
    commands: 8,
    gm: (s) => [`skip ${s.order[s.cursor]}`],
  },
  {
    name: 'removed: fled and dismissed',
    encounter: gate,
    commands: 5,
    gm: ['remove goblin fled', 'remove dark-mage'],
  },
  {
    name: 'HP and MP set, one defeated',
    encounter: gate,
    commands: 5,
    gm: ['hp max 3', 'hp goblin 1', 'mp tao 1', 'mp dark-mage 0', 'hp dark-dwarf 0'],
  },
  {
    name: 'a defeated one raised',
    encounter: gate,
    commands: 45,
    gm: (s) => [`hp ${firstWhere(s, true)} 5`],
  },
  {
    name: 'items set and cracked',
    encounter: gate,
    commands: 5,
    gm: [
      'item max medical-herb +2',
      'item lowe medical-herb 0',
      'cracked max short-sword yes',
      'item tao medical-herb +1',
    ],
  },
  {
    name: 'a weapon taken away',
    encounter: gate,
    commands: 5,
    gm: ['item ken spear 0', 'item hans wooden-arrow 0'],
  },
  {
    name: 'moved before the battle',
    encounter: gate,
    commands: 0,
    gm: ['move max C4', 'move goblin F4'],
  },
  {
    name: 'moved in the first turn',
    encounter: gate,
    commands: 1,
    gm: ['move max C4', 'move goblin F4'],
  },
  {
    name: 'added before the battle',
    encounter: gate,
    commands: 0,
    gm: ['add goblin to runefaust as Goblin 3', 'add ken to force as Ken 2'],
  },
  {
    name: 'added in the first round',
    encounter: gate,
    commands: 2,
    gm: ['add goblin to runefaust as Goblin 3', 'add ken to force as Ken 2'],
  },
  {
    name: 'added later',
    encounter: gate,
    commands: 20,
    gm: ['add dark-mage to runefaust as Mage 2', 'add giant-bat to runefaust'],
  },
  {
    name: 'the clock changed',
    encounter: gate,
    commands: 2,
    gm: ['clock dark-mage 1', 'clock max +2'],
  },
  {
    name: 'the one acting waits',
    encounter: gate,
    commands: 4,
    gm: (s) => [`clock ${s.order[s.cursor]} +3`],
  },
  {
    name: 'damage and healing',
    encounter: gate,
    commands: 5,
    gm: ['damage max 5', 'heal goblin 3 raw', 'damage goblin-2 2d4 raw'],
  },
  {
    name: 'one side beaten before the battle',
    encounter: gate,
    commands: 0,
    gm: ['hp goblin 0', 'hp goblin-2 0', 'hp dark-dwarf 0', 'hp ooze 0', 'hp dark-mage 0'],
  },
  {
    name: 'notes',
    encounter: gate,
    commands: 3,
    gm: ['note max behind the rock', 'note goblin-2 on the bridge'],
  },
  {
    name: 'curses taken off',
    encounter: statuses,
    commands: 3,
    gm: ['status cursed-knight -curse', 'status drain-mage -curse'],
  },
  {
    name: 'a curse put back',
    encounter: statuses,
    commands: 3,
    gm: ['status sloth-knight -curse', 'status sloth-knight +curse'],
  },
  {
    name: 'a cursed ring taken off',
    encounter: statuses,
    commands: 4,
    gm: ['item cursed-knight evil-ring 0'],
  },
  {
    name: 'many statuses at once',
    encounter: statuses,
    commands: 8,
    gm: [
      'status blade +sleep',
      'status witch +charmed',
      'status viper +confused',
      'status medic +poison',
      'status siren +illusion',
      'status stun-bat +frozen',
      'status axeman +paralysed infinite',
    ],
  },
  {
    name: 'a standing one taken out by damage',
    encounter: statuses,
    commands: 10,
    gm: (s) => [`damage ${firstWhere(s, false)} 99 raw`],
  },
];

describe('the kernel plays from the states the GM screen passes', () => {
  for (const s of SCENARIOS) {
    it(`${s.name}: the same battles both ways (20)`, () => {
      const typed =
        typeof s.gm === 'function'
          ? s.gm(loopBattle(caseOf(s.name, s.encounter), `start:${s.name}`, 0, s.commands).state)
          : s.gm;
      const start = startAfter(s.encounter, `start:${s.name}`, s.commands, typed);
      const c = caseOf(s.name, s.encounter, start);
      // A newcomer's roster no longer matches the setup's: the kernel plays it, exactly, or is
      // not made for it (and the runner's loop plays it).
      if (kernelFor(c.system, c.start, TACTICIAN) === undefined) {
        const range = { seed: 'start', from: 0, to: 10 };
        expect(runBattles(c.system, c.setup, TACTICIAN, range, {}, c.start)).toEqual(
          runBattles(c.system, c.setup, TACTICIAN, range, { kernel: false }, c.start),
        );
        return;
      }
      const both = compared(c, 'start', 0, 20);
      expect(both.mismatches).toEqual([]);
      expect(both.kernel).toEqual(both.loop);
    });
  }

  it('is made for a roster with a newcomer, who then takes turns and is tallied', () => {
    const start = startAfter(gate, 'newcomer', 2, ['add goblin to runefaust as Goblin 3']);
    const c = caseOf('newcomer', gate, start);
    expect(c.start.combatants.map((x) => x.id)).toContain('goblin-3');
    expect(kernelFor(c.system, c.start, TACTICIAN)).toBeDefined();
    const both = compared(c, 'newcomer', 0, 10);
    expect(both.mismatches).toEqual([]);
    expect(both.kernel).toEqual(both.loop);
    const newcomer = both.kernel.combatants['goblin-3']!;
    expect(newcomer.damageDealt + newcomer.damageTaken).toBeGreaterThan(0);
  });

  it('plays from the act step, after a move, and from a frozen unit’s turn', () => {
    // The first state of a gate battle where a unit has moved and must still act.
    const c = caseOf('gate', gate);
    const states = loopBattle(c, 'act', 0).states as ShiningForceState[];
    const acting = states.findIndex((s) => s.step === 'act');
    expect(acting).toBeGreaterThan(0);
    for (const start of [
      states[acting]!,
      applyGm(gate.system, gate.library, states[acting - 1]!, ['status max +frozen 3'], 'act'),
    ]) {
      const both = compared(caseOf('act', gate, start), 'act', 0, 25);
      expect(both.mismatches).toEqual([]);
      expect(both.kernel).toEqual(both.loop);
    }
  });
});
