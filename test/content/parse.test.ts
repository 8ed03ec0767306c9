import { describe, expect, it } from 'vitest';
import {
  formatContentError,
  MAX_FILE_BYTES,
  type ParseResult,
  parseContentText,
} from '../../src/content/index.js';

function errorsOf(result: ParseResult): string[] {
  return result.ok ? [] : result.errors.map(formatContentError);
}

describe('parseContentText', () => {
  it('parses YAML and JSON to plain values and finds the line of a path', () => {
    const yaml = parseContentText('a.yaml', 'name: A\nstats:\n  hp: 3\nlist:\n  - x\n  - y\n');
    const json = parseContentText('a.json', '{\n  "name": "A",\n  "list": ["x",\n    "y"]\n}');
    if (!yaml.ok || !json.ok) throw new Error('did not parse');
    expect(yaml.content.value).toEqual({ name: 'A', stats: { hp: 3 }, list: ['x', 'y'] });
    expect(yaml.content.lineAt(['stats', 'hp'])).toBe(3);
    expect(yaml.content.lineAt(['list', 1])).toBe(6);
    expect(yaml.content.lineAt(['stats', 'mp'])).toBe(2);
    expect(yaml.content.lineAt(['nothing'])).toBeUndefined();
    expect(yaml.content.lineAt([])).toBeUndefined();
    expect(json.content.value).toEqual({ name: 'A', list: ['x', 'y'] });
    expect(json.content.lineAt(['list', 1])).toBe(4);
  });

  it('reports YAML syntax errors with their lines', () => {
    expect(errorsOf(parseContentText('a.yml', 'a: 1\nb:\n  c: 1\n d: 2\n'))).toEqual([
      'a.yml:4: invalid YAML: all mapping items must start at the same column',
    ]);
    expect(errorsOf(parseContentText('a.yaml', 'a: 1\n---\nb: 2\n'))).toEqual([
      'a.yaml:2: invalid YAML: source contains multiple documents; please use YAML.parseAllDocuments()',
    ]);
    expect(errorsOf(parseContentText('a.yaml', 'a: *nowhere\n'))).toEqual([
      'a.yaml: invalid YAML: unresolved alias (the anchor must be set before the alias): nowhere',
    ]);
  });

  it('reports JSON syntax errors, with the line when the parser gives a position', () => {
    expect(errorsOf(parseContentText('a.json', '{\n  "a": 1,\n}\n'))).toEqual([
      'a.json:3: invalid JSON: expected double-quoted property name',
    ]);
    expect(errorsOf(parseContentText('a.json', '{"a": }'))).toEqual([
      "a.json: invalid JSON: unexpected token '}'",
    ]);
    expect(errorsOf(parseContentText('a.json', '{"a": 1\n\n"b": 2}'))).toEqual([
      "a.json:3: invalid JSON: expected ',' or '}' after property value",
    ]);
    expect(errorsOf(parseContentText('a.json', '{"a": '))).toEqual([
      'a.json: invalid JSON: the text ends too early',
    ]);
  });

  it('rejects a field given twice, in YAML and in JSON', () => {
    expect(errorsOf(parseContentText('a.yaml', 'hp: 1\nmp: 2\nhp: 3\n'))).toEqual([
      'a.yaml:3: the field "hp" is given twice; give each field once',
    ]);
    expect(errorsOf(parseContentText('a.json', '{\n"hp": 1,\n"hp": 3\n}'))).toEqual([
      'a.json:3: the field "hp" is given twice; give each field once',
    ]);
  });

  it('skips a byte order mark and refuses text over 1 MiB', () => {
    const bom = parseContentText('a.json', '\uFEFF{"a": 1}');
    expect(bom.ok && bom.content.value).toEqual({ a: 1 });
    const big = `a: "${'x'.repeat(MAX_FILE_BYTES)}"\n`;
    expect(errorsOf(parseContentText('big.yaml', big))).toEqual([
      'big.yaml: the file is 1.0 MiB; a content file may be at most 1 MiB',
    ]);
  });
});
