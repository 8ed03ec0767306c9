import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import type { CommandBase } from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { gmCommandFrom } from '../../src/session/index.js';

function load(file: string) {
  const read = readEncounterFile(`examples/${file}`, SYSTEMS);
  if (!read.ok) throw new Error(`${file} does not load`);
  const { system, setup, library } = read.encounter;
  return { system, library, state: system.ruleset.initialState(setup) };
}

/** Each system's example fight, and what its GM would type by name rather than by id. */
const CASES = [
  {
    file: 'ffrpg-wind-cave.yaml',
    hp: { line: 'hp HEKET 30', target: 'heket' },
    add: { line: 'add Heket to The Heket as Heket Two', content: 'heket', side: 'enemies' },
    status: { line: 'status Hiro +Poison 3', status: 'poison' },
  },
  {
    file: 'ffviii-iron-giant.yaml',
    hp: { line: 'hp Iron Giant 40', target: 'iron-giant' },
    add: { line: 'add Iron Giant to The Iron Giant', content: 'iron-giant', side: 'giant' },
    status: { line: 'status iron giant +Slow 2', status: 'slow' },
  },
  {
    file: 'zodiac-keef-and-the-ogre.yaml',
    hp: { line: 'hp OGRE -100', target: 'ogre' },
    add: { line: 'add Ogre to The ogre as Ogre 2', content: 'ogre', side: 'monsters' },
    status: { line: 'status Keef +Death Sentence', status: 'death-sentence' },
  },
  {
    file: 'shining-force-gate.yaml',
    hp: { line: 'hp goblin 2 -5', target: 'goblin-2' },
    add: { line: 'add Goblin to Runefaust as Goblin 3', content: 'goblin', side: 'runefaust' },
    status: { line: 'status Max +Paralysed 2', status: 'paralysed' },
  },
];

describe.each(CASES)('names wherever ids are, in $file', ({ file, hp, add, status }) => {
  const { system, library, state } = load(file);
  const gm = (line: string) => gmCommandFrom(system, library, state, line);
  const accepted = (line: string): CommandBase & Record<string, unknown> => {
    const result = gm(line);
    if (!result.ok) throw new Error(`'${line}' refused: ${result.error.message}`);
    return result.value as CommandBase & Record<string, unknown>;
  };

  it('a combatant by its display name, in any case and of several words', () => {
    expect(accepted(hp.line)).toMatchObject({ type: 'gm-set', target: hp.target });
  });

  it('a content entry and a side by their names, the longest names first', () => {
    const command = accepted(add.line);
    expect(command).toMatchObject({ type: 'gm-add', side: add.side });
    expect((command.newcomer as { id?: string; name?: string }).id ?? add.content).toBe(
      add.content,
    );
  });

  it('a status by its name', () => {
    expect(accepted(status.line)).toMatchObject({ type: 'gm-status', status: status.status });
  });

  it('a side or content no name fits is refused naming what there is', () => {
    const side = gm(`add ${add.content} to Nobody At All`);
    expect(side.ok).toBe(false);
    if (!side.ok) expect(side.error.message).toContain("there is no side 'Nobody At All'");
    const content = gm(`add Nothing Like It to ${add.side}`);
    expect(content.ok).toBe(false);
    if (!content.ok)
      expect(content.error.message).toContain("there is no character or monster 'Nothing Like It'");
  });
});

describe('ambiguous names', () => {
  it('a name two combatants begin is refused naming both (Shining Force: Goblin, Goblin 2)', () => {
    const { system, library, state } = load('shining-force-gate.yaml');
    const result = gmCommandFrom(system, library, state, 'skip gob');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('gm/ambiguous-combatant');
      expect(result.error.message).toContain('Goblin (goblin)');
      expect(result.error.message).toContain('Goblin 2 (goblin-2)');
    }
  });

  it('a status several begin is refused naming them (ZODIAC: +s)', () => {
    const { system, library, state } = load('zodiac-keef-and-the-ogre.yaml');
    const result = gmCommandFrom(system, library, state, 'status keef +s');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('gm/ambiguous-status');
      expect(result.error.message).toMatch(/Seal \(seal\).*Sleep \(sleep\)/);
    }
  });
});
