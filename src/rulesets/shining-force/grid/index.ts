/** The battlefield as pure functions over plain data: cell names, patterns, movement. */
export * from './cells.js';
export * from './paths.js';
export * from './patterns.js';
