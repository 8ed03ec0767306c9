import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededDice } from '../../src/dice/index.js';
import { CommandDice, gm } from '../../src/engine/index.js';

const vocabulary: gm.GmVocabulary = {
  resources: [
    { name: 'shots', help: 'its next shot' },
    { name: 'ammo', key: 'weapon', help: 'rounds left' },
    { name: 'cracked', key: 'item', flag: true, help: 'an item cracked or whole' },
  ],
  clock: 'next shot',
  mp: true,
  elements: ['fire', 'ice'],
  examples: ['gm hp heket -30'],
};
const context: gm.GmContext = {
  combatants: [
    { id: 'hiro', name: 'Hiro' },
    { id: 'iron-giant', name: 'Iron Giant' },
    { id: 'goblin', name: 'Goblin' },
    { id: 'goblin-2', name: 'Goblin 2' },
  ],
  sides: [
    { id: 'party', name: 'The party' },
    { id: 'enemies', name: 'The monsters' },
  ],
  vocabulary,
};

function parsed(line: string): gm.GmRequest {
  const result = gm.parseGmLine(line, context);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function refused(line: string): string {
  const result = gm.parseGmLine(line, context);
  if (result.ok) throw new Error(`'${line}' was accepted: ${JSON.stringify(result.value)}`);
  return result.error.message;
}

describe('typed GM commands', () => {
  it('sets HP absolutely or relatively, by id or by name in any case', () => {
    expect(parsed('hp hiro 50')).toEqual({
      type: 'gm-set',
      target: 'hiro',
      resource: 'hp',
      value: 50,
      relative: false,
    });
    expect(parsed('hp HIRO +5')).toMatchObject({ value: 5, relative: true });
    expect(parsed('mp hiro -3')).toMatchObject({ resource: 'mp', value: -3, relative: true });
  });

  it('reads names of several words, quoted or not', () => {
    expect(parsed('hp iron giant 10')).toMatchObject({ target: 'iron-giant', value: 10 });
    expect(parsed('hp "Iron Giant" 10')).toMatchObject({ target: 'iron-giant' });
    expect(parsed('hp goblin 2 10')).toMatchObject({ target: 'goblin-2' });
    expect(parsed('hp goblin 10')).toMatchObject({ target: 'goblin' });
  });

  it("sets the system's own resources, keyed and flags", () => {
    expect(parsed('shots hiro 12')).toMatchObject({ resource: 'shots', value: 12 });
    expect(parsed('ammo hiro revolver +6')).toMatchObject({
      resource: 'ammo',
      key: 'revolver',
      value: 6,
      relative: true,
    });
    expect(parsed('cracked hiro short-sword yes')).toMatchObject({
      resource: 'cracked',
      key: 'short-sword',
      value: 1,
    });
    expect(refused('cracked hiro short-sword 3')).toContain('<yes|no>');
    expect(refused('ammo hiro 6')).toContain('gm ammo <who> <weapon>');
  });

  it('inflicts and ends statuses, with an optional timer', () => {
    expect(parsed('status hiro +poison')).toEqual({
      type: 'gm-status',
      target: 'hiro',
      status: 'poison',
      remove: false,
    });
    expect(parsed('status hiro +poison 3')).toMatchObject({ timer: 3 });
    expect(parsed('status hiro +poison infinite')).toMatchObject({ timer: 'infinite' });
    expect(parsed('status iron giant -slow')).toMatchObject({
      target: 'iron-giant',
      status: 'slow',
      remove: true,
    });
    expect(parsed('status hiro +death sentence 3')).toMatchObject({
      status: 'death-sentence',
      timer: 3,
    });
    expect(refused('status hiro poison')).toContain('+<status>');
  });

  it('adds a combatant from content to a side, by side id or name, with a name', () => {
    expect(parsed('add goblin to enemies')).toEqual({
      type: 'gm-add',
      content: 'goblin',
      side: 'enemies',
    });
    expect(parsed('add goblin to the monsters as Goblin Chief')).toEqual({
      type: 'gm-add',
      content: 'goblin',
      side: 'enemies',
      name: 'Goblin Chief',
    });
    expect(refused('add goblin to nowhere')).toContain("there is no side 'nowhere'");
    expect(refused('add goblin enemies')).toContain('gm add <content> to <side>');
  });

  it('names content, sides and statuses as a person would, the longest names winning', () => {
    const named: gm.GmContext = {
      ...context,
      sides: [...context.sides, { id: 'giant', name: 'The Iron Giant' }],
      content: [
        { id: 'iron-giant', name: 'Iron Giant' },
        { id: 'goblin', name: 'Goblin' },
        { id: 'goblin-chief', name: 'Goblin Chief' },
      ],
      statuses: [
        { id: 'armor-break', name: 'Armor Break' },
        { id: 'sleep', name: 'Sleep' },
        { id: 'slow', name: 'Slow' },
      ],
    };
    const read = (line: string) => gm.parseGmLine(line, named);
    expect(read('add Iron Giant to The Iron Giant')).toEqual({
      ok: true,
      value: { type: 'gm-add', content: 'iron-giant', side: 'giant' },
    });
    expect(read('add goblin chief to the monsters as Boss')).toMatchObject({
      value: { content: 'goblin-chief', side: 'enemies', name: 'Boss' },
    });
    expect(read('status hiro +Armor Break 2')).toMatchObject({
      value: { status: 'armor-break', timer: 2 },
    });
    expect(read('status hiro +armor')).toMatchObject({ value: { status: 'armor-break' } });
    const ambiguous = read('status hiro +sl');
    expect(ambiguous.ok || ambiguous.error.message).toContain('Sleep (sleep), Slow (slow)');
    const which = read('add gob to enemies');
    expect(which.ok || which.error.message).toContain('Goblin Chief (goblin-chief)');
    // A status the fight does not list is passed on: the ruleset says what it has.
    expect(read('status hiro +toad')).toMatchObject({ value: { status: 'toad' } });
  });

  it('removes, moves on the clock and skips', () => {
    expect(parsed('remove goblin fled')).toEqual({
      type: 'gm-remove',
      target: 'goblin',
      reason: 'fled',
    });
    expect(parsed('remove goblin')).toMatchObject({ reason: 'dismissed' });
    expect(parsed('clock hiro 9')).toEqual({
      type: 'gm-clock',
      target: 'hiro',
      value: 9,
      relative: false,
    });
    expect(parsed('clock hiro -2')).toMatchObject({ value: -2, relative: true });
    expect(parsed('skip iron giant')).toEqual({ type: 'gm-skip', target: 'iron-giant' });
    expect(refused('clock hiro soon')).toContain('next shot');
  });

  it('deals damage raw or through the rules, as a number, dice or a share of HP', () => {
    expect(parsed('damage hiro 30')).toEqual({
      type: 'gm-damage',
      target: 'hiro',
      amount: 30,
      raw: false,
    });
    expect(parsed('damage iron giant 2d6 fire')).toMatchObject({
      target: 'iron-giant',
      amount: '2d6',
      element: 'fire',
    });
    expect(parsed('damage hiro 50% max-hp raw')).toMatchObject({
      amount: { percent: 50, of: 'max-hp' },
      raw: true,
    });
    expect(parsed('heal hiro 2d8+4')).toMatchObject({ type: 'gm-heal', amount: '2d8+4' });
    expect(refused('damage hiro 30 lightning')).toContain("'lightning' is not an element");
    expect(refused('heal hiro 30 fire')).toContain('gm heal');
  });

  it('adds notes, and clears them with -', () => {
    expect(parsed('note hiro behind the pillar')).toEqual({
      type: 'gm-note',
      target: 'hiro',
      text: 'behind the pillar',
    });
    expect(parsed('note iron giant concentrating')).toEqual({
      type: 'gm-note',
      target: 'iron-giant',
      text: 'concentrating',
    });
    expect(parsed('note hiro -')).toMatchObject({ text: '' });
  });

  it('refuses unknown commands and combatants, naming who is there', () => {
    expect(refused('heal')).toContain('gm heal <who>');
    expect(refused('fly hiro')).toContain("unknown GM command 'fly'");
    expect(refused('hp nobody 5')).toContain("there is no combatant 'nobody'");
    expect(refused('hp constructor 5')).toContain("there is no combatant 'constructor'");
    expect(refused('hp gob 5')).toContain("'gob' could be Goblin (goblin), Goblin 2 (goblin-2)");
    expect(refused('hp "hiro 5')).toContain('quote');
  });

  it('never throws on any line, and anything accepted names a known combatant', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (line) => {
        const result = gm.parseGmLine(line, context);
        if (result.ok && 'target' in result.value)
          expect(context.combatants.map((c) => c.id)).toContain(result.value.target);
      }),
      { numRuns: 2000 },
    );
  });

  it('lists every command in help, with the system resources and examples', () => {
    const help = gm.gmHelp(vocabulary).join('\n');
    for (const word of ['gm hp', 'gm mp', 'gm shots', 'gm ammo <who> <weapon>', 'gm status']) {
      expect(help).toContain(word);
    }
    expect(help).toContain('gm add <content> to <side> [as <name>]');
    expect(help).toContain('(next shot)');
    expect(help).toContain('Elements: fire, ice');
    expect(help).toContain('  gm hp heket -30');
  });
});

