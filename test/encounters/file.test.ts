import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatContentError } from '../../src/content/index.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';

const dir = mkdtempSync(join(tmpdir(), 'moogle-encounters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function errorsOf(path: string): string[] {
  const read = readEncounterFile(path, SYSTEMS);
  return read.ok ? [] : read.errors.map(formatContentError);
}

const SIDES = `sides:
  - id: party
    name: The party
    party: true
    combatants: [{ character: hiro }]
  - id: enemies
    name: The Heket
    combatants: [{ monster: heket }]
`;

describe('encounter files', () => {
  it('the example loads, with the name and system it declares', () => {
    const read = readEncounterFile('examples/ffrpg-wind-cave.yaml', SYSTEMS);
    expect(read.ok && read.encounter.name).toBe('The Wind Cave');
    expect(read.ok && read.encounter.system.ruleset.id).toBe('ffrpg');
  });

  it('JSON works as well as YAML', () => {
    const path = write(
      'duel.json',
      JSON.stringify({
        format: 1,
        ruleset: 'ffrpg',
        sides: [
          { id: 'party', name: 'P', party: true, combatants: [{ character: 'haze' }] },
          { id: 'enemies', name: 'E', combatants: [{ monster: 'heket' }] },
        ],
      }),
    );
    expect(readEncounterFile(path, SYSTEMS).ok).toBe(true);
  });

  it('names the file, the path, the line and the problem', () => {
    const misspelt = write(
      'misspelt.yaml',
      `format: 1\nruleset: ffrpg\n${SIDES.replace('monster: heket', 'monstr: heket')}`,
    );
    expect(errorsOf(misspelt)).toEqual([
      `${misspelt}:10: sides[1].combatants[0].monstr: unknown field "monstr"; did you mean "monster"?`,
    ]);
    const unknownRuleset = write('ruleset.yaml', `format: 1\nruleset: gurps\n${SIDES}`);
    expect(errorsOf(unknownRuleset)[0]).toBe(
      `${unknownRuleset}:2: ruleset: unknown ruleset "gurps": one of ${SYSTEMS.map((s) => s.ruleset.id).join(', ')}`,
    );
    const badFormat = write('format.yaml', `format: 2\nruleset: ffrpg\n${SIDES}`);
    expect(errorsOf(badFormat)[0]).toContain(`${badFormat}:1: format:`);
    const unknownMonster = write(
      'monster.yaml',
      `format: 1\nruleset: ffrpg\n${SIDES.replace('monster: heket', 'monster: hekett')}`,
    );
    expect(errorsOf(unknownMonster)[0]).toContain(
      "sides[1].combatants[0]: there is no ffrpg/monster 'hekett'",
    );
    const badOption = write(
      'option.yaml',
      `format: 1\nruleset: ffrpg\n${SIDES}options:\n  damageCap: lots\n`,
    );
    expect(errorsOf(badOption)[0]).toContain(`${badOption}:12: options.damageCap:`);
  });

  it('refuses what is not an encounter: a list, broken YAML, a missing file, a missing content folder', () => {
    expect(errorsOf(write('list.yaml', '- 1\n- 2\n'))[0]).toContain(
      'an encounter file holds one object',
    );
    expect(errorsOf(write('broken.yaml', 'format: [1\n')).length).toBeGreaterThan(0);
    expect(errorsOf(join(dir, 'nope.yaml'))[0]).toContain('no such file');
    const folder = write(
      'folder.yaml',
      `format: 1\nruleset: ffrpg\ncontent: [./no-such-folder]\n${SIDES}`,
    );
    expect(errorsOf(folder).length).toBeGreaterThan(0);
  });

  it('loads extra content from folders next to it', () => {
    const content = join(dir, 'more');
    rmSync(content, { recursive: true, force: true });
    mkdirSync(content);
    writeFileSync(
      join(content, 'goblin.yaml'),
      'format: 1\nkind: ffrpg/monster\nid: goblin\nname: Goblin\nattributes: { STR: 5, VIT: 5, AGI: 5, SPD: 5, MAG: 2, SPR: 2 }\nstats: { hp: 30, eva: 5 }\nrewards: { xp: 20, gil: 10 }\n',
    );
    const path = write(
      'goblin.yaml',
      `format: 1\nruleset: ffrpg\ncontent: [./more]\n${SIDES.replace('monster: heket', 'monster: goblin')}`,
    );
    const read = readEncounterFile(path, SYSTEMS);
    expect(read.ok ? 'ok' : read.errors.map(formatContentError).join('\n')).toBe('ok');
  });
});

describe('mistakes found while building the setup', () => {
  it("name the character's own file and the line, not the encounter file", () => {
    mkdirSync(join(dir, 'sheets'), { recursive: true });
    const sheet = join(dir, 'sheets', 'sneak.yaml');
    writeFileSync(
      sheet,
      [
        'format: 1',
        'kind: ffrpg/character',
        'id: sneak',
        'name: Sneak',
        'level: 1',
        'attributes: { STR: 5, VIT: 6, AGI: 8, SPD: 8, MAG: 10, SPR: 9 }',
        'skills:',
        '  Staves: 30',
        '  Stelth: 40',
        'stats: { hp: 58, mp: 40, acc: 30, macc: 62, eva: 16, meva: 18, arm: 4, marm: 10 }',
        'weapon: rod',
        '',
      ].join('\n'),
    );
    const encounter = write(
      'sneaky.yaml',
      `format: 1\nruleset: ffrpg\ncontent: [sheets]\n${SIDES.replace('character: hiro', 'character: sneak')}`,
    );
    const errors = errorsOf(encounter);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(sheet);
    expect(errors[0]).toContain(':9');
    expect(errors[0]).toContain('skills.Stelth');
    expect(errors[0]).toContain('Sneak has Skills no ffrpg/skill defines: Stelth');
    expect(errors[0]).toContain(`used by ${encounter}`);
  });
});
