import { describe, expect, it } from 'vitest';
import * as moogle from '../src/index.js';

describe('the package entry', () => {
  it('exports every system as a namespace, Shining Force between battles included', () => {
    for (const name of ['ffrpg', 'ffviii', 'zodiac', 'shiningForce', 'engine', 'content']) {
      expect(moogle).toHaveProperty(name);
    }
    const sf = moogle.shiningForce as Record<string, unknown>;
    for (const fn of Object.keys(sf).filter((k) => /exp|level|promot|priest|store/i.test(k))) {
      expect(typeof sf[fn]).toMatch(/function|object|number/);
    }
    expect(Object.keys(sf).some((k) => /promot/i.test(k))).toBe(true);
    expect(moogle.SYSTEMS.map((s) => s.ruleset.id)).toEqual([
      'ffrpg',
      'ffviii',
      'zodiac',
      'shining-force',
    ]);
    expect(typeof moogle.engine.gm.parseGmLine).toBe('function');
  });
});
