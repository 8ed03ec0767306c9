import type { ClientMessage } from '../types.js';

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
