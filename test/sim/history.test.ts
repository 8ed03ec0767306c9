import { describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { policyNamed } from '../../src/sim/policies.js';
import { runBattles } from '../../src/sim/runner.js';
import { simulate } from '../../src/sim/sim.js';

const ENCOUNTERS = [
  'examples/ffrpg-wind-cave.yaml',
  'examples/ffviii-iron-giant.yaml',
  'examples/zodiac-keef-and-the-ogre.yaml',
  'examples/shining-force-gate.yaml',
  'test/sim/kernels/fixtures/statuses.yaml',
  'test/sim/kernels/fixtures/rites.yaml',
  'test/sim/kernels/fixtures/four-sides.yaml',
];

function encounter(file: string) {
  const read = readEncounterFile(file, SYSTEMS);
  if (!read.ok) throw new Error(`${file} does not load`);
  return read.encounter;
}

/**
 * The tactician keeps exact odds per setup, for every battle of a run; a kept answer must be the
 * one the system gives for what it is kept by, or a battle plays one way in a fresh process and
 * another after other battles (issue 15: a Shining Force status's chance depends on the target's
 * HP, and was kept by whatever HP was asked about first).
 */
describe('a simulated battle under the tactician', () => {
  it.each(ENCOUNTERS)(
    'plays the same in %s whatever the process played before',
    (file) => {
      const { system, setup } = encounter(file);
      const policy = policyNamed('tactician')!;
      const played = structuredClone(setup);
      runBattles(system, played, policy, { seed: 'history', from: 0, to: 60 });
      for (let i = 60; i < 90; i++) {
        const fresh = runBattles(system, structuredClone(setup), policy, {
          seed: 'history',
          from: i,
          to: i + 1,
        });
        const after = runBattles(system, played, policy, { seed: 'history', from: i, to: i + 1 });
        expect(after, `battle ${i}`).toEqual(fresh);
      }
    },
    60_000,
  );

  it('gives the same report on one worker and on two (four sides, where it once did not)', async () => {
    const { system, setup } = encounter('test/sim/kernels/fixtures/four-sides.yaml');
    const run = (workers: number) =>
      simulate({ system, setup, battles: 300, seed: 'workers', workers, policy: 'tactician' })
        .result;
    const one = await run(1);
    const two = await run(2);
    expect(two).toEqual(one);
  }, 120_000);
});
