import type { ShiningForceState } from '../../../rulesets/shining-force/state.js';

/**
 * The choices the kernel's tactician made in battles' first rounds, by a key of whole numbers
 * (KernelTactician.openingKey: whose decision, the step, every combatant's cell, standing, HP
 * and MP): battles from one start open alike (of the gate's first round, seven decisions in
 * ten were made before, in another battle), and a choice depends on nothing of the state that
 * the key leaves out. An open-addressing table over typed arrays, each key compared whole on a
 * hit: a Map of strings cost more to build the key for than most decisions. A thread keeps one
 * for every chunk of a run from the same start (openingsFor).
 */
export class Openings {
  /** The key of the decision under way, filled by the caller before find. */
  readonly key: Int32Array;
  private readonly length: number;
  /** The most slots the table grows to: about 4 MB of keys, whatever the roster's size. */
  private readonly largest: number;
  private slots = 0;
  private count = 0;
  private keys = new Int32Array(0);
  private used = new Uint8Array(0);
  /** Each slot's key's hash, compared before the key. */
  private hashes = new Int32Array(0);
  private hash = 0;
  private kinds = new Int32Array(0);
  private targets = new Int32Array(0);
  private cells = new Int32Array(0);
  private whats: string[] = [];
  /** Where the last find stopped without the key: where keep puts it. */
  private free = -1;

  constructor(keyLength: number) {
    this.length = keyLength;
    this.key = new Int32Array(keyLength);
    let largest = 1 << 15;
    while (largest > 1024 && largest * keyLength * 4 > 4 * 2 ** 20) largest >>= 1;
    this.largest = largest;
    // Small at first: a run of a few hundred battles (a balance search's point) fills little.
    this.allocate(1024);
  }

  /** Empty slots, `slots` of them, in place of the table's. */
  private allocate(slots: number): void {
    this.slots = slots;
    this.keys = new Int32Array(slots * this.length);
    this.used = new Uint8Array(slots);
    this.hashes = new Int32Array(slots);
    this.kinds = new Int32Array(slots);
    this.targets = new Int32Array(slots);
    this.cells = new Int32Array(slots);
    this.whats = [];
  }

  /** The slot holding `key`'s choice, or -1. */
  find(): number {
    const { key, length } = this;
    let hash = 0x811c9dc5;
    for (let i = 0; i < length; i++) hash = Math.imul(hash ^ key[i]!, 0x01000193);
    this.hash = hash;
    const slot = this.slotOf(key, 0, hash);
    if (this.used[slot] === 1) return slot;
    this.free = slot;
    return -1;
  }

  /** Where the key at `keys[at]` with `hash` is, or the empty slot where it would go. */
  private slotOf(keys: Int32Array, at: number, hash: number): number {
    const { length, used, hashes } = this;
    const held = this.keys;
    const mask = this.slots - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    while (used[slot] === 1) {
      if (hashes[slot] === hash) {
        const from = slot * length;
        let same = true;
        for (let i = 0; i < length; i++) {
          if (held[from + i] !== keys[at + i]) {
            same = false;
            break;
          }
        }
        if (same) return slot;
      }
      slot = (slot + 1) & mask;
    }
    return slot;
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

  /**
   * Keeps a choice for the key the last find did not have. At half full the table doubles, up
   * to its largest; full to half of that, it keeps what it has and takes no more (past half, a
   * key it lacks is looked for through ever longer runs of slots).
   */
  keep(kind: number, target: number, cell: number, what: string): void {
    let slot = this.free;
    if (slot < 0) return;
    this.free = -1;
    if (this.count >= this.slots >> 1) {
      if (this.slots >= this.largest) return;
      this.grow();
      slot = this.slotOf(this.key, 0, this.hash);
    }
    this.count++;
    this.keys.set(this.key, slot * this.length);
    this.used[slot] = 1;
    this.hashes[slot] = this.hash;
    this.kinds[slot] = kind;
    this.targets[slot] = target;
    this.cells[slot] = cell;
    this.whats[slot] = what;
  }

  /** Twice the slots, every kept choice moved to its place in them. */
  private grow(): void {
    const { length } = this;
    const old = {
      slots: this.slots,
      keys: this.keys,
      used: this.used,
      hashes: this.hashes,
      kinds: this.kinds,
      targets: this.targets,
      cells: this.cells,
      whats: this.whats,
    };
    this.allocate(this.slots * 2);
    for (let from = 0; from < old.slots; from++) {
      if (old.used[from] !== 1) continue;
      const hash = old.hashes[from]!;
      const to = this.slotOf(old.keys, from * length, hash);
      this.keys.set(old.keys.subarray(from * length, (from + 1) * length), to * length);
      this.used[to] = 1;
      this.hashes[to] = hash;
      this.kinds[to] = old.kinds[from]!;
      this.targets[to] = old.targets[from]!;
      this.cells[to] = old.cells[from]!;
      this.whats[to] = old.whats[from]!;
    }
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
