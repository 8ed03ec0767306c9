import type { Terrain } from '../../../rulesets/shining-force/grid/paths.js';
import { MEMO_BUDGET, MEMO_CELLS, type SearchMemo, searchMemoFor } from './search-memo.js';

/** Movement costs a terrain may give (model.ts terrainSchema: 1 to 9). */
const MAX_STEP = 9;

/**
 * The move search of grid/paths.ts (cheapest, as field.ts movesOf uses it), over sets of cells
 * held as bits: the cells first reached at each cost are the neighbours of those reached at that
 * cost less each terrain's step, found for all cells at once by shifting the bits (a field is at
 * most 26 cells wide, so a row's shift stays within a word's reach). The same costs as the
 * search by queue, which settles on the cheapest cost of every cell whatever order it visits
 * them in, at a tenth of its branches.
 *
 * A cell is entered only when no blocker stands on it (an enemy; an ally too when allies may
 * not be passed through), and a move never costs more than the budget.
 */
export class MoveSearch {
  private readonly width: number;
  private readonly size: number;
  private readonly words: number;
  /** Cells not in the first column, not in the last, and on the field at all. */
  private readonly notFirst: Int32Array;
  private readonly notLast: Int32Array;
  private readonly valid: Int32Array;
  /** By step cost s (1 to 9): the cells entering which costs s; empty for costs no cell has. */
  private readonly costing: (Int32Array | undefined)[] = [];
  /** The step costs the terrain has, cheapest first. */
  private readonly steps: number[] = [];
  /** For fields of two words or fewer: costing's two words by step, at 2 * step. */
  private readonly stepMasks: Int32Array;
  private readonly blocked: Int32Array;
  private readonly seen: Int32Array;
  private readonly around: Int32Array;
  private readonly found: Int32Array;
  /** The cells reached at each cost, `words` a cost. */
  private levels: Int32Array;
  /** The searches made on this field before, for a field of two words (search-memo.ts). */
  private readonly memo: SearchMemo | undefined;
  /**
   * What reaching each cell cost in the last search made here rather than taken from the
   * memo: good only for the cells it reached (nothing else is written, nor cleared).
   */
  private readonly own: Int32Array;
  /** The cells the last find reached, less those excluded: where the move may end. */
  private readonly ends: Int32Array;
  /** The memo's slot the last find's costs are in; -1: they are in `own`. */
  private kept = -1;

  constructor(terrain: Terrain) {
    const { width, height, costs } = terrain;
    this.width = width;
    this.size = width * height;
    this.words = Math.ceil(this.size / 32);
    const words = this.words;
    this.notFirst = new Int32Array(words);
    this.notLast = new Int32Array(words);
    this.valid = new Int32Array(words);
    for (let cell = 0; cell < this.size; cell++) {
      const bit = 1 << (cell & 31);
      const w = cell >> 5;
      const x = cell % width;
      this.valid[w]! |= bit;
      if (x !== 0) this.notFirst[w]! |= bit;
      if (x !== width - 1) this.notLast[w]! |= bit;
      const step = costs[cell] ?? 0;
      if (step <= 0) continue;
      let mask = this.costing[step];
      if (mask === undefined) {
        mask = new Int32Array(words);
        this.costing[step] = mask;
      }
      mask[w]! |= bit;
    }
    for (let s = 1; s <= MAX_STEP; s++) if (this.costing[s] !== undefined) this.steps.push(s);
    this.stepMasks = new Int32Array(2 * (MAX_STEP + 1));
    for (const step of this.steps) {
      const mask = this.costing[step]!;
      this.stepMasks[2 * step] = mask[0]!;
      if (words > 1) this.stepMasks[2 * step + 1] = mask[1]!;
    }
    this.blocked = new Int32Array(words);
    this.seen = new Int32Array(words);
    this.around = new Int32Array(words);
    this.found = new Int32Array(words);
    this.levels = new Int32Array(words * 8);
    this.memo = this.size <= MEMO_CELLS ? searchMemoFor(terrain) : undefined;
    this.own = new Int32Array(this.size);
    this.ends = new Int32Array(words);
  }

