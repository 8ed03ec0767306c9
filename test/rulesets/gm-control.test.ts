import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import {
  type AnyEncounter,
  type CommandBase,
  Encounter,
  loadEncounter,
} from '../../src/engine/index.js';
import { RULESETS, SYSTEMS } from '../../src/rulesets/index.js';
import type { AnySystem, CombatantView, EncounterView } from '../../src/rulesets/system.js';
import { secrecyFor, seenView } from '../../src/session/views/seen.js';

/** Each system's example, a character and a monster in it, the monsters' side, a status. */
const CASES = [
  {
    file: 'ffrpg-wind-cave.yaml',
    who: 'hiro',
    monster: 'heket',
    side: 'enemies',
    status: 'poison',
  },
  {
    file: 'ffviii-iron-giant.yaml',
    who: 'ehlric',
    monster: 'iron-giant',
    side: 'giant',
    status: undefined,
  },
  {
    file: 'zodiac-keef-and-the-ogre.yaml',
    who: 'keef',
    monster: 'ogre',
    side: 'monsters',
    status: 'poison',
  },
  {
    file: 'shining-force-gate.yaml',
    who: 'max',
    monster: 'goblin',
    side: 'runefaust',
    status: 'poison',
  },
] as const;

function started(file: string): { system: AnySystem; encounter: AnyEncounter; library: unknown } {
  const path = fileURLToPath(new URL(`../../examples/${file}`, import.meta.url));
  const read = readEncounterFile(path, SYSTEMS);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  const { system, setup, library } = read.encounter;
  const created = Encounter.create(system.ruleset, setup, 11);
  if (!created.ok) throw new Error(created.error.message);
  const encounter = created.value;
  // Into the fight: the first command (a round begun, Initiative or turn order rolled).
  const first = encounter.legalActions()[0]!;
  const begun = encounter.submit(first.command);
  if (!begun.ok) throw new Error(begun.error.message);
  return { system, encounter, library };
}

function combatant(view: EncounterView, id: string): CombatantView {
  const found = view.combatants.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no ${id} in the view`);
  return found;
}

/**
 * Submits a GM command and checks what every GM command guarantees: it is logged, undone to the
 * state before it and redone to the state after it, and a save of it loads to the same state.
 */
function applied(
  system: AnySystem,
  encounter: AnyEncounter,
  command: CommandBase,
): { before: EncounterView; after: EncounterView } {
  const stateBefore = JSON.stringify(encounter.state);
  const before = system.view(encounter.state);
  const result = encounter.submit(command);
  if (!result.ok) throw new Error(`${JSON.stringify(command)}: ${result.error.message}`);
  const stateAfter = JSON.stringify(encounter.state);
  const after = system.view(encounter.state);
  expect(encounter.undo(1).ok).toBe(true);
  expect(JSON.stringify(encounter.state)).toBe(stateBefore);
  expect(encounter.redo(1).ok).toBe(true);
  expect(JSON.stringify(encounter.state)).toBe(stateAfter);
  const loaded = loadEncounter(JSON.parse(JSON.stringify(encounter.save())), RULESETS);
  if (!loaded.ok) throw new Error(loaded.error.message);
  expect(JSON.stringify(loaded.value.state)).toBe(stateAfter);
  return { before, after };
}

function refusedUnchanged(encounter: AnyEncounter, command: unknown): string {
  const state = JSON.stringify(encounter.state);
  const entries = encounter.log.length;
  const result = encounter.submit(command);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(command)}`);
  expect(JSON.stringify(encounter.state)).toBe(state);
  expect(encounter.log.length).toBe(entries);
  return result.error.message;
}

