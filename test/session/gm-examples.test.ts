import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { composeGmExamples, gmCommandFrom, gmExamplesOf } from '../../src/session/index.js';

describe('GM line examples composed from the fight', () => {
  it('names its own combatants, sides, statuses and content, ids where a name would misread', () => {
    const lines = composeGmExamples({
      combatants: [
        { id: 'max', name: 'Max', side: 'force', out: false, maxHp: 12, maxMp: 0, statuses: [] },
        {
          id: 'goblin-2',
          name: 'Goblin 2',
          side: 'runefaust',
          out: false,
          maxHp: 10,
          maxMp: 0,
          statuses: [{ name: 'Sleep' }],
        },
      ],
      sides: [
        { id: 'force', name: 'The Shining Force' },
        { id: 'runefaust', name: 'Runefaust' },
      ],
      statuses: [
        { id: 'sleep', name: 'Sleep' },
        { id: 'poison', name: 'Poison' },
      ],
      addable: [
        { id: 'max', name: 'Max' },
        { id: 'goblin', name: 'Goblin' },
      ],
      vocabulary: { mp: true, elements: [], resources: [{ name: 'item', key: 'item', help: '' }] },
    });
    expect(lines).toEqual([
      'hp goblin-2 5',
      'damage goblin-2 2d6',
      'status Max +poison 3',
      'status goblin-2 -sleep',
      'heal Max 10',
      'add Goblin to Runefaust',
      'note goblin-2 behind the pillar',
      'remove goblin-2 fled',
    ]);
  });

  it('gives nothing to show for a fight with nobody in it', () => {
    const lines = composeGmExamples({
      combatants: [],
      sides: [],
      statuses: [],
      addable: [],
      vocabulary: { mp: false, elements: [], resources: [] },
    });
    expect(lines).toEqual([]);
  });
});

const FILES = [
  { file: 'ffrpg-wind-cave.yaml', names: ['Heket', 'The Heket'] },
  { file: 'ffviii-iron-giant.yaml', names: ['Iron Giant', 'The Iron Giant'] },
  { file: 'zodiac-keef-and-the-ogre.yaml', names: ['Ogre', 'The ogre'] },
  { file: 'shining-force-gate.yaml', names: ['Goblin', 'Runefaust'] },
];

describe.each(FILES)('the examples for $file', ({ file, names }) => {
  const read = readEncounterFile(`examples/${file}`, SYSTEMS);
  if (!read.ok) throw new Error(`${file} does not load`);
  const { system, setup, library } = read.encounter;
  const state = system.ruleset.initialState(setup);
  const lines = gmExamplesOf(system, library, state);

  it("name this fight's own combatants and sides, and no other system's", () => {
    const text = lines.join('\n');
    for (const name of names) expect(text).toContain(name);
    if (system.ruleset.id !== 'ffrpg') expect(text.toLowerCase()).not.toContain('heket');
    expect(lines.length).toBeGreaterThanOrEqual(6);
  });

  it('are each a GM line this fight accepts as typed', () => {
    for (const line of lines) {
      const command = gmCommandFrom(system, library, state, line);
      expect(command.ok ? true : command.error.message, line).toBe(true);
    }
  });
});
