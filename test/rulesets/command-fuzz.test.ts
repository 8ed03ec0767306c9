import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { type CommandBase, Encounter, loadEncounter } from '../../src/engine/index.js';
import { RULESETS, SYSTEMS } from '../../src/rulesets/index.js';

const EXAMPLES = [
  'ffrpg-wind-cave.yaml',
  'ffviii-iron-giant.yaml',
  'zodiac-keef-and-the-ogre.yaml',
  'shining-force-gate.yaml',
];

/** Ids a hostile client would try: prototype members, empty and odd strings. */
const HOSTILE_IDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '', ' '];

/** One step of a random stream: a legal action, a mangled one, a GM command, undo or redo. */
const step = fc.oneof(
  fc.record({ kind: fc.constant('legal' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('mangled' as const),
    pick: fc.nat(),
    field: fc.constantFrom('actor', 'target', 'ability', 'weapon', 'spell', 'item', 'type'),
    value: fc.oneof(fc.constantFrom(...HOSTILE_IDS), fc.string({ maxLength: 8 }), fc.integer()),
  }),
  fc.record({
    kind: fc.constant('gm' as const),
    type: fc.constantFrom(
      'gm-set',
      'gm-status',
      'gm-remove',
      'gm-clock',
      'gm-skip',
      'gm-damage',
      'gm-heal',
      'gm-note',
    ),
    target: fc.oneof(fc.constantFrom(...HOSTILE_IDS), fc.nat()),
    value: fc.integer({ min: -50, max: 50 }),
  }),
  fc.record({ kind: fc.constant('undo' as const), steps: fc.nat(3) }),
  fc.record({ kind: fc.constant('redo' as const), steps: fc.nat(3) }),
);

describe.each(EXAMPLES)('random command streams in %s', (file) => {
  it('never throw; a rejected command changes nothing; undo, redo and save/load agree', () => {
    const path = fileURLToPath(new URL(`../../examples/${file}`, import.meta.url));
    const read = readEncounterFile(path, SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    const { system, setup } = read.encounter;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.nat(1000), (steps, seed) => {
        const created = Encounter.create(system.ruleset, setup, seed);
        if (!created.ok) throw new Error(created.error.message);
        const encounter = created.value;
        for (const s of steps) {
          const before = JSON.stringify(encounter.state);
          const entries = encounter.log.length;
          const ids = system.view(encounter.state).combatants.map((c) => c.id);
          let result: { ok: boolean };
          if (s.kind === 'undo' || s.kind === 'redo') {
            result = s.kind === 'undo' ? encounter.undo(s.steps) : encounter.redo(s.steps);
          } else if (s.kind === 'gm') {
            const target =
              typeof s.target === 'number' ? (ids[s.target % ids.length] ?? '') : s.target;
            const command: Record<string, unknown> = { type: s.type, target };
            if (s.type === 'gm-set')
              Object.assign(command, { resource: 'hp', value: Math.abs(s.value) });
            if (s.type === 'gm-status') command.status = 'poison';
            if (s.type === 'gm-clock') Object.assign(command, { value: s.value, relative: true });
            if (s.type === 'gm-damage' || s.type === 'gm-heal') command.amount = Math.abs(s.value);
            if (s.type === 'gm-note') command.text = String(s.value);
            result = encounter.submit(command);
          } else {
            const actions = encounter.legalActions();
            if (actions.length === 0) continue;
            const action = actions[s.pick % actions.length]!;
            const command: Record<string, unknown> = { ...(action.command as CommandBase) };
            if (s.kind === 'mangled') command[s.field] = s.value;
            result = encounter.submit(command);
            if (s.kind === 'legal') expect(result.ok, action.label).toBe(true);
          }
          if (!result.ok) {
            expect(JSON.stringify(encounter.state)).toBe(before);
            expect(encounter.log.length).toBe(entries);
          }
        }
        const state = JSON.stringify(encounter.state);
        const loaded = loadEncounter(JSON.parse(JSON.stringify(encounter.save())), RULESETS);
        if (!loaded.ok) throw new Error(loaded.error.message);
        expect(JSON.stringify(loaded.value.state)).toBe(state);
        if (encounter.undoable > 0) {
          const steps = encounter.undoable;
          encounter.undo(steps);
          encounter.redo(steps);
          expect(JSON.stringify(encounter.state)).toBe(state);
        }
      }),
      { numRuns: 60 },
    );
  });
});