describe.each(CASES)('GM control in $file', ({ file, who, monster, side, status }) => {
  it('sets current HP absolutely and relatively, never the maximum', () => {
    const { system, encounter } = started(file);
    const { before, after } = applied(system, encounter, {
      type: 'gm-set',
      target: who,
      resource: 'hp',
      value: 5,
    } as CommandBase);
    expect(combatant(after, who).hp).toBe(5);
    expect(combatant(after, who).maxHp).toBe(combatant(before, who).maxHp);
    const { after: lower } = applied(system, encounter, {
      type: 'gm-set',
      target: who,
      resource: 'hp',
      value: -2,
      relative: true,
    } as CommandBase);
    expect(combatant(lower, who).hp).toBe(3);
  });

  it('sets MP where the system has it', () => {
    const { system, encounter } = started(file);
    if (!system.gm.mp) {
      expect(
        refusedUnchanged(encounter, { type: 'gm-set', target: who, resource: 'mp', value: 1 }),
      ).not.toBe('');
      return;
    }
    const { after } = applied(system, encounter, {
      type: 'gm-set',
      target: who,
      resource: 'mp',
      value: 0,
    } as CommandBase);
    expect(combatant(after, who).mp).toBe(0);
  });

  it('inflicts a status with a timer and ends it early', () => {
    const { system, encounter } = started(file);
    if (status === undefined) return;
    const { after } = applied(system, encounter, {
      type: 'gm-status',
      target: monster,
      status,
      timer: 3,
    } as CommandBase);
    const shown = combatant(after, monster).statuses.map((s) => s.name.toLowerCase());
    expect(shown.some((name) => name.includes(status))).toBe(true);
    const { after: ended } = applied(system, encounter, {
      type: 'gm-status',
      target: monster,
      status,
      remove: true,
    } as CommandBase);
    const left = combatant(ended, monster).statuses.map((s) => s.name.toLowerCase());
    expect(left.some((name) => name.includes(status))).toBe(false);
  });

  it('adds a monster from content mid-fight, numbered, and removes it', () => {
    const { system, encounter, library } = started(file);
    const newcomer = system.newcomer(library as never, monster);
    if (!newcomer.ok) throw new Error(newcomer.error.message);
    const { before, after } = applied(system, encounter, {
      type: 'gm-add',
      side,
      newcomer: newcomer.value,
    } as CommandBase);
    expect(after.combatants.length).toBe(before.combatants.length + 1);
    const added = after.combatants.find((c) => !before.combatants.some((b) => b.id === c.id))!;
    expect(added.side).toBe(side);
    expect(added.id).not.toBe(monster);
    // Numbered past the names taken: "Goblin 3" where a Goblin 2 already fights.
    expect(added.name).toMatch(/ \d+$/);
    expect(before.combatants.some((c) => c.name === added.name)).toBe(false);
    expect(added.out).toBe(false);
    const { after: removed } = applied(system, encounter, {
      type: 'gm-remove',
      target: added.id,
      reason: 'fled',
    } as CommandBase);
    const gone = removed.combatants.find((c) => c.id === added.id);
    expect(gone === undefined || gone.out).toBe(true);
  });

  it('shows a monster that fled as fled, never as down, to the GM and as a player sees it', () => {
    const { system, encounter } = started(file);
    const { after } = applied(system, encounter, {
      type: 'gm-remove',
      target: monster,
      reason: 'fled',
    } as CommandBase);
    expect(combatant(after, monster)).toMatchObject({ out: true, fled: true });
    expect(combatant(after, who)).toMatchObject({ fled: false });
    const player = { role: 'player', characterId: who } as const;
    const party = combatant(after, who).side;
    const seen = seenView(after, player, party, secrecyFor(player, after, party, new Set()));
    expect(seen.combatants.find((c) => c.id === monster)).toMatchObject({
      hidden: true,
      band: 'fled',
    });
  });

  it('deals damage and heals, raw and as dice', () => {
    const { system, encounter } = started(file);
    const hp = combatant(system.view(encounter.state), monster).hp;
    const { after } = applied(system, encounter, {
      type: 'gm-damage',
      target: monster,
      amount: 7,
      raw: true,
    } as CommandBase);
    expect(combatant(after, monster).hp).toBe(hp - 7);
    const { after: healed } = applied(system, encounter, {
      type: 'gm-heal',
      target: monster,
      amount: 3,
      raw: true,
    } as CommandBase);
    expect(combatant(healed, monster).hp).toBe(hp - 4);
    const { after: rolled } = applied(system, encounter, {
      type: 'gm-damage',
      target: monster,
      amount: '2d6',
      raw: true,
    } as CommandBase);
    const lost = hp - 4 - combatant(rolled, monster).hp;
    expect(lost).toBeGreaterThanOrEqual(2);
    expect(lost).toBeLessThanOrEqual(12);
    applied(system, encounter, {
      type: 'gm-damage',
      target: monster,
      amount: { percent: 10, of: 'max-hp' },
    } as CommandBase);
  });

  it('moves a combatant on the clock and skips the turn of whoever acts', () => {
    const { system, encounter } = started(file);
    applied(system, encounter, {
      type: 'gm-clock',
      target: monster,
      value: 1,
      relative: true,
    } as CommandBase);
    const actor = system.view(encounter.state).actor;
    if (actor === null) return;
    const { before, after } = applied(system, encounter, {
      type: 'gm-skip',
      target: actor,
    } as CommandBase);
    // The turn passed: someone else acts, or the clock moved on.
    const moved =
      after.actor !== actor || JSON.stringify(after.clock) !== JSON.stringify(before.clock);
    expect(moved).toBe(true);
  });

  it('keeps notes with a combatant, in the view and in saves', () => {
    const { system, encounter } = started(file);
    const { after } = applied(system, encounter, {
      type: 'gm-note',
      target: who,
      text: 'behind the pillar',
    } as CommandBase);
    expect(combatant(after, who).notes).toEqual(['behind the pillar']);
    const { after: cleared } = applied(system, encounter, {
      type: 'gm-note',
      target: who,
      text: '',
    } as CommandBase);
    expect(combatant(cleared, who).notes).toEqual([]);
  });

  it("offers the GM's touch controls only statuses gm status takes, each ended by its chip's id", () => {
    const { system, encounter } = started(file);
    const menu = system.gmMenu(encounter.state);
    // The clock the controls move is one every standing combatant has a place on.
    const standing = system.view(encounter.state).combatants.filter((c) => !c.out);
    for (const c of standing) expect(typeof c.clock[menu.clock.key]).toBe('number');
    expect(menu.statuses.length > 0 || menu.freeStatuses).toBe(true);
    for (const s of menu.statuses) {
      const target = monster;
      const timer = s.timer === 'required' ? { timer: 2 } : {};
      const put = encounter.submit({ type: 'gm-status', target, status: s.id, ...timer });
      // A Curse needs the cursed item it comes from: the rules refuse it, saying so.
      if (!put.ok) {
        expect(put.error.code, `${s.id}: ${put.error.message}`).toBe('gm/no-curse');
        continue;
      }
      const chip = system
        .view(encounter.state)
        .combatants.find((c) => c.id === target)!
        .statuses.find((v) => v.id === s.id);
      expect(chip, s.id).toBeDefined();
      const ended = encounter.submit({ type: 'gm-status', target, status: s.id, remove: true });
      expect(ended.ok, `${s.id} ended`).toBe(true);
    }
  });

  it('refuses bad GM commands as error values that change nothing', () => {
    const { encounter } = started(file);
    for (const target of ['nobody', 'constructor', '__proto__', 'toString']) {
      refusedUnchanged(encounter, { type: 'gm-set', target, resource: 'hp', value: 1 });
      refusedUnchanged(encounter, { type: 'gm-note', target, text: 'x' });
      refusedUnchanged(encounter, { type: 'gm-damage', target, amount: 3 });
    }
    refusedUnchanged(encounter, { type: 'gm-set', target: who, resource: 'zzz', value: 1 });
    // FFVIII's text defines no statuses: the GM's are free text there, tracked and shown.
    if (status !== undefined)
      refusedUnchanged(encounter, { type: 'gm-status', target: who, status: 'zzz' });
    refusedUnchanged(encounter, { type: 'gm-damage', target: who, amount: '2d' });
    refusedUnchanged(encounter, { type: 'gm-damage', target: who, amount: 3, element: 'zzz' });
    refusedUnchanged(encounter, { type: 'gm-add', side: 'nowhere', newcomer: {} });
    refusedUnchanged(encounter, { type: 'gm-set', target: who, resource: 'hp', value: 1.5 });
  });
});
