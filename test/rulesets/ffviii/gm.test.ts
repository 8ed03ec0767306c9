/**
 * The GM's commands in FFVIII's terms: HP (current only: the sheet's is the maximum), the next
 * shot, shot debt, ammunition, Spellshards, items; statuses with a timer in rounds; newcomers
 * rolling into the round; damage through Toughness or Spirit; notes. Each refuses bad input
 * with an error value that changes nothing, and undoes, redoes, saves and loads exactly.
 */
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../../src/content/index.js';
import { Encounter } from '../../../src/engine/index.js';
import {
  ffviii,
  ffviiiKinds,
  ffviiiNewcomer,
  ffviiiSetupFrom,
  ffviiiSystem,
  STARTER_CONTENT_DIR,
} from '../../../src/rulesets/ffviii/index.js';
import {
  beginRound,
  EHLRIC,
  type FfviiiEncounter,
  GIANT,
  hp,
  initiative,
  ironGiantWith,
  ofType,
  only,
  rejected,
  rollOf,
  run,
  sheetOf,
  shotOf,
  start,
  types,
  who,
} from './helpers.js';

function library() {
  const loaded = loadContent(STARTER_CONTENT_DIR, ffviiiKinds);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.library;
}

/** Round 1 under way: Ehlric acts on shot 16, the Giant on 12. */
function shot16(setup = ironGiantWith(() => {})): FfviiiEncounter {
  const encounter = start(setup);
  beginRound(encounter);
  return encounter;
}

function newcomer(id = 'iron-giant') {
  const sheet = ffviiiNewcomer(library(), id);
  if (!sheet.ok) throw new Error(sheet.error.message);
  return sheet.value;
}

describe("the encounter's hp: is current HP at the start; the sheet's is the maximum", () => {
  it("a Potion heals above the starting HP, up to the sheet's 35", () => {
    const spec = {
      sides: [
        { id: 'ehlric', name: 'Ehlric', combatants: [{ character: 'ehlric', hp: 10 }] },
        { id: 'giant', name: 'The Iron Giant', combatants: [{ monster: 'iron-giant' }] },
      ],
    };
    const built = ffviiiSetupFrom(library(), spec);
    if (!built.ok) throw new Error(built.error.message);
    const encounter = start(built.value);
    expect(hp(encounter, EHLRIC)).toBe(10);
    expect(ffviiiSystem.view(encounter.state).combatants[0]).toMatchObject({ hp: 10, maxHp: 35 });
    beginRound(encounter);
    // "Potions and other 'normal' items can be used automaticaly": 15 HP, 10 -> 25.
    const first = run(encounter, {
      type: 'use-item',
      actor: EHLRIC,
      item: 'potion',
      target: EHLRIC,
    });
    expect(only(first, 'healed')).toMatchObject({ amount: 15, hpAfter: 25 });
    // The Giant passes; the next Potion stops at the maximum, 35.
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 1 });
    run(encounter, { type: 'pass', actor: GIANT });
    const second = run(encounter, {
      type: 'use-item',
      actor: EHLRIC,
      item: 'potion',
      target: EHLRIC,
    });
    expect(only(second, 'healed')).toMatchObject({ amount: 10, hpAfter: 35 });
  });

  it("an encounter hp above the sheet's maximum is refused", () => {
    const built = ffviiiSetupFrom(library(), {
      sides: [
        { id: 'ehlric', name: 'Ehlric', combatants: [{ character: 'ehlric', hp: 36 }] },
        { id: 'giant', name: 'The Iron Giant', combatants: [{ monster: 'iron-giant' }] },
      ],
    });
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.error.message).toContain('maximum of 35');
  });
});

