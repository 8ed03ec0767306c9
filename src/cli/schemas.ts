import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { writeJsonSchemas } from '../content/index.js';
import { CONTENT_KINDS } from '../rulesets/index.js';
import { ExitStatus } from './input.js';
import type { Io } from './io.js';

/** Where the repository keeps the generated schemas, for content files to point their editors at. */
export const SCHEMA_DIR = fileURLToPath(new URL('../../content/schemas/', import.meta.url));

export function registerSchemas(program: Command, io: Io): void {
  program
    .command('schemas')
    .description('write a JSON Schema per content kind, for editors')
    .option('--out <dir>', 'the folder to write them to', SCHEMA_DIR)
    .action((flags: { out: string }) => {
      let written: string[];
      try {
        written = writeJsonSchemas(CONTENT_KINDS, flags.out);
      } catch (error) {
        throw new ExitStatus(2, `cannot write the schemas: ${(error as Error).message}`);
      }
      for (const path of written) io.out(path);
    });
}
