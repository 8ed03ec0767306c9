/**
 * Zod issues as plain sentences: `expected a whole number, got 1.5`. Used as the per-parse error
 * map, so it covers plain zod schemas; the field builders state their own rule and win over it.
 */
import type { z } from 'zod';
import { describeValue, expectedGot } from './errors.js';

type RawIssue = z.core.$ZodRawIssue;

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'nothing',
};

export function describeIssue(issue: RawIssue): string {
  const expected = expectedOf(issue);
  if (expected !== undefined) return expectedGot(expected, issue.input);
  if (issue.code === 'unrecognized_keys') return 'unknown field';
  return `not valid, got ${describeValue(issue.input)}`;
}

function expectedOf(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return typeName(issue.expected);
    case 'invalid_value':
      return issue.values.length === 1
        ? show(issue.values[0])
        : `one of ${issue.values.map(show).join(', ')}`;
    case 'too_small':
      return sized(issue.origin, issue.inclusive ? 'at least' : 'more than', issue.minimum);
    case 'too_big':
      return sized(issue.origin, issue.inclusive ? 'at most' : 'less than', issue.maximum);
    case 'not_multiple_of':
      return `a multiple of ${issue.divisor}`;
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue
        ? `text matching ${String(issue.pattern)}`
        : `text in ${issue.format} format`;
    case 'invalid_union': {
      // Name the alternatives when they differ by type alone: `text or a number`.
      const types = issue.errors.map((branch) => {
        const first = branch[0];
        return branch.length === 1 && first?.code === 'invalid_type' && first.path.length === 0
          ? typeName(first.expected)
          : undefined;
      });
      if (types.length > 0 && types.every((t) => t !== undefined)) return types.join(' or ');
      return 'one of the allowed forms';
    }
    default:
      return undefined;
  }
}

function typeName(type: string): string {
  return TYPE_NAMES[type] ?? `a ${type}`;
}

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function sized(origin: string, relation: string, bound: number | bigint): string {
  const count = Number(bound);
  switch (origin) {
    case 'string':
      return count === 1 && relation === 'at least'
        ? 'non-empty text'
        : `text of ${relation} ${count} characters`;
    case 'array':
    case 'set':
      return `a list of ${relation} ${count} ${count === 1 ? 'item' : 'items'}`;
    case 'int':
      return `a whole number ${relation} ${count}`;
    default:
      return `a number ${relation} ${count}`;
  }
}