describe('gm-set: current values only, clamped to what the resource holds', () => {
  it('HP: absolute and relative, never past the maximum, and the event says it was clamped', () => {
    const encounter = shot16();
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'hp', value: 20 });
    expect(hp(encounter, EHLRIC)).toBe(20);
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'hp', value: -5, relative: true });
    expect(hp(encounter, EHLRIC)).toBe(15);
    const over = run(encounter, {
      type: 'gm-set',
      target: EHLRIC,
      resource: 'hp',
      value: 100,
      relative: true,
    });
    expect(only(over, 'gm-set')).toMatchObject({ value: 35, requested: 115 });
    expect(who(encounter, EHLRIC).sheet.hp).toBe(35);
    expect(ffviiiSystem.describe(over, encounter.state)[0]).toBe(
      'GM: Ehlric Lineas HP 35 (not 115: the maximum is 35)',
    );
  });

  it('HP 0 fells at the end of the shot, as damage does; HP given back raises the fallen', () => {
    const encounter = start(
      ironGiantWith((s) => {
        s.sides[1]!.combatants.push({ ...sheetOf(s, GIANT), id: 'giant-2', name: 'Giant 2' });
      }),
    );
    beginRound(encounter, {
      ...initiative({ [EHLRIC]: 8, [GIANT]: 9 }),
      'initiative:giant-2': [1],
    });
    run(encounter, { type: 'gm-set', target: GIANT, resource: 'hp', value: 0 });
    expect(who(encounter, GIANT).down).toBe(false);
    run(encounter, { type: 'wait', actor: EHLRIC, shots: 1 });
    expect(who(encounter, GIANT).down).toBe(true);
    const back = run(encounter, { type: 'gm-set', target: GIANT, resource: 'hp', value: 10 });
    expect(types(back)).toEqual(['gm-set', 'stood-up']);
    expect(who(encounter, GIANT)).toMatchObject({ down: false, hp: 10, shot: 0 });
  });

  it('debt, Spellshards, items; ammunition of a gun', () => {
    const encounter = shot16(
      ironGiantWith((s) => {
        sheetOf(s, EHLRIC).weapons.push({
          id: 'pistol',
          name: 'Pistol',
          skills: ['guns'],
          damage: { strength: false, bonus: 10 },
          shots: 4,
          gun: { kind: 'pistol', capacity: 8 },
        });
      }),
    );
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'debt', value: 3 });
    run(encounter, {
      type: 'gm-set',
      target: EHLRIC,
      resource: 'shards',
      key: 'thunder',
      value: 1,
      relative: true,
    });
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'shards', key: 'fire', value: 2 });
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'item', key: 'potion', value: 5 });
    const ammo = run(encounter, {
      type: 'gm-set',
      target: EHLRIC,
      resource: 'ammo',
      key: 'pistol',
      value: 12,
    });
    expect(only(ammo, 'gm-set')).toMatchObject({ value: 8, requested: 12 });
    run(encounter, {
      type: 'gm-set',
      target: EHLRIC,
      resource: 'ammo',
      key: 'pistol',
      value: -3,
      relative: true,
    });
    expect(who(encounter, EHLRIC)).toMatchObject({
      debt: 3,
      matrix: { thunder: 4, cure: 2, fire: 2 },
      items: { potion: 5 },
      ammo: { pistol: 5 },
    });
  });

  it('refuses what FFVIII has not, and changes nothing', () => {
    const encounter = shot16();
    const set = (extra: Record<string, unknown>) => ({
      type: 'gm-set',
      target: EHLRIC,
      value: 1,
      ...extra,
    });
    rejected(encounter, set({ resource: 'mp' }), 'gm/no-mp');
    rejected(encounter, set({ resource: 'sp' }), 'gm/unknown-resource');
    rejected(encounter, set({ resource: 'shards' }), 'gm/missing-key');
    rejected(encounter, set({ resource: 'hp', key: 'x' }), 'gm/unexpected-key');
    rejected(encounter, set({ resource: 'shards', key: 'flare' }), 'gm/unknown-key');
    rejected(encounter, set({ resource: 'shards', key: 'constructor' }), 'command/reserved-name');
    rejected(encounter, set({ resource: 'item', key: 'elixir' }), 'gm/unknown-key');
    rejected(encounter, set({ resource: 'ammo', key: 'staff' }), 'gm/unknown-key');
    rejected(encounter, set({ resource: 'hp', target: 'squall' }), 'gm/unknown-combatant');
    rejected(encounter, set({ resource: 'hp', target: 'constructor' }), 'command/reserved-name');
  });
});

