/** GM control: one vocabulary of GM commands for every system, and what they share. */

export { type AmountBasis, resolveGmAmount } from './amount.js';
export {
  GM_COMMAND_TYPES,
  GM_REMOVE_REASONS,
  type GmAmount,
  type GmCommand,
  type GmCommandType,
  gmAmountSchema,
  gmCommandSchemas,
  isGmCommand,
} from './commands.js';
export type { GmMenu, GmStatusChoice } from './menu.js';
export { evolveNotes, MAX_NOTES, type NoteEvent, type Notes, noteEvent, notesOf } from './notes.js';
export {
  type GmAddRequest,
  type GmContext,
  type GmRequest,
  type GmResource,
  type GmVocabulary,
  gmHelp,
  parseGmLine,
  tokenize,
} from './parse.js';
export {
  findCombatant,
  findNamed,
  namesExactly,
  newcomerIdentity,
  type RosterEntry,
} from './roster.js';