describe('newcomers and notes', () => {
  it('numbers a newcomer past the ids and names taken', () => {
    const taken = context.combatants;
    expect(gm.newcomerIdentity(taken, { id: 'goblin', name: 'Goblin' })).toEqual({
      id: 'goblin-3',
      name: 'Goblin 3',
    });
    expect(gm.newcomerIdentity(taken, { id: 'ogre', name: 'Ogre' })).toEqual({
      id: 'ogre',
      name: 'Ogre',
    });
    expect(gm.newcomerIdentity(taken, { id: 'goblin', name: 'Goblin' }, 'Big Gob')).toEqual({
      id: 'big-gob',
      name: 'Big Gob',
    });
    expect(gm.newcomerIdentity([], { id: 'constructor', name: 'C' }).id).toBe('constructor-2');
  });

  it('adds notes, clears them, and refuses to clear none', () => {
    let notes: gm.Notes = {};
    const added = gm.noteEvent(notes, 'hiro', ' behind the pillar ', 'Hiro');
    expect(added).toEqual({
      ok: true,
      value: { type: 'note-added', target: 'hiro', text: 'behind the pillar' },
    });
    if (!added.ok) return;
    notes = gm.evolveNotes(notes, added.value);
    notes = gm.evolveNotes(notes, { type: 'note-added', target: 'hiro', text: 'concentrating' });
    expect(gm.notesOf(notes, 'hiro')).toEqual(['behind the pillar', 'concentrating']);
    expect(gm.notesOf(notes, 'toString')).toEqual([]);
    const cleared = gm.noteEvent(notes, 'hiro', '', 'Hiro');
    if (!cleared.ok) throw new Error(cleared.error.message);
    expect(gm.notesOf(gm.evolveNotes(notes, cleared.value), 'hiro')).toEqual([]);
    expect(gm.noteEvent({}, 'hiro', '', 'Hiro')).toMatchObject({ ok: false });
  });
});

describe('GM amounts', () => {
  const basis = { hp: 75, maxHp: 200, mp: 10, maxMp: 30 };
  const dice = () => new CommandDice(seededDice(3));

  it('reads a share of the target, rounded down', () => {
    expect(gm.resolveGmAmount({ percent: 50, of: 'hp' }, basis, dice(), 'heket')).toEqual({
      ok: true,
      value: { amount: 37 },
    });
    expect(gm.resolveGmAmount({ percent: 25, of: 'max-hp' }, basis, dice(), 'heket')).toEqual({
      ok: true,
      value: { amount: 50 },
    });
  });

  it('rolls dice as gm:<target>, entered like any roll', () => {
    const entered = new CommandDice(seededDice(3), { entered: { 'gm:heket': [4, 5] } });
    const result = gm.resolveGmAmount('2d6', basis, entered, 'heket');
    expect(result).toMatchObject({ ok: true, value: { amount: 9, roll: { entered: true } } });
  });

  it('refuses dice it cannot read as an error value', () => {
    const result = gm.resolveGmAmount('2d', basis, dice(), 'heket');
    expect(result).toMatchObject({ ok: false, error: { code: 'gm/bad-amount' } });
  });
});