describe('gm-clock: the next shot', () => {
  it('moves a combatant on the clock, absolute or relative; the clock only counts down', () => {
    const encounter = shot16();
    run(encounter, { type: 'gm-clock', target: GIANT, value: -2, relative: true });
    expect(shotOf(encounter, GIANT)).toBe(10);
    // A shot already passed is clamped to the shot being played: the Giant acts now.
    run(encounter, { type: 'gm-clock', target: GIANT, value: 20 });
    expect(shotOf(encounter, GIANT)).toBe(16);
    expect(ffviiiSystem.view(encounter.state).combatants[1]!.clock).toMatchObject({ shot: 16 });
  });

  it('moving the combatant whose shot it is moves the game on to the next shot', () => {
    const encounter = shot16();
    const events = run(encounter, { type: 'gm-clock', target: EHLRIC, value: 9 });
    expect(events.at(-1)).toEqual({ type: 'shot-called', shot: 12 });
    expect(ffviiiSystem.brief(encounter.state).actor).toBe(GIANT);
  });

  it('the clock of a fallen combatant is not set: it needs HP first', () => {
    const e2 = start(
      ironGiantWith((s) => {
        s.sides[1]!.combatants.push({ ...sheetOf(s, GIANT), id: 'giant-2', name: 'Giant 2' });
      }),
    );
    beginRound(e2, { ...initiative({ [EHLRIC]: 8, [GIANT]: 9 }), 'initiative:giant-2': [1] });
    run(e2, { type: 'gm-set', target: GIANT, resource: 'hp', value: 0 });
    run(e2, { type: 'pass', actor: EHLRIC });
    rejected(e2, { type: 'gm-clock', target: GIANT, value: 3 }, 'gm/target-down');
  });

  it('between rounds the next shot comes from initiative: refused', () => {
    rejected(start(), { type: 'gm-clock', target: EHLRIC, value: 5 }, 'gm/between-rounds');
  });
});

describe("gm-skip: it loses this shot's action", () => {
  it('the shots of a regular action pass without one', () => {
    const encounter = shot16();
    const events = run(encounter, { type: 'gm-skip', target: EHLRIC });
    expect(events[0]).toEqual({ type: 'turn-skipped', target: EHLRIC, shot: 12 });
    expect(encounter.state.shot).toBe(12);
    rejected(encounter, { type: 'gm-skip', target: 'nobody' }, 'gm/unknown-combatant');
  });

  it('refuses one not acting on this shot, and an attack waiting on a dodge', () => {
    const encounter = shot16();
    rejected(encounter, { type: 'gm-skip', target: GIANT }, 'gm/not-its-shot');
    run(encounter, { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'staff' });
    rejected(encounter, { type: 'gm-skip', target: GIANT }, 'action/awaiting-dodge');
  });
});

describe('gm-status: the text names status spells but no statuses; the GM tracks them', () => {
  it('a timer counts rounds and ends with the last; one can be ended early', () => {
    const encounter = start();
    run(encounter, { type: 'gm-status', target: GIANT, status: 'slow', timer: 1 });
    run(encounter, { type: 'gm-status', target: EHLRIC, status: 'haste' });
    expect(who(encounter, GIANT).statuses).toEqual({ slow: 1 });
    const view = ffviiiSystem.view(encounter.state);
    expect(view.combatants[1]!.statuses[0]).toEqual({ id: 'slow', name: 'slow', timer: '1 round' });
    beginRound(encounter);
    run(encounter, { type: 'pass', actor: EHLRIC });
    const end = run(encounter, { type: 'pass', actor: GIANT });
    expect(ofType(end, 'status-ended')).toEqual([
      { type: 'status-ended', target: GIANT, status: 'slow', reason: 'expired' },
    ]);
    expect(who(encounter, GIANT).statuses).toEqual({});
    run(encounter, { type: 'gm-status', target: EHLRIC, status: 'haste', remove: true });
    expect(who(encounter, EHLRIC).statuses).toEqual({});
    rejected(
      encounter,
      { type: 'gm-status', target: EHLRIC, status: 'haste', remove: true },
      'gm/unknown-status',
    );
    rejected(
      encounter,
      { type: 'gm-status', target: EHLRIC, status: 'Not A Status!' },
      'gm/unknown-status',
    );
  });
});

