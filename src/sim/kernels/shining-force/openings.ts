import type { ShiningForceState } from '../../../rulesets/shining-force/state.js';

/**
 * The choices the kernel's tactician made in battles' first rounds, by a key of whole numbers
 * (KernelTactician.openingKey: whose decision, the step, every combatant's cell, standing, HP
 * and MP): battles from one start open alike (of the gate's first round, seven decisions in
 * ten were made before, in another battle), and a choice depends on nothing of the state that
 * the key leaves out. An open-addressing table over typed arrays, each key compared whole on a
 * hit: a Map of strings cost more to build the key for than most decisions. A thread keeps one
 * for every chunk of a run from the same start (openingsFor); once half full (past that, a
 * key it lacks is looked for through ever longer runs of slots) it keeps what it has and takes
 * no more.
 */
export class Openings {
  /** The key of the decision under way, filled by the caller before find. */
  readonly key: Int32Array;
  private readonly length: number;
  private readonly mask: number;
  private readonly most: number;
  private count = 0;
  private readonly keys: Int32Array;
  private readonly used: Uint8Array;
  /** Each slot's key's hash, compared before the key. */
  private readonly hashes: Int32Array;
  private hash = 0;
  private readonly kinds: Int32Array;
  private readonly targets: Int32Array;
  private readonly cells: Int32Array;
  private readonly whats: string[] = [];
  /** Where the last find stopped without the key: where keep puts it. */
  private free = -1;

  constructor(keyLength: number) {
    this.length = keyLength;
    this.key = new Int32Array(keyLength);
    // About 4 MB of keys at most, whatever the roster's size.
    let slots = 1 << 15;
    while (slots > 1024 && slots * keyLength * 4 > 4 * 2 ** 20) slots >>= 1;
    this.mask = slots - 1;
    this.most = slots >> 1;
    this.keys = new Int32Array(slots * keyLength);
    this.used = new Uint8Array(slots);
    this.hashes = new Int32Array(slots);
    this.kinds = new Int32Array(slots);
    this.targets = new Int32Array(slots);
    this.cells = new Int32Array(slots);
  }

  /** The slot holding `key`'s choice, or -1. */
  find(): number {
    const { key, length, keys, used, mask } = this;
    let hash = 0x811c9dc5;
    for (let i = 0; i < length; i++) hash = Math.imul(hash ^ key[i]!, 0x01000193);
    this.hash = hash;
    let slot = (hash ^ (hash >>> 15)) & mask;
    while (used[slot] === 1) {
      if (this.hashes[slot] !== hash) {
        slot = (slot + 1) & mask;
        continue;
      }
      const at = slot * length;
      let same = true;
      for (let i = 0; i < length; i++) {
        if (keys[at + i] !== key[i]) {
          same = false;
          break;
        }
      }
      if (same) return slot;
      slot = (slot + 1) & mask;
    }
    this.free = slot;
    return -1;
  }

  kind(slot: number): number {
    return this.kinds[slot]!;
  }

  target(slot: number): number {
    return this.targets[slot]!;
  }

  cell(slot: number): number {
    return this.cells[slot]!;
  }

  what(slot: number): string {
    return this.whats[slot]!;
  }

  /** Keeps a choice for the key the last find did not have. */
  keep(kind: number, target: number, cell: number, what: string): void {
    const slot = this.free;
    if (slot < 0 || this.count >= this.most) return;
    this.free = -1;
    this.count++;
    this.keys.set(this.key, slot * this.length);
    this.used[slot] = 1;
    this.hashes[slot] = this.hash;
    this.kinds[slot] = kind;
    this.targets[slot] = target;
    this.cells[slot] = cell;
    this.whats[slot] = what;
  }
}

/** By setup, then by the start's combatants as JSON (every field a choice could read). */
const OPENINGS = new WeakMap<object, Map<string, Openings>>();

/** The openings of battles from `start`, shared by every kernel from a start like it. */
export function openingsFor(start: ShiningForceState): Openings {
  let bySetup = OPENINGS.get(start.setup);
  if (bySetup === undefined) {
    bySetup = new Map();
    OPENINGS.set(start.setup, bySetup);
  }
  const print = JSON.stringify(start.combatants);
  let openings = bySetup.get(print);
  if (openings === undefined) {
    openings = new Openings(openingKeyLength(start.combatants.length));
    bySetup.set(print, openings);
  }
  return openings;
}

/** Whose decision and the step, then two numbers a combatant. */
export function openingKeyLength(combatants: number): number {
  return 2 + 2 * combatants;
}
