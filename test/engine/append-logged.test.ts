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

describe('appendLogged: an entry logged by another process', () => {
  it.each([
    'ffrpg-wind-cave',
    'ffviii-iron-giant',
    'zodiac-keef-and-the-ogre',
    'shining-force-gate',
  ])('%s: the follower rebuilds the leader exactly, entry by entry', (example) => {
    const [leader, follower] = twins(example);
    for (let i = 0; i < 12 && !leader.outcome().over; i++) {
      const actions = leader.legalActions();
      expect(leader.submit(actions[i % actions.length]!.command).ok).toBe(true);
      if (i === 5) {
        expect(leader.undo(2).ok).toBe(true);
        expect(leader.redo(1).ok).toBe(true);
      }
    }
    for (const entry of leader.log) expect(follower.appendLogged(entry).ok).toBe(true);
    expect(JSON.stringify(follower.state)).toBe(JSON.stringify(leader.state));
    expect(follower.log).toEqual(leader.log);
    expect(follower.diceState).toEqual(leader.diceState);
    // Both go on the same way.
    const next = leader.legalActions()[0]?.command;
    if (next !== undefined) expect(follower.submit(next)).toEqual(leader.submit(next));
  });

  it('refuses an entry out of order, one whose events were changed, and an undo of nothing', () => {
    const [leader, follower] = twins('ffrpg-wind-cave');
    leader.submit(leader.legalActions()[0]!.command);
    leader.submit(leader.legalActions()[0]!.command);
    const [first, second] = leader.log as [never, never];
    expect(follower.appendLogged(second)).toMatchObject({ ok: false });
    const forged = structuredClone(first) as { events: { type: string }[] };
    forged.events = forged.events.slice(0, -1);
    expect(follower.appendLogged(forged as never)).toMatchObject({
      ok: false,
      error: { code: 'save/inconsistent' },
    });
    expect(follower.log).toEqual([]);
    expect(follower.appendLogged({ seq: 1, type: 'undo', steps: 1 })).toMatchObject({ ok: false });
    expect(follower.appendLogged(first).ok).toBe(true);
    expect(follower.appendLogged(second).ok).toBe(true);
    expect(JSON.stringify(follower.state)).toBe(JSON.stringify(leader.state));
  });
});
