/**
 * "Faces are faces", in every system's every roll: for each example encounter, played at
 * random, every roll of every offered action entered as an array of faces is recorded with
 * exactly those faces (and decides the same events as the dice they came from); a marked total
 * is recorded with that total; one number for a one-die roll is its face.
 */
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { recordedRolls } from '../../src/engine/dice.js';
import {
  type AnyEncounter,
  Encounter,
  type EnteredRoll,
  type RollRecord,
} from '../../src/engine/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import type { AnySystem } from '../../src/rulesets/system.js';

const EXAMPLES = new URL('../../examples/', import.meta.url);
const FILES = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));

/** Each roll once, by purpose: an event may carry a roll another event also shows. */
function rollsOf(events: readonly unknown[]): Map<string, RollRecord> {
  return new Map(recordedRolls(events).map((r) => [r.purpose, r]));
}

/** The events with the marks entering leaves (`entered`, the text of a total): the rest must agree. */
function unmarked(events: readonly unknown[]): string {
  return JSON.stringify(events, (key, value: unknown) => (key === 'entered' ? undefined : value));
}

function submitted(
  encounter: AnyEncounter,
  command: unknown,
  entered?: Record<string, EnteredRoll>,
) {
  return encounter.submit(command, entered === undefined ? {} : { entered, enterAll: true });
}

/** One offered action: seeded, then its faces entered, then each roll as a marked total. */
function checkAction(encounter: AnyEncounter, system: AnySystem, command: unknown): void {
  const seeded = submitted(encounter, command);
  if (!seeded.ok) throw new Error(`an offered action was refused: ${seeded.error.message}`);
  encounter.undo();
  const rolls = rollsOf(seeded.value);
  if (rolls.size === 0) return;
  // Every roll the command made is one of the slots an interface asks for.
  const slots = new Set(system.rolls(encounter.state, command as never).map((s) => s.purpose));
  for (const purpose of rolls.keys()) expect(slots).toContain(purpose.replace(/#\d+$/, ''));

  const faces = Object.fromEntries([...rolls].map(([purpose, r]) => [purpose, [...r.dice]]));
  const entered = submitted(encounter, command, faces);
  if (!entered.ok) throw new Error(`faces refused: ${entered.error.message}`);
  encounter.undo();
  for (const [purpose, record] of rollsOf(entered.value)) {
    expect(record.dice, purpose).toEqual(faces[purpose]);
    expect(record.entered, purpose).toBe(true);
    expect(record.totalOnly, purpose).toBeUndefined();
  }
  expect(unmarked(entered.value)).toBe(unmarked(seeded.value));

  for (const [purpose, seededRoll] of rolls) {
    const marks: EnteredRoll[] = [{ total: seededRoll.total }];
    if (seededRoll.dice.length === 1) marks.push({ sum: seededRoll.dice[0]! });
    for (const mark of marks) {
      const result = submitted(encounter, command, { ...faces, [purpose]: mark });
      if (!result.ok) {
        // Only where the rules read each die and several rolls give the total.
        expect(result.error.message, purpose).toContain('the rules read each die');
        continue;
      }
      encounter.undo();
      const record = rollsOf(result.value).get(purpose)!;
      expect(record.total, purpose).toBe(seededRoll.total);
      if ('sum' in mark) expect(record.dice, purpose).toEqual(seededRoll.dice);
      if (record.totalOnly !== true) {
        expect(record.dice.length, purpose).toBeGreaterThan(0);
        expect(unmarked(result.value)).toBe(unmarked(seeded.value));
      }
    }
  }
}

describe('faces are faces in every system', () => {
  for (const file of FILES) {
    it(`${file}: an array is the roll's faces, a marked total its total, in every offered roll`, () => {
      const read = readEncounterFile(new URL(file, EXAMPLES).pathname, SYSTEMS);
      if (!read.ok) throw new Error(read.errors.map((e) => e.message).join('\n'));
      const { system, setup } = read.encounter;
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          fc.array(fc.nat(), { maxLength: 6 }),
          (seed, choices) => {
            const created = Encounter.create(system.ruleset, setup, seed);
            if (!created.ok) throw new Error(created.error.message);
            const encounter = created.value;
            for (const choice of [...choices, 0]) {
              if (encounter.outcome().over) break;
              const actions = encounter.legalActions();
              if (actions.length === 0) break;
              // A few of the offered actions each step: a grid offers dozens of moves.
              const checked = new Set([0, choice, choice * 7 + 3].map((n) => n % actions.length));
              for (const i of checked) checkAction(encounter, system, actions[i]!.command);
              const next = encounter.submit(actions[choice % actions.length]!.command);
              if (!next.ok) throw new Error(next.error.message);
            }
          },
        ),
        { numRuns: 12 },
      );
    });
  }
});
