import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * The modules and packages a file loads when it runs: its value imports and re-exports, static
 * and dynamic, followed through the source. `import type` is erased; `import { type A }` is not
 * (verbatimModuleSyntax keeps it as an import for its side effects).
 */
function runtimeGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/^(?:import|export)(?! type )[^;]*? from '([^']+)';/gms),
      ...text.matchAll(/^import '([^']+)';/gm),
      ...text.matchAll(/\bimport\('([^']+)'\)/g),
    ].map((m) => m[1]!);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(join(SRC, entry));
  return { files: new Set([...files].map((f) => relative(SRC, f))), packages };
}

describe('a simulation worker', () => {
  // It plays battles from a setup the main thread already read: parsing content is not its job,
  // and loading the YAML parser and the file loader cost every worker's start-up (issue 15).
  it('loads no YAML parser and no content file reader', () => {
    const { files, packages } = runtimeGraph('sim/worker.ts');
    expect(files).toContain('rulesets/shining-force/system.ts');
    expect([...packages].sort()).not.toContain('yaml');
    expect([...files].filter((f) => f.startsWith('content/')).sort()).toEqual([
      'content/encounter-sheets.ts',
      'content/errors.ts',
      'content/fields.ts',
      'content/kind.ts',
    ]);
  });
});
