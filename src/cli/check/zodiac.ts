import { seededDice } from '../../dice/index.js';
import { randomSeed } from '../../dice/random/seed.js';
import { AUTOMATIC_HIT, judgeAttack } from '../../rulesets/zodiac/attack.js';
import { parseSeed, UsageError } from '../input.js';
import type { Io } from '../io.js';

export interface ZodiacCheckFlags {
  accuracy?: string;
  evade?: string;
  critical?: string;
  roll?: string;
  seed?: string;
  json?: boolean;
}

/**
 * A ZODIAC attack roll: d100 + Accuracy greater than Evade hits, a natural 90 or more always hits,
 * and a natural roll at or above the Critical stat on a hit is a critical hit.
 */
export function checkZodiac(flags: ZodiacCheckFlags, io: Io): void {
  if (flags.accuracy === undefined || flags.evade === undefined)
    throw new UsageError(
      'check zodiac needs --accuracy A and --evade E (and may take --critical C)',
    );
  if (flags.roll !== undefined && flags.seed !== undefined)
    throw new UsageError('give --seed or --roll, not both');
  const accuracy = integer(flags.accuracy, '--accuracy', "the attacker's Accuracy");
  const evade = integer(flags.evade, '--evade', "the target's Evade");
  const critical =
    flags.critical === undefined
      ? undefined
      : integer(flags.critical, '--critical', "the attacker's Critical stat");
  // As on a sheet: 1 to 100, or 101 for a combatant that never scores a critical.
  if (critical !== undefined && (critical < 1 || critical > 101))
    throw new UsageError(`--critical: ${critical} is not a Critical stat (1 to 101)`);
  let roll: number;
  if (flags.roll !== undefined) {
    roll = integer(flags.roll, '--roll', 'a natural d100 roll, 1 to 100');
    if (roll < 1 || roll > 100)
      throw new UsageError(`--roll: ${roll} is not a d100 roll (1 to 100)`);
  } else {
    roll = seededDice(flags.seed === undefined ? randomSeed() : parseSeed(flags.seed)).roll(100);
  }
  const judged = judgeAttack(roll, accuracy, evade, critical);
  if (flags.json) {
    io.out(
      JSON.stringify({
        system: 'zodiac',
        roll,
        total: judged.total,
        hit: judged.hit,
        critical: judged.critical,
        automatic: judged.automatic,
      }),
    );
    return;
  }
  const head = `d100 ${roll} + Accuracy ${accuracy} = ${judged.total} against Evade ${evade}`;
  const verdict = !judged.hit
    ? 'miss'
    : judged.total <= evade
      ? `hit: a natural ${AUTOMATIC_HIT} or more always hits`
      : 'hit';
  const crit = judged.critical
    ? `, critical hit (natural ${roll} >= Critical ${critical}): double damage`
    : '';
  io.out(`${head}: ${verdict}${crit}`);
}

function integer(text: string, flag: string, what: string): number {
  const trimmed = text.trim();
  if (!/^[+-]?\d{1,9}$/.test(trimmed))
    throw new UsageError(`${flag}: '${text}' is not a whole number (${what})`);
  return Number(trimmed);
}
