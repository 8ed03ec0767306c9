/**
 * The text forms `moogle balance` reads: `--vary heket.stats.hp=100..400` and
 * `--target party=0.5`. Only their shape is checked here; whether the encounter has that sheet,
 * field or side is the variation's and the search's to say.
 */
import { err, ok, type Result } from '../../engine/index.js';

/** A numeric field of one content sheet the encounter uses, and the range to search. */
export interface VarySpec {
  /** The content id of the sheet (a character's or a monster's): `heket`. */
  readonly combatant: string;
  /** The dotted path of the field in the sheet's content file: `stats.hp`. */
  readonly field: string;
  readonly low: number;
  readonly high: number;
}

/** The win rate wanted for one side, from 0 to 1. */
export interface TargetSpec {
  readonly side: string;
  readonly rate: number;
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

function number(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/** `heket.stats.hp=100..400`: the id is everything before the first dot (ids have none). */
export function readVarySpec(text: string): Result<VarySpec> {
  const shape = `--vary takes <combatant>.<field>=<low>..<high>, as heket.stats.hp=100..400`;
  const eq = text.lastIndexOf('=');
  if (eq < 0) return err('balance/vary', `${shape}; got '${text}' (no '=')`);
  const name = text.slice(0, eq).trim();
  const range = text.slice(eq + 1).trim();
  const dot = name.indexOf('.');
  if (dot <= 0 || dot === name.length - 1) {
    return err('balance/vary', `${shape}; '${name}' names no field of a combatant`);
  }
  const parts = range.split('..');
  if (parts.length !== 2) {
    return err('balance/vary', `${shape}; the range '${range}' is not <low>..<high>`);
  }
  const low = number(parts[0]!);
  const high = number(parts[1]!);
  if (low === undefined || high === undefined) {
    const bad = low === undefined ? parts[0]! : parts[1]!;
    return err('balance/vary', `--vary: '${bad.trim()}' in '${range}' is not a number`);
  }
  if (!(low < high)) {
    return err('balance/vary', `--vary: the range ${range} is empty: <low> must be below <high>`);
  }
  return ok({ combatant: name.slice(0, dot), field: name.slice(dot + 1), low, high });
}

/** `party=0.5`, `party=50%`: a rate from 0 to 1, or a percentage. */
export function readTargetSpec(text: string): Result<TargetSpec> {
  const eq = text.lastIndexOf('=');
  if (eq <= 0) {
    return err(
      'balance/target',
      `--target takes <side>=<rate>, as party=0.5 or party=50%; got '${text}'`,
    );
  }
  const side = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1).trim();
  const rate = readRate(raw);
  if (rate === undefined) {
    return err(
      'balance/target',
      `--target ${side}: the rate '${raw}' is not a win rate from 0 to 1 (or 0% to 100%)`,
    );
  }
  return ok({ side, rate });
}

/** `0.5` or `50%`: a rate from 0 to 1, or undefined when the text is not one. */
export function readRate(text: string): number | undefined {
  const raw = text.trim();
  const percent = raw.endsWith('%');
  const value = number(percent ? raw.slice(0, -1) : raw);
  const rate = value === undefined ? undefined : percent ? value / 100 : value;
  return rate === undefined || rate < 0 || rate > 1 ? undefined : rate;
}
