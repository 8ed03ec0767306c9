import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering of docs/architecture.md, read from the source: which layer of src/ may import
 * which, and no import circle anywhere. Imports are read from the text (TypeScript 7 has no
 * compiler API to ask), static and dynamic alike, type-only ones included: a circle of types
 * is still two files that cannot be read one without the other.
 */

const SRC = resolve(import.meta.dirname, '../src');

/**
 * What each layer (a folder of src/, or the package entry) may import besides itself. The
 * shells (cli, server) sit on top, the session layer under both; nothing below a shell knows
 * it exists, and the server knows nothing of the terminal.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  dice: [],
  files: [],
  'json-patch': [],
  engine: ['dice'],
  content: ['dice', 'engine', 'files'],
  rulesets: ['dice', 'engine', 'content'],
  encounters: ['dice', 'engine', 'content', 'rulesets'],
  store: ['dice', 'engine', 'rulesets'],
  sim: ['dice', 'engine', 'content', 'rulesets', 'encounters', 'files'],
  session: ['dice', 'engine', 'content', 'rulesets', 'encounters', 'sim'],
  server: [
    'dice',
    'engine',
    'content',
    'rulesets',
    'encounters',
    'sim',
    'store',
    'files',
    'session',
    'json-patch',
  ],
  // The live client: the protocol's types and the patches it applies, nothing of the engine.
  client: ['server', 'json-patch'],
  cli: [
    'dice',
    'engine',
    'content',
    'rulesets',
    'encounters',
    'sim',
    'store',
    'files',
    'session',
    'server',
    'index.ts',
  ],
  'index.ts': ['dice', 'engine', 'content', 'rulesets', 'encounters', 'sim'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `import ... from`, `export ... from`, `import '...'` and `import('...')`, relative ones. */
const IMPORT =
  /^\s*(?:import|export)\s[^;]*?\bfrom\s*'([^']+)'|^\s*import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

/** Each file's relative imports, as the files they resolve to. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const imports: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      const ts = target.replace(/\.js$/, '.ts');
      const to = existsSync(ts) ? ts : join(target, 'index.ts');
      imports.push(to);
    }
    graph.set(file, imports);
  }
  return graph;
}

function layerOf(file: string): string {
  return relative(SRC, file).split('/')[0]!;
}

const name = (file: string): string => relative(SRC, file);

describe('the layers of src/', () => {
  const graph = importGraph();

  it('reads a graph worth checking', () => {
    expect(graph.size).toBeGreaterThan(100);
    for (const layer of new Set([...graph.keys()].map(layerOf))) {
      expect(MAY_IMPORT, `a layer docs/architecture.md does not place: ${layer}`).toHaveProperty(
        layer,
      );
    }
  });

  it('imports only the layers below: no shell from below, no terminal in the server', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = layerOf(file);
      for (const to of imports) {
        const layer = layerOf(to);
        if (layer !== from && !MAY_IMPORT[from]?.includes(layer))
          wrong.push(`${name(file)} imports ${name(to)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import circle', () => {
    // Dynamic imports load a system on demand (sim/system-loaders.ts): they are edges too, so
    // a circle cannot hide behind a lazy import.
    const circles: string[] = [];
    const done = new Set<string>();
    const path: string[] = [];
    const onPath = new Set<string>();
    const visit = (file: string): void => {
      if (onPath.has(file)) {
        circles.push([...path.slice(path.indexOf(file)), file].map(name).join(' -> '));
        return;
      }
      if (done.has(file)) return;
      path.push(file);
      onPath.add(file);
      for (const to of graph.get(file) ?? []) visit(to);
      path.pop();
      onPath.delete(file);
      done.add(file);
    };
    for (const file of [...graph.keys()].sort()) visit(file);
    expect(circles).toEqual([]);
  });
});
