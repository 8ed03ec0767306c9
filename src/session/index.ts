/**
 * The session layer: what both shells (the terminal's `moogle battle` and the table server)
 * need of a live encounter, pure and without I/O: the legal actions' menu and odds, GM lines as
 * commands, and what each role may see. Terminal rendering stays in src/cli, sockets and the
 * wire protocol in src/server; both import this, and it imports neither.
 */
export { groupsOf, matchAction, menuOf } from './actions/pick.js';
export { addableOf, gmCommandFrom, gmContextOf } from './gm/command-from.js';
export { composeGmExamples, type GmExampleInput, gmExamplesOf } from './gm/examples.js';
export { oddsOf } from './odds/odds-of.js';
export type { Role } from './views/role.js';
export {
  healthBand,
  NOTHING_HIDDEN,
  type Secrecy,
  secrecyFor,
  seenEntry,
  seenView,
} from './views/seen.js';
export type {
  HealthBand,
  SeenCombatant,
  SeenEntry,
  SeenView,
} from './views/seen-types.js';
