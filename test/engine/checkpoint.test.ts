import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { type AnyEncounter, Encounter } from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';

function twins(example: string): [AnyEncounter, AnyEncounter] {
  const read = readEncounterFile(`examples/${example}.yaml`, SYSTEMS);
  if (!read.ok) throw new Error(read.errors[0]!.message);
  const make = () => {
    const made = Encounter.create(read.encounter.system.ruleset, read.encounter.setup, 'twins');
    if (!made.ok) throw new Error(made.error.message);
    return made.value as AnyEncounter;
  };
  return [make(), make()];
}

/**
 * restore: what a server does when its database refused an entry the engine had applied. The
 * encounter must be exactly one that never made it: same log, state, dice, undo and redo, and
 * going on identically to a twin that never did.
 */
describe('checkpoint and restore', () => {
  it.each([
    'ffrpg-wind-cave',
    'ffviii-iron-giant',
    'zodiac-keef-and-the-ogre',
    'shining-force-gate',
  ])('%s: a command, an undo or a redo taken back leaves no trace', (example) => {
    const [encounter, twin] = twins(example);
    for (let i = 0; i < 10 && !encounter.outcome().over; i++) {
      const both = (change: (e: AnyEncounter) => { ok: boolean }) => {
        expect(change(encounter).ok).toBe(true);
        expect(change(twin).ok).toBe(true);
      };
      const command = encounter.legalActions()[i % encounter.legalActions().length]!.command;
      // Taken back: a command, then an undo, then a redo (after an undo both share).
      for (const attempt of [
        (e: AnyEncounter) => e.submit(command),
        (e: AnyEncounter) => (e.undoable > 0 ? e.undo(1) : e.submit(command)),
        (e: AnyEncounter) => (e.redoable > 0 ? e.redo(1) : e.submit(command)),
      ]) {
        const checkpoint = encounter.checkpoint();
        expect(attempt(encounter).ok).toBe(true);
        encounter.restore(checkpoint);
        expect(encounter.log).toEqual(twin.log);
        expect(JSON.stringify(encounter.state)).toBe(JSON.stringify(twin.state));
        expect(encounter.diceState).toEqual(twin.diceState);
        expect([encounter.undoable, encounter.redoable]).toEqual([twin.undoable, twin.redoable]);
      }
      both((e) => e.submit(command));
      if (i === 4) both((e) => e.undo(1));
    }
    const next = twin.legalActions()[0]?.command;
    if (next !== undefined) expect(encounter.submit(next)).toEqual(twin.submit(next));
    expect(encounter.save()).toEqual(twin.save());
  });

  it('refuses a checkpoint from beyond its log', () => {
    const [encounter, twin] = twins('ffrpg-wind-cave');
    twin.submit(twin.legalActions()[0]!.command);
    expect(() => encounter.restore(twin.checkpoint())).toThrow(/not of this encounter's past/);
  });
});