describe('gm-add: a newcomer from content enters the shot clock', () => {
  it('between rounds it rolls initiative with everyone', () => {
    const encounter = start();
    const joined = run(encounter, { type: 'gm-add', side: 'giant', newcomer: newcomer() });
    expect(only(joined, 'combatant-joined')).toMatchObject({
      sheet: { id: 'iron-giant-2', name: 'Iron Giant 2' },
      initiative: null,
      shot: 0,
    });
    const began = beginRound(encounter, {
      ...initiative({ [EHLRIC]: 8, [GIANT]: 9 }),
      'initiative:iron-giant-2': [4],
    });
    expect(only(began, 'round-began').initiative.map((r) => r.initiative)).toEqual([16, 12, 7]);
  });

  it('mid-round it rolls d10 + Speed: a shot already passed means it acts on the shot now played', () => {
    const encounter = shot16();
    const fast = run(
      encounter,
      { type: 'gm-add', side: 'ehlric', newcomer: newcomer('ehlric'), name: 'Selphie' },
      { 'initiative:selphie': [10] },
    );
    // 10 + Speed 8 = 18, above shot 16: it acts on 16, with Ehlric.
    expect(only(fast, 'combatant-joined')).toMatchObject({
      shot: 16,
      initiative: { initiative: 18 },
    });
    expect(who(encounter, 'selphie').sheet.name).toBe('Selphie');
    const slow = run(
      encounter,
      { type: 'gm-add', side: 'giant', newcomer: newcomer() },
      { 'initiative:iron-giant-2': [2] },
    );
    expect(only(slow, 'combatant-joined').shot).toBe(5);
    expect(
      ffviiiSystem.rolls(encounter.state, { type: 'gm-add', side: 'giant', newcomer: newcomer() }),
    ).toEqual([
      {
        purpose: 'initiative:iron-giant-3',
        notation: '1d10',
        label: 'd10',
        // A d10's tenth face is entered as it reads, 0, or as 10.
        faces: [{ min: 0, max: 10 }],
        sum: { min: 1, max: 10 },
        total: { min: 1, max: 10 },
        accepts: 'die 0–10',
      },
    ]);
    rejected(
      encounter,
      { type: 'gm-add', side: 'nobody', newcomer: newcomer() },
      'gm/unknown-side',
    );
  });

  it('a save replays the newcomer, and undo takes it out again', () => {
    const encounter = shot16();
    run(encounter, { type: 'gm-add', side: 'giant', newcomer: newcomer() });
    const loaded = Encounter.load(ffviii, JSON.parse(JSON.stringify(encounter.save())));
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(JSON.stringify(loaded.value.state)).toBe(JSON.stringify(encounter.state));
    const before = JSON.stringify(start().state.order);
    encounter.undo();
    expect(encounter.state.order).toEqual([EHLRIC, GIANT]);
    expect(before).toBe(JSON.stringify([EHLRIC, GIANT]));
    encounter.redo();
    expect(encounter.state.order).toContain('iron-giant-2');
  });
});

describe('gm-remove', () => {
  it('the last enemy sent off ends the battle at once', () => {
    const encounter = shot16();
    const events = run(encounter, { type: 'gm-remove', target: GIANT, reason: 'fled' });
    expect(types(events)).toEqual(['combatant-left', 'battle-ended']);
    expect(encounter.outcome()).toMatchObject({ over: true, winner: 'ehlric' });
  });

  it('an attack waiting on the removed target is called off, and the shot goes on', () => {
    const encounter = start(
      ironGiantWith((s) => {
        s.sides[1]!.combatants.push({ ...sheetOf(s, GIANT), id: 'giant-2', name: 'Giant 2' });
      }),
    );
    beginRound(encounter, {
      ...initiative({ [EHLRIC]: 8, [GIANT]: 9 }),
      'initiative:giant-2': [1],
    });
    run(encounter, { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'staff' });
    const events = run(encounter, { type: 'gm-remove', target: GIANT });
    expect(types(events)).toEqual(['attack-cancelled', 'combatant-left', 'shot-called']);
    expect(encounter.state).toMatchObject({ phase: 'shots', pending: null, shot: 12 });
    rejected(
      encounter,
      { type: 'gm-set', target: GIANT, resource: 'hp', value: 5 },
      'gm/left-the-fight',
    );
  });
});

