import type { Terrain } from '../../../rulesets/shining-force/grid/paths.js';

/** Fields of at most this many cells are searched in two words, and their searches kept. */
export const MEMO_CELLS = 64;
/** A kept search's costs are bytes: longer moves are searched every time. */
export const MEMO_BUDGET = 254;

/**
 * The move searches made on one field (MoveSearch.find), kept by where the move starts, its
 * budget and the blockers that can matter: those within the budget's reach of the start, as
 * the crow walks (every step costs at least 1, so no way within the budget leaves that
 * diamond, and no blocker outside it changes a cost). Units start a turn on the same cells
 * among the same neighbours battle after battle: on the gate 86 searches in 100 over 5,000
 * battles had been made before (by every blocker, 47). An open-addressing table over typed
 * arrays, keys compared whole, shared by every kernel of a thread on that field
 * (searchMemoFor).
 */
export class SearchMemo {
  private readonly size: number;
  /** By cell and radius: the cells within that many steps of it, as two words. */
  private readonly diamonds: Int32Array;
  private readonly radii: number;
  /** The most slots the table grows to: about 4 MB in all. */
  private readonly largest: number;
  private slots = 0;
  private count = 0;
  /** Four numbers a slot: start, budget and the two words of blockers that matter. */
  private keys = new Int32Array(0);
  private used = new Uint8Array(0);
  private hashes = new Int32Array(0);
  /** Two words a slot: the cells the search reached. */
  private seen = new Int32Array(0);
  /** `size` bytes a slot: what reaching each of those cells costs. */
  private costs = new Uint8Array(0);
  /** The key of the last find, and where keep puts it when find did not have it. */
  private readonly key = new Int32Array(4);
  private hash = 0;
  private free = -1;

  constructor(terrain: Terrain) {
    const { width, height } = terrain;
    const size = width * height;
    if (size > MEMO_CELLS) throw new Error(`a field of ${size} cells is not searched in two words`);
    this.size = size;
    this.radii = width + height - 1;
    this.diamonds = new Int32Array(size * this.radii * 2);
    for (let cell = 0; cell < size; cell++) {
      const x = cell % width;
      const y = (cell - x) / width;
      for (let other = 0; other < size; other++) {
        const ox = other % width;
        const steps = Math.abs(ox - x) + Math.abs((other - ox) / width - y);
        for (let r = steps; r < this.radii; r++)
          this.diamonds[(cell * this.radii + r) * 2 + (other >> 5)]! |= 1 << (other & 31);
      }
    }
    const slotBytes = 4 * 4 + 1 + 4 + 2 * 4 + size;
    let largest = 1 << 16;
    while (largest > 1024 && largest * slotBytes > 4 * 2 ** 20) largest >>= 1;
    this.largest = largest;
    this.allocate(1024);
  }

  private allocate(slots: number): void {
    this.slots = slots;
    this.keys = new Int32Array(slots * 4);
    this.used = new Uint8Array(slots);
    this.hashes = new Int32Array(slots);
    this.seen = new Int32Array(slots * 2);
    this.costs = new Uint8Array(slots * this.size);
  }

  /**
   * The slot of the search from `start` within `budget` with blockers `blocked0` and
   * `blocked1` (every blocker on the field: those out of reach are left out here), or -1.
   */
  find(start: number, budget: number, blocked0: number, blocked1: number): number {
    const at = (start * this.radii + Math.min(budget, this.radii - 1)) * 2;
    const key = this.key;
    key[0] = start;
    key[1] = budget;
    key[2] = blocked0 & this.diamonds[at]!;
    key[3] = blocked1 & this.diamonds[at + 1]!;
    let hash = 0x811c9dc5;
    for (let i = 0; i < 4; i++) hash = Math.imul(hash ^ key[i]!, 0x01000193);
    this.hash = hash;
    const slot = this.slotOf(this.keys, key, 0, hash);
    if (this.used[slot] === 1) return slot;
    this.free = slot;
    return -1;
  }

  /** Where `key` (at `keys[at]`) with `hash` is among `held`, or the empty slot it would go to. */
  private slotOf(held: Int32Array, key: Int32Array, at: number, hash: number): number {
    const { used, hashes } = this;
    const mask = this.slots - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    while (used[slot] === 1) {
      const from = slot * 4;
      if (
        hashes[slot] === hash &&
        held[from] === key[at] &&
        held[from + 1] === key[at + 1] &&
        held[from + 2] === key[at + 2] &&
        held[from + 3] === key[at + 3]
      )
        return slot;
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** The cells the kept search reached, first and second word. */
  seenLow(slot: number): number {
    return this.seen[slot * 2]!;
  }

  seenHigh(slot: number): number {
    return this.seen[slot * 2 + 1]!;
  }

  /** What reaching `cell` cost in the kept search; only for a cell it reached. */
  costOf(slot: number, cell: number): number {
    return this.costs[slot * this.size + cell]!;
  }

  /**
   * Keeps the search the last find did not have: the cells reached and their `costs` (each
   * at most MEMO_BUDGET). At half full the table doubles up to its largest, and there stops
   * taking more.
   */
  keep(seenLow: number, seenHigh: number, costs: Int32Array): void {
    let slot = this.free;
    if (slot < 0) return;
    this.free = -1;
    if (this.count >= this.slots >> 1) {
      if (this.slots >= this.largest) return;
      this.grow();
      slot = this.slotOf(this.keys, this.key, 0, this.hash);
    }
    this.count++;
    this.keys.set(this.key, slot * 4);
    this.used[slot] = 1;
    this.hashes[slot] = this.hash;
    this.seen[slot * 2] = seenLow;
    this.seen[slot * 2 + 1] = seenHigh;
    const row = slot * this.size;
    for (let bits = seenLow; bits !== 0; bits &= bits - 1) {
      const cell = 31 - Math.clz32(bits & -bits);
      this.costs[row + cell] = costs[cell]!;
    }
    for (let bits = seenHigh; bits !== 0; bits &= bits - 1) {
      const cell = 63 - Math.clz32(bits & -bits);
      this.costs[row + cell] = costs[cell]!;
    }
  }

  /** Twice the slots, every kept search moved to its place in them. */
  private grow(): void {
    const { size } = this;
    const old = {
      slots: this.slots,
      keys: this.keys,
      used: this.used,
      hashes: this.hashes,
      seen: this.seen,
      costs: this.costs,
    };
    this.allocate(this.slots * 2);
    for (let from = 0; from < old.slots; from++) {
      if (old.used[from] !== 1) continue;
      const hash = old.hashes[from]!;
      const to = this.slotOf(this.keys, old.keys, from * 4, hash);
      this.keys.set(old.keys.subarray(from * 4, from * 4 + 4), to * 4);
      this.used[to] = 1;
      this.hashes[to] = hash;
      this.seen[to * 2] = old.seen[from * 2]!;
      this.seen[to * 2 + 1] = old.seen[from * 2 + 1]!;
      this.costs.set(old.costs.subarray(from * size, (from + 1) * size), to * size);
    }
  }
}

const MEMOS = new WeakMap<Terrain, SearchMemo>();

/** The kept searches of a field of at most MEMO_CELLS cells, one for every search on it. */
export function searchMemoFor(terrain: Terrain): SearchMemo {
  let memo = MEMOS.get(terrain);
  if (memo === undefined) {
    memo = new SearchMemo(terrain);
    MEMOS.set(terrain, memo);
  }
  return memo;
}
