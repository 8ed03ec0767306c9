/**
 * The content layer: data files (one entity each, YAML or JSON) checked against the kinds a
 * ruleset registers, loaded into a ContentLibrary, or every mistake reported at once.
 *
 *     const weapon = defineKind({
 *       kind: 'ffrpg/weapon',
 *       description: 'A weapon',
 *       schema: z.object({ name: z.string(), damage: diceCode() }),
 *     });
 *     const result = loadContent(['content'], [weapon]);
 *     if (!result.ok) for (const e of result.errors) console.error(formatContentError(e));
 *     else result.library.get(weapon, 'dagger')?.damage;   // "2d6+3"; parseDice() it to roll
 *
 * Rules import what they need from the module itself (kind, fields, encounter-sheets), not
 * from here: this barrel loads the YAML parser and the file loader, which a simulation worker,
 * playing a setup already read, would otherwise load at every start.
 */

export {
  encounterInvalid,
  entitiesById,
  idOrInline,
  type NamedSheet,
  type SheetChoice,
  sheetById,
  sheetMistake,
  sheetNamed,
  sidesFrom,
} from './encounter-sheets.js';
export {
  type ContentError,
  formatContentError,
  formatContentErrors,
  formatPath,
  MAX_ERRORS_SHOWN,
  type PathSegment,
  parsePath,
} from './errors.js';
export {
  contentId,
  diceCode,
  intInRange,
  nonNegativeInt,
  type PercentageOptions,
  percentage,
} from './fields.js';
export { type JsonSchema, jsonSchemaFor, schemaFileName, writeJsonSchemas } from './json-schema.js';
export {
  type ContentEnvelope,
  type ContentKind,
  type ContentReference,
  defineKind,
  type Entity,
  type EntityOf,
  entityFields,
  FORMAT_VERSION,
  ID_PATTERN,
} from './kind.js';
export { ContentLibrary, type ContentLibraryJson, type LibraryEntry } from './library.js';
export {
  CONTENT_EXTENSIONS,
  type ContentText,
  type LoadResult,
  loadContent,
  loadContentTexts,
} from './loader.js';
export { MAX_FILE_BYTES, type ParsedContent, type ParseResult, parseContentText } from './parse.js';
export {
  checkAgainstSchema,
  type EntityCheck,
  type SchemaIssue,
  validateEntity,
} from './validate.js';
