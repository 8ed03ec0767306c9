/**
 * The session layer: what both shells (the terminal's `moogle battle` and the table server)
 * need of a live encounter, pure and without I/O. Terminal rendering stays in src/cli, sockets
 * and roles' payloads in src/server; both import this, and it imports neither.
 */
export { groupsOf, matchAction, menuOf } from './actions/pick.js';
export { gmCommandFrom } from './gm/command-from.js';
export { oddsOf } from './odds/odds-of.js';
