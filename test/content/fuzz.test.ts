import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type ContentError, loadContentTexts } from '../../src/content/index.js';
import { SYSTEMS } from '../../src/rulesets/index.js';

// Deterministic by default, so the suite never flakes; set FC_SEED to explore other cases.
const seed = Number(process.env.FC_SEED ?? 7);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : /\.(ya?ml|json)$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

const STARTER = SYSTEMS.flatMap((system) => filesUnder(system.starterContent)).sort();
const KINDS = SYSTEMS.flatMap((system) => system.kinds);

/** Things a hand edit, a bad merge or an attacker puts into a file. */
const SNIPPETS = [
  ':',
  '- ',
  '{',
  '[',
  ']',
  '"',
  "'",
  '&a ',
  '*a',
  '<<: *a',
  '\u0000',
  '\t',
  '\n  ',
  '\n- ',
  '99999999999999999999',
  '-1',
  '1e309',
  '4294967296d9kh8',
  '(1d30)d10000',
  '__proto__',
  'constructor',
  'toString',
  '!!binary',
  '~',
  'null',
  '#',
  '---\n',
  'format: 2\n',
  'kind: nope\n',
];

const mutation = fc.oneof(
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(...SNIPPETS),
  }),
  fc.record({
    op: fc.constant('delete' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 20 }),
  }),
  fc.record({ op: fc.constant('repeat-line' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('junk' as const), at: fc.nat(), text: fc.string({ maxLength: 12 }) }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, m: Mutation): string {
  const at = text.length === 0 ? 0 : m.at % text.length;
  switch (m.op) {
    case 'insert':
    case 'junk':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'repeat-line': {
      const lines = text.split('\n');
      const i = m.at % lines.length;
      lines.splice(i, 0, lines[i]!);
      return lines.join('\n');
    }
  }
}

function checkErrors(errors: readonly ContentError[], file: string): void {
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    expect(error.file).toBe(file);
    expect(typeof error.path).toBe('string');
    expect(typeof error.message).toBe('string');
    expect(error.message.length).toBeGreaterThan(0);
    // One line, and never more than a short excerpt of the file.
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(600);
    if (error.line !== undefined) expect(error.line).toBeGreaterThanOrEqual(1);
  }
}

describe('mutated content files never crash the loader', () => {
  it('has starter content to mutate', () => {
    expect(STARTER.length).toBeGreaterThan(20);
  });

  it('YAML: every failure is an error value with file, path and message', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (pick, mutations) => {
          const source = STARTER[pick % STARTER.length]!;
          const text = mutations.reduce(mutate, readFileSync(source, 'utf8'));
          const file = 'mutated.yaml';
          const loaded = loadContentTexts([{ file, text }], KINDS);
          if (!loaded.ok) checkErrors(loaded.errors, file);
        },
      ),
      { numRuns: 300, seed },
    );
  });

  it('JSON: the same file as JSON, mutated, likewise', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        (pick, mutations) => {
          const source = STARTER[pick % STARTER.length]!;
          const json = JSON.stringify(parseYaml(readFileSync(source, 'utf8')), null, 2);
          const text = mutations.reduce(mutate, json);
          const file = 'mutated.json';
          const loaded = loadContentTexts([{ file, text }], KINDS);
          if (!loaded.ok) checkErrors(loaded.errors, file);
        },
      ),
      { numRuns: 300, seed },
    );
  });
});
