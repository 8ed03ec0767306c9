import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_DIR } from '../../src/cli/schemas.js';
import { jsonSchemaFor, schemaFileName } from '../../src/content/index.js';
import { CONTENT_KINDS } from '../../src/rulesets/index.js';

describe('the JSON Schemas kept for editors in content/schemas', () => {
  it('are what `moogle schemas` generates now (run it after changing a content schema)', () => {
    for (const kind of CONTENT_KINDS) {
      const committed = JSON.parse(
        readFileSync(join(SCHEMA_DIR, schemaFileName(kind)), 'utf8'),
      ) as unknown;
      expect(committed, kind.kind).toEqual(jsonSchemaFor(kind));
    }
    expect(readdirSync(SCHEMA_DIR).sort()).toEqual(CONTENT_KINDS.map(schemaFileName).sort());
  });
});
