import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import {
  type ContentError,
  type ContentLibrary,
  checkAgainstSchema,
  formatPath,
  type LoadResult,
  loadContent,
  parseContentText,
} from '../content/index.js';
import { MAX_FILE_BYTES } from '../content/parse.js';
import { readBoundedText } from '../content/read-bounded.js';
import type { Result } from '../engine/index.js';
import type { AnySystem } from '../rulesets/system.js';

/** An encounter file, read and resolved: the system it is for and the setup it starts from. */
export interface EncounterFile {
  readonly file: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly system: AnySystem;
  readonly setup: unknown;
  /** The system's part of the file, checked: what `setupFrom` built the setup from. */
  readonly spec: unknown;
  /** The content the file's folders and the starter content hold: where `gm add` finds sheets. */
  readonly library: ContentLibrary;
}

export type EncounterFileResult =
  | { readonly ok: true; readonly encounter: EncounterFile }
  | { readonly ok: false; readonly errors: readonly ContentError[] };

/** The part every encounter file has; the rest belongs to its system (sides, options...). */
const envelope = z.object({
  format: z.literal(1),
  ruleset: z.string(),
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  /**
   * More content folders, relative to the file and inside its folder; the system's starter
   * content is always there. An encounter file may come from anyone: it must not name what it
   * reads elsewhere on the disk.
   */
  content: z
    .array(
      z
        .string()
        .min(1)
        .max(500)
        .refine((dir) => !isAbsolute(dir) && !/^[a-zA-Z]:|^[\\/]/.test(dir), {
          message: "a content folder is relative to the encounter file's folder, not absolute",
        })
        .refine((dir) => !dir.split(/[\\/]/).includes('..'), {
          message: "a content folder lies inside the encounter file's folder: no '..'",
        }),
    )
    .max(50)
    .default([]),
});
const ENVELOPE_FIELDS = ['format', 'ruleset', 'name', 'description', 'content', '$schema'];

/**
 * Reads an encounter file (YAML, or JSON by its name) and builds the setup it describes, or
 * every problem found, each with the file, the path in it and the line.
 */
export function readEncounterFile(
  path: string,
  systems: readonly AnySystem[],
  options: {
    /**
     * A folder that stands in for the system's starter content: a table's library exported
     * with `moogle table content export`, which holds the starter content's entries itself.
     */
    readonly content?: string;
  } = {},
): EncounterFileResult {
  const read = readBoundedText(path, MAX_FILE_BYTES);
  if (!read.ok) {
    return {
      ok: false,
      errors: [{ file: path, path: '', message: `cannot read the encounter file: ${read.reason}` }],
    };
  }
  // Symbolic links in the folders are followed only while they stay inside these.
  const content = options.content === undefined ? undefined : resolve(options.content);
  const within = [
    ...systems.map((s) => s.starterContent),
    dirname(resolve(path)),
    ...(content === undefined ? [] : [content]),
  ];
  // The starter content is always the first folder (parseEncounterText): replaced, not added to,
  // as the folder holds the same ids.
  return parseEncounterText(path, read.text, systems, (dirs) =>
    loadContent(content === undefined ? dirs : [content, ...dirs.slice(1)], systemsKinds(systems), {
      within,
    }),
  );
}

function systemsKinds(systems: readonly AnySystem[]) {
  return systems.flatMap((s) => s.kinds);
}

/** The same without reading the file itself; `load` reads content folders. */
export function parseEncounterText(
  file: string,
  text: string,
  systems: readonly AnySystem[],
  load: (dirs: readonly string[]) => LoadResult,
  /** How the setup is built from the spec: the system's own `setupFrom` unless given (a roster). */
  build: (system: AnySystem, library: ContentLibrary, spec: unknown) => Result<unknown> = (
    system,
    library,
    spec,
  ) => system.setupFrom(library, spec),
): EncounterFileResult {
  const parsed = parseContentText(file, text);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const { value, lineAt } = parsed.content;
  const fail = (
    issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ): EncounterFileResult => ({
    ok: false,
    errors: issues.map((i) => ({
      file,
      path: formatPath(i.path),
      message: i.message,
      line: lineAt(i.path),
    })),
  });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      errors: [
        {
          file,
          path: '',
          message: 'an encounter file holds one object: format, ruleset, sides...',
        },
      ],
    };
  }
  const record = value as Record<string, unknown>;
  const head = checkAgainstSchema(
    Object.fromEntries(
      Object.entries(record).filter(([k]) => ENVELOPE_FIELDS.includes(k) && k !== '$schema'),
    ),
    envelope,
  );
  if (!head.ok) return fail(head.issues);
  const system = systems.find((s) => s.ruleset.id === head.data.ruleset);
  if (system === undefined) {
    const known = systems.map((s) => s.ruleset.id).join(', ');
    return fail([
      { path: ['ruleset'], message: `unknown ruleset "${head.data.ruleset}": one of ${known}` },
    ]);
  }
  const body = Object.fromEntries(
    Object.entries(record).filter(([k]) => !ENVELOPE_FIELDS.includes(k)),
  );
  const spec = checkAgainstSchema(body, system.encounterSpec);
  if (!spec.ok) return fail(spec.issues);
  const folders = [
    system.starterContent,
    ...head.data.content.map((dir) => resolve(dirname(file), dir)),
  ];
  const library = load(folders);
  if (!library.ok) return { ok: false, errors: library.errors };
  const setup = build(system, library.library, spec.data);
  if (!setup.ok) {
    const source = setup.error.source;
    const error: ContentError =
      source === undefined
        ? { file, path: '', message: setup.error.message }
        : {
            file: source.file,
            path: source.path,
            message: `${setup.error.message} (used by ${file})`,
            ...(source.line === undefined ? {} : { line: source.line }),
          };
    return { ok: false, errors: [error] };
  }
  return {
    ok: true,
    encounter: {
      file,
      name: head.data.name ?? system.ruleset.name,
      description: head.data.description,
      system,
      setup: setup.value,
      spec: spec.data,
      library: library.library,
    },
  };
}
