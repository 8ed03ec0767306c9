import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONDITIONAL_MODIFIERS,
  conditionalModifierOf,
  isConditionalModifier,
  parseConditionalModifier,
  taskDifficultyOf,
} from '../../../../src/rulesets/ffrpg/checks/index.js';

describe('Table 1-1: Conditional Modifiers', () => {
  it('holds the eight Task Difficulties from Elementary +80 to Impossible -80', () => {
    expect(CONDITIONAL_MODIFIERS.map((row) => [row.difficulty, row.modifier])).toEqual([
      ['Elementary', 80],
      ['Easy', 40],
      ['Average', 20],
      ['Problematic', 0],
      ['Challenging', -20],
      ['Formidable', -40],
      ['Heroic', -60],
      ['Impossible', -80],
    ]);
  });

  it.each([
    ['Elementary', 80],
    ['elementary', 80],
    ['EASY', 40],
    [' average ', 20],
    ['problematic', 0],
    ['Challenging', -20],
    ['formidable', -40],
    ['heroic', -60],
    ['Impossible', -80],
  ])('looks up %j case-insensitively: %i', (name, modifier) => {
    expect(conditionalModifierOf(name)).toBe(modifier);
  });

  it('knows no other Task Difficulty', () => {
    expect(conditionalModifierOf('trivial')).toBeUndefined();
    expect(conditionalModifierOf('')).toBeUndefined();
  });

  it('names the Task Difficulty of a modifier the table prints, and none between', () => {
    expect(taskDifficultyOf(-60)).toBe('Heroic');
    expect(taskDifficultyOf(0)).toBe('Problematic');
    expect(taskDifficultyOf(30)).toBeUndefined();
  });
});

describe('Conditional Modifier validation: "ranging from +80 to -80"', () => {
  it('accepts every whole number from -80 to +80, the table steps and those between', () => {
    fc.assert(
      fc.property(fc.integer({ min: -80, max: 80 }), (modifier) => {
        expect(isConditionalModifier(modifier)).toBe(true);
        expect(parseConditionalModifier(modifier)).toEqual({ ok: true, value: modifier });
      }),
    );
  });

  it.each([81, -81, 100, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects %d', (modifier) => {
    expect(isConditionalModifier(modifier)).toBe(false);
    const parsed = parseConditionalModifier(modifier);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe('check/bad-modifier');
  });

  it.each([
    ['+40', 40],
    ['-20', -20],
    ['35', 35],
    ['-0', 0],
    ['Heroic', -60],
    ['easy', 40],
  ])('reads %j as a GM types it: %i', (text, modifier) => {
    expect(parseConditionalModifier(text)).toEqual({ ok: true, value: modifier });
  });

  it('returns errors as values: a number out of range, or an unknown name listing the known', () => {
    const tooBig = parseConditionalModifier('+90');
    expect(tooBig.ok).toBe(false);
    if (!tooBig.ok) expect(tooBig.error.code).toBe('check/bad-modifier');
    const unknown = parseConditionalModifier('trivial');
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) {
      expect(unknown.error.code).toBe('check/unknown-difficulty');
      expect(unknown.error.message).toContain('Elementary, Easy, Average');
    }
  });
});
