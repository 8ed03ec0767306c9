import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { Encounter } from '../../src/engine/index.js';
import { article, count, sideVerb, statusClause, withArticle } from '../../src/rulesets/grammar.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { gmCommandFrom } from '../../src/session/index.js';

describe('the grammar of log lines', () => {
  it('counts: "1 tick", "2 ticks", "1 HP", "0 rounds"', () => {
    expect(count(1, 'tick')).toBe('1 tick');
    expect(count(2, 'tick')).toBe('2 ticks');
    expect(count(0, 'round')).toBe('0 rounds');
    expect(count(1, 'HP')).toBe('1 HP');
    expect(count(12, 'HP')).toBe('12 HP');
    expect(count(2, 'Phoenix Down')).toBe('2 Phoenix Downs');
  });

  it('articles: "an Antidote", "an Ether", "a Potion", "a Unicorn Horn", "an X-Potion"', () => {
    expect(withArticle('Antidote')).toBe('an Antidote');
    expect(withArticle('Ether')).toBe('an Ether');
    expect(withArticle('Potion')).toBe('a Potion');
    expect(withArticle('Medical Herb')).toBe('a Medical Herb');
    expect(withArticle('Unicorn Horn')).toBe('a Unicorn Horn');
    expect(withArticle('X-Potion')).toBe('an X-Potion');
    expect(article('Eye Drops')).toBe('an');
  });

  it('a side agrees with how many it is: "Keef wins", "The Shining Force win"', () => {
    expect(`Keef ${sideVerb(1, 'wins', 'win')}`).toBe('Keef wins');
    expect(`The Shining Force ${sideVerb(3, 'wins', 'win')}`).toBe('The Shining Force win');
  });

  it('statuses read as states: "Max is poisoned", "Keef is asleep", "Ehlric has Regen"', () => {
    expect(statusClause('Max', 'poison')).toBe('Max is poisoned');
    expect(statusClause('Keef', 'Sleep')).toBe('Keef is asleep');
    expect(statusClause('Max', 'curse')).toBe('Max is cursed');
    expect(statusClause('Ehlric', 'regen')).toBe('Ehlric has Regen');
    expect(statusClause('Max', 'illusion')).toBe('Max has Illusion');
    expect(statusClause('Keef', 'death-sentence')).toBe('Keef has Death Sentence');
  });
});

/** Each system's example fight, the GM lines typed into it, and the lines its log then reads. */
function logOf(file: string, lines: readonly string[]): string[] {
  const read = readEncounterFile(`examples/${file}`, SYSTEMS);
  if (!read.ok) throw new Error(`${file} does not load`);
  const { system, setup, library } = read.encounter;
  const created = Encounter.create(system.ruleset, setup, 7);
  if (!created.ok) throw new Error(created.error.message);
  const encounter = created.value;
  const out: string[] = [];
  for (const line of lines) {
    // `#n`: the n-th legal action; anything else is a GM line.
    const legal = /^#(\d+)$/.exec(line);
    const command = legal
      ? { ok: true as const, value: encounter.legalActions()[Number(legal[1]) - 1]!.command }
      : gmCommandFrom(system, library, encounter.state, line);
    if (!command.ok) throw new Error(`${line}: ${command.error.message}`);
    const events = encounter.submit(command.value);
    if (!events.ok) throw new Error(`${line}: ${events.error.message}`);
    out.push(...system.describe(events.value, encounter.state));
  }
  return out;
}

describe('real log lines', () => {
  it('Shining Force: "GM: Max is poisoned, 1 turn."', () => {
    const log = logOf('shining-force-gate.yaml', [
      'status max +poison 1',
      'status goblin +sleep 2',
    ]);
    expect(log).toContain('GM: Max is poisoned, 1 turn.');
    expect(log).toContain('GM: Goblin is asleep, 2 turns.');
  });

  it('FFVIII: "GM: Iron Giant is slowed for 1 round", "for 2 rounds"', () => {
    const log = logOf('ffviii-iron-giant.yaml', [
      'status iron giant +slow 1',
      'status ehlric +poison 2',
      'status ehlric +regen',
    ]);
    expect(log).toContain('GM: Iron Giant is slowed for 1 round');
    expect(log).toContain('GM: Ehlric Lineas is poisoned for 2 rounds');
    expect(log).toContain('GM: Ehlric Lineas has Regen');
  });

  it('ZODIAC: a side of one wins in the singular, "Keef wins"', () => {
    const log = logOf('zodiac-keef-and-the-ogre.yaml', ['death ogre', '#1']);
    expect(log.join('\n')).toMatch(/The battle is over: Keef wins:/);
  });
});