  /** Nobody blocks: call before marking this search's blockers. */
  clearBlockers(): void {
    this.blocked.fill(0);
  }

  block(cell: number): void {
    this.blocked[cell >> 5]! |= 1 << (cell & 31);
  }

  /**
   * The cheapest cost from `start` to every cell within `budget`, for costAt and endsInto: on
   * a field of at most 64 cells (the gate is 48) a search made before on the field is taken
   * from the memo (the same costs: a search depends on nothing else), else it is made over the
   * two words of bits and kept; on a larger field it is made over `words` words.
   */
  find(start: number, budget: number): void {
    const { words, ends } = this;
    if (words <= 2) {
      const memo = budget <= MEMO_BUDGET ? this.memo : undefined;
      if (memo !== undefined) {
        const slot = memo.find(start, budget, this.blocked[0]!, words > 1 ? this.blocked[1]! : 0);
        if (slot >= 0) {
          this.kept = slot;
          ends[0] = memo.seenLow(slot);
          if (words > 1) ends[1] = memo.seenHigh(slot);
          return;
        }
      }
      this.kept = -1;
      this.searchTwoWords(start, budget, this.own);
      memo?.keep(this.seen[0]!, words > 1 ? this.seen[1]! : 0, this.own);
    } else {
      this.kept = -1;
      this.searchWords(start, budget, this.own);
    }
    ends.set(this.seen);
  }

  /** What the last find found it costs to end the move on `cell`; -1 where it may not. */
  costAt(cell: number): number {
    if (((this.ends[cell >> 5]! >>> (cell & 31)) & 1) === 0) return -1;
    return this.kept >= 0 ? this.memo!.costOf(this.kept, cell) : this.own[cell]!;
  }

  /** A cell the last find reached where the move may not end after all (someone stands there). */
  exclude(cell: number): void {
    this.ends[cell >> 5]! &= ~(1 << (cell & 31));
  }

  /** The cells the move may end on (the last find's, less those excluded) in index order; how many. */
  endsInto(cells: Int32Array): number {
    const { words, ends } = this;
    let count = 0;
    for (let w = 0; w < words; w++) {
      for (let bits = ends[w]!; bits !== 0; bits &= bits - 1)
        cells[count++] = (w << 5) + (31 - Math.clz32(bits & -bits));
    }
    return count;
  }

  /**
   * The search over `words` words: the cheapest cost of each cell it reaches into `costs`
   * (nothing else written), the cells in `seen`.
   */
  private searchWords(start: number, budget: number, costs: Int32Array): void {
    const { words, blocked, seen, around, found } = this;
    const levelsNeeded = (budget + 1) * words;
    if (this.levels.length < levelsNeeded) this.levels = new Int32Array(levelsNeeded);
    const levels = this.levels;
    seen.fill(0);
    levels.fill(0, 0, levelsNeeded);
    seen[start >> 5] = 1 << (start & 31);
    levels[start >> 5] = 1 << (start & 31);
    costs[start] = 0;
    let lastFound = 0;
    for (let k = 1; k <= budget && k - lastFound <= MAX_STEP; k++) {
      found.fill(0);
      let any = 0;
      for (const step of this.steps) {
        const from = k - step;
        if (from < 0) break;
        if (!this.expand(levels, from * words, around)) continue;
        const mask = this.costing[step]!;
        for (let w = 0; w < words; w++) found[w]! |= around[w]! & mask[w]!;
      }
      const at = k * words;
      for (let w = 0; w < words; w++) {
        const fresh = found[w]! & ~blocked[w]! & ~seen[w]!;
        levels[at + w] = fresh;
        seen[w]! |= fresh;
        any |= fresh;
        // Each cell first reached now costs k.
        let bits = fresh;
        while (bits !== 0) {
          const low = bits & -bits;
          costs[(w << 5) + (31 - Math.clz32(low))] = k;
          bits ^= low;
        }
      }
      if (any !== 0) lastFound = k;
    }
  }

