function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/**
 * a / b as a double, to full double precision even when both are thousands of bits long
 * (Number(a) / Number(b) overflows to Infinity / Infinity there).
 */
const EXACT = 2n ** 53n;

export function ratio(a: bigint, b: bigint): number {
  if (a === 0n) return 0;
  // Small enough to convert exactly: one division, correctly rounded.
  if (a < EXACT && a > -EXACT && b < EXACT && b > -EXACT) return Number(a) / Number(b);
  const negative = a < 0n !== b < 0n;
  const x = a < 0n ? -a : a;
  const y = b < 0n ? -b : b;
  const shiftX = Math.max(0, bitLength(x) - 64);
  const shiftY = Math.max(0, bitLength(y) - 64);
  const value =
    (Number(x >> BigInt(shiftX)) / Number(y >> BigInt(shiftY))) * 2 ** (shiftX - shiftY);
  return negative ? -value : value;
}
