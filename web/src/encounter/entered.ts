import type { ClientMessage, RollSlot } from '../types.js';

/** One roll rolled at the table, as a submit carries it (src/server/protocol.ts). */
export type EnteredRoll = NonNullable<Extract<ClientMessage, { type: 'submit' }>['dice']>[string];

/**
 * A slot's entry as the server reads it: faces are faces. Several numbers are the dice as they
 * lie (`3 7`); one number is what the dice show (a one-die roll's face, `10` on 2*AGI + d12,
 * or several dice added up); with the slot's "total" switch on, or written `=32`, one number is
 * the total with the modifiers already added. Undefined when blank or not numbers.
 */
export function parseEntered(text: string, total = false): EnteredRoll | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const marked = /^=\s*(-?\d+)$/.exec(trimmed);
  if (marked) return { total: Number(marked[1]) };
  if (total) return /^-?\d+$/.test(trimmed) ? { total: Number(trimmed) } : undefined;
  if (!/^\d+([\s,]+\d+)*$/.test(trimmed)) return undefined;
  const faces = trimmed.split(/[\s,]+/).map(Number);
  return faces.length === 1 ? { sum: faces[0]! } : faces;
}

type Range = NonNullable<RollSlot['sum']>;

const span = (r: Range): string => (r.min === r.max ? `${r.min}` : `${r.min}–${r.max}`);

const inside = (r: Range | undefined, n: number): boolean =>
  r === undefined || (n >= r.min && n <= r.max);

/**
 * Why an entry cannot be this slot's roll, in the table's words; undefined when it may be (the
 * server checks it again, with what only it knows: which faces give a total).
 */
export function misfit(slot: RollSlot, entry: EnteredRoll): string | undefined {
  if (Array.isArray(entry)) {
    const faces = slot.faces;
    if (faces === undefined) return undefined;
    if (entry.length !== faces.length)
      return `this roll lays ${faces.length} ${faces.length === 1 ? 'die' : 'dice'}, not ${entry.length}: enter each face, or what they show as one number`;
    const wrong = entry.findIndex((face, i) => !inside(faces[i], face));
    if (wrong < 0) return undefined;
    return `die ${wrong + 1} shows ${span(faces[wrong]!)}, not ${entry[wrong]}`;
  }
  if ('total' in entry)
    return inside(slot.total, entry.total)
      ? undefined
      : `a total of ${span(slot.total!)}, not ${entry.total}`;
  // One die's number is its face, a d10's 0 among them (it reads 10).
  const shows = slot.faces?.length === 1 ? slot.faces[0] : slot.sum;
  return inside(shows, entry.sum) ? undefined : `its dice show ${span(shows!)}, not ${entry.sum}`;
}
