import type { DiceSource } from '../../dice/index.js';
import { seededDice } from '../../dice/index.js';
import { randomSeed } from '../../dice/random/seed.js';
import {
  isCounter,
  isCritical,
  isHit,
  varianceDirection,
} from '../../rulesets/shining-force/rates.js';
import { parseSeed, UsageError } from '../input.js';
import type { Io } from '../io.js';

export interface ShiningForceCheckFlags {
  evade?: string;
  critical?: string;
  counter?: string;
  rolls?: string;
  d15?: string;
  seed?: string;
  json?: boolean;
}

function rate(text: string | undefined, flag: string): number {
  if (text === undefined)
    throw new UsageError(`check shining-force needs ${flag} (a rate, 0 to 100)`);
  const trimmed = text.trim();
  if (!/^\d{1,3}$/.test(trimmed) || Number(trimmed) > 100)
    throw new UsageError(`${flag}: '${text}' is not a rate from 0 to 100`);
  return Number(trimmed);
}

function faces(text: string, flag: string, count: number, sides: number): number[] {
  const parts = text.split(',').map((p) => p.trim());
  const values = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  if (parts.length > count || values.some((v) => !Number.isInteger(v) || v < 1 || v > sides)) {
    throw new UsageError(
      `${flag}: '${text}' is not ${count === 5 ? 'five' : `up to ${count}`} d${sides} rolls (1 to ${sides}, comma separated)`,
    );
  }
  return values;
}

/**
 * `moogle check shining-force`: an attack's five d100s read against the target's evade, the
 * attacker's critical rate and the target's counter rate, with the 1d15% of each variance that
 * applies. Rolls not given are rolled (seeded with --seed).
 */
export function checkShiningForce(flags: ShiningForceCheckFlags, io: Io): void {
  const evade = rate(flags.evade, '--evade');
  const critical = rate(flags.critical, '--critical');
  const counterRate = rate(flags.counter, '--counter');
  let dice: DiceSource | undefined;
  const die = (sides: number): number => {
    dice ??= seededDice(flags.seed === undefined ? randomSeed() : parseSeed(flags.seed));
    return dice.roll(sides);
  };
  const rolls =
    flags.rolls === undefined
      ? Array.from({ length: 5 }, () => die(100))
      : faces(flags.rolls, '--rolls', 5, 100);
  if (rolls.length !== 5)
    throw new UsageError(
      `--rolls: give all five d100s (hit, variance, critical, counter, counter variance)`,
    );
  const entered15 = flags.d15 === undefined ? [] : faces(flags.d15, '--d15', 2, 15);
  const d15 = (): number => entered15.shift() ?? die(15);
  const [hitRoll, varianceRoll, criticalRoll, counterRoll, counterVarianceRoll] = rolls as [
    number,
    number,
    number,
    number,
    number,
  ];
  const hit = isHit(hitRoll, evade);
  // A miss deals no damage to vary, cannot be critical, and cannot be countered.
  const direction = varianceDirection(varianceRoll);
  const variance = hit && direction !== 0 ? direction * d15() : 0;
  const crit = hit && isCritical(criticalRoll, critical);
  // "Critical hits cannot be countered"; "A character cannot evade and attack and then counter attack".
  const counter = hit && !crit && isCounter(counterRoll, counterRate);
  const counterDirection = varianceDirection(counterVarianceRoll);
  const counterVariance = counter && counterDirection !== 0 ? counterDirection * d15() : 0;
  if (flags.json) {
    io.out(
      JSON.stringify({
        system: 'shining-force',
        rolls,
        hit,
        variance,
        critical: crit,
        counter,
        counterVariance,
      }),
    );
    return;
  }
  const band = (roll: number) =>
    roll <= 33 ? '1-33, -1d15%' : roll <= 66 ? '34-66, none' : '67-100, +1d15%';
  const signed = (n: number) => `${n > 0 ? '+' : ''}${n}%`;
  io.out(`Hit: ${hitRoll} against evade ${evade}: ${hit ? 'hit' : 'miss (evaded)'}`);
  io.out(
    `Variance: ${varianceRoll} (${band(varianceRoll)}): ${hit ? signed(variance) : 'no damage to vary'}`,
  );
  io.out(
    `Critical: ${criticalRoll} against ${critical}: ${crit ? 'critical hit' : hit ? 'no critical' : 'no (a miss)'}`,
  );
  const why = !hit
    ? 'no (an evaded attack is not countered)'
    : crit
      ? 'no (critical hits cannot be countered)'
      : counter
        ? 'counter attack'
        : 'no counter';
  io.out(`Counter: ${counterRoll} against ${counterRate}: ${why}`);
  io.out(
    `Counter variance: ${counterVarianceRoll} (${band(counterVarianceRoll)}): ${counter ? signed(counterVariance) : 'no counter to vary'}`,
  );
}