describe('gm-damage and gm-heal', () => {
  it('through the pipeline: Toughness against plain damage, elemental Spirit against an element', () => {
    const encounter = shot16();
    const plain = run(encounter, { type: 'gm-damage', target: GIANT, amount: 20 });
    expect(only(plain, 'damage-dealt')).toMatchObject({ source: 'gm', amount: 5, hpAfter: 55 });
    expect(ffviiiSystem.describe(plain, encounter.state)).toEqual([
      '  Iron Giant takes 5 damage (GM 20 - Toughness 15 = 5), 55 HP left',
    ]);
    // "Against lightning attacks, it's spirit is reduced to 3".
    const bolt = run(encounter, {
      type: 'gm-damage',
      target: GIANT,
      amount: 20,
      element: 'lightning',
    });
    expect(only(bolt, 'damage-dealt')).toMatchObject({ amount: 17, hpAfter: 38 });
    const raw = run(encounter, { type: 'gm-damage', target: GIANT, amount: 20, raw: true });
    expect(only(raw, 'damage-dealt')).toMatchObject({ amount: 20, hpAfter: 18 });
    const half = run(encounter, {
      type: 'gm-damage',
      target: GIANT,
      amount: { percent: 50, of: 'hp' },
      raw: true,
    });
    expect(only(half, 'damage-dealt').amount).toBe(9);
    const dice = run(
      encounter,
      { type: 'gm-damage', target: GIANT, amount: '2d6', raw: true },
      { 'gm:iron-giant': [3, 4] },
    );
    expect(only(dice, 'damage-dealt').amount).toBe(7);
  });

  it('refuses bad dice, an unknown element, a share of MP', () => {
    const encounter = shot16();
    rejected(encounter, { type: 'gm-damage', target: GIANT, amount: '2d' }, 'gm/bad-amount');
    rejected(
      encounter,
      { type: 'gm-damage', target: GIANT, amount: 5, element: 'gravity' },
      'gm/unknown-element',
    );
    rejected(
      encounter,
      { type: 'gm-damage', target: GIANT, amount: { percent: 10, of: 'mp' } },
      'gm/no-mp',
    );
  });

  it('healing stops at the maximum and raises the fallen', () => {
    const encounter = shot16();
    run(encounter, { type: 'gm-set', target: EHLRIC, resource: 'hp', value: 30 });
    const healed = run(encounter, { type: 'gm-heal', target: EHLRIC, amount: 20 });
    expect(only(healed, 'healed')).toMatchObject({ amount: 5, hpAfter: 35 });
  });
});

describe('gm-note', () => {
  it('shown with the combatant in the view; empty text clears', () => {
    const encounter = start();
    run(encounter, { type: 'gm-note', target: GIANT, text: 'behind the pillar' });
    expect(ffviiiSystem.view(encounter.state).combatants[1]!.notes).toEqual(['behind the pillar']);
    run(encounter, { type: 'gm-note', target: GIANT, text: '' });
    expect(ffviiiSystem.view(encounter.state).combatants[1]!.notes).toEqual([]);
    rejected(encounter, { type: 'gm-note', target: GIANT, text: '' }, 'gm/no-notes');
  });
});

describe('the take and dodge answers', () => {
  it('a combatant with no shot left cannot dodge: "not even dodging"', () => {
    const encounter = shot16();
    run(encounter, { type: 'gm-clock', target: GIANT, value: 0 });
    // The Giant is out of shots: Ehlric's swing rolls at once, no dodge offered.
    const events = run(
      encounter,
      { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'staff' },
      { 'attack:iron-giant': rollOf(0) },
    );
    expect(types(events)).toContain('check-rolled');
    expect(types(events)).not.toContain('attack-declared');
  });
});

/**
 * The terminal's reading of a typed action: typed words match label words in order, each a
 * prefix of its word. The names a table types must pick one action.
 */
function matching(labels: readonly string[], typed: string): string[] {
  const words = typed.toLowerCase().split(/\s+/);
  return labels.filter((label) => {
    const labelWords = label.toLowerCase().split(/[\s:(),]+/);
    let at = 0;
    for (const word of words) {
      while (at < labelWords.length && !labelWords[at]!.startsWith(word)) at++;
      if (at === labelWords.length) return false;
      at++;
    }
    return true;
  });
}

describe('actions typed by name', () => {
  it('cast thunder, attack staff, summon, draw cure, use potion; then dodge and take', () => {
    const encounter = shot16();
    const labels = encounter.legalActions().map((a) => a.label);
    for (const typed of [
      'cast thunder',
      'cast cure',
      'attack staff',
      'attack pet',
      'summon',
      'draw cure',
      'use potion',
      'sense',
      'wait',
      'pass',
      'flee',
    ])
      expect(matching(labels, typed), typed).toHaveLength(1);
    // The shot's actor is the context: its own actions do not repeat its name.
    expect(matching(labels, 'cast thunder')[0]).toMatch(/^Cast Thunder on Iron Giant/);
    expect(labels.filter((l) => l.startsWith('Ehlric'))).toEqual([]);
    run(encounter, { type: 'attack', actor: EHLRIC, target: GIANT, weapon: 'staff' });
    const answers = encounter.legalActions();
    const answer = (typed: string) => {
      const found = matching(
        answers.map((a) => a.label),
        typed,
      );
      expect(found, typed).toHaveLength(1);
      return answers.find((a) => a.label === found[0])!.command.type;
    };
    expect(answer('dodge')).toBe('dodge');
    expect(answer('take')).toBe('take-it');
  });
});