  /**
   * The search on a field of two words or fewer: its two words of bits in locals, each step's
   * shifts written out, the costs of the cells it reaches written and nothing else.
   */
  private searchTwoWords(start: number, budget: number, costs: Int32Array): void {
    const width = this.width;
    const back = 32 - width;
    const levelsNeeded = (budget + 1) * 2;
    if (this.levels.length < levelsNeeded) this.levels = new Int32Array(levelsNeeded);
    const { levels, steps, stepMasks } = this;
    const first0 = this.notFirst[0]!;
    const first1 = this.words > 1 ? this.notFirst[1]! : 0;
    const last0 = this.notLast[0]!;
    const last1 = this.words > 1 ? this.notLast[1]! : 0;
    const valid0 = this.valid[0]!;
    const valid1 = this.words > 1 ? this.valid[1]! : 0;
    const open0 = ~this.blocked[0]!;
    const open1 = this.words > 1 ? ~this.blocked[1]! : 0;
    costs[start] = 0;
    let seen0 = start < 32 ? 1 << start : 0;
    let seen1 = start < 32 ? 0 : 1 << (start - 32);
    levels[0] = seen0;
    levels[1] = seen1;
    let lastFound = 0;
    for (let k = 1; k <= budget && k - lastFound <= MAX_STEP; k++) {
      let found0 = 0;
      let found1 = 0;
      for (let s = 0; s < steps.length; s++) {
        const step = steps[s]!;
        const from = k - step;
        if (from < 0) break;
        const l0 = levels[2 * from]!;
        const l1 = levels[2 * from + 1]!;
        if ((l0 | l1) === 0) continue;
        // A cell's right-hand neighbour is one bit up, its lower neighbour `width` bits up.
        const right0 = (l0 << 1) & first0;
        const right1 = ((l1 << 1) | (l0 >>> 31)) & first1;
        const left0 = ((l0 >>> 1) | (l1 << 31)) & last0;
        const left1 = (l1 >>> 1) & last1;
        const down0 = l0 << width;
        const down1 = (l1 << width) | (l0 >>> back);
        const up0 = (l0 >>> width) | (l1 << back);
        const up1 = l1 >>> width;
        found0 |= (right0 | left0 | down0 | up0) & valid0 & stepMasks[2 * step]!;
        found1 |= (right1 | left1 | down1 | up1) & valid1 & stepMasks[2 * step + 1]!;
      }
      const fresh0 = found0 & open0 & ~seen0;
      const fresh1 = found1 & open1 & ~seen1;
      levels[2 * k] = fresh0;
      levels[2 * k + 1] = fresh1;
      if ((fresh0 | fresh1) === 0) continue;
      lastFound = k;
      seen0 |= fresh0;
      seen1 |= fresh1;
      // Each cell first reached now costs k.
      let bits = fresh0;
      while (bits !== 0) {
        const low = bits & -bits;
        costs[31 - Math.clz32(low)] = k;
        bits ^= low;
      }
      bits = fresh1;
      while (bits !== 0) {
        const low = bits & -bits;
        costs[63 - Math.clz32(low)] = k;
        bits ^= low;
      }
    }
    this.seen[0] = seen0;
    if (this.words > 1) this.seen[1] = seen1;
  }

  /**
   * The cells next to those of level `at` (levels[at..at+words]) into `out`; false when that
   * level is empty.
   */
  private expand(levels: Int32Array, at: number, out: Int32Array): boolean {
    const { words, width, notFirst, notLast, valid } = this;
    let any = 0;
    for (let w = 0; w < words; w++) any |= levels[at + w]!;
    if (any === 0) return false;
    const back = 32 - width;
    for (let w = 0; w < words; w++) {
      const here = levels[at + w]!;
      const below = w > 0 ? levels[at + w - 1]! : 0;
      const above = w + 1 < words ? levels[at + w + 1]! : 0;
      // A cell's right-hand neighbour is one bit up, its lower neighbour `width` bits up.
      const right = ((here << 1) | (below >>> 31)) & notFirst[w]!;
      const left = ((here >>> 1) | (above << 31)) & notLast[w]!;
      const down = (here << width) | (below >>> back);
      const up = (here >>> width) | (above << back);
      out[w] = (right | left | down | up) & valid[w]!;
    }
    return true;
  }
}
