/**
 * The battles of one run, handed out in chunks through shared memory. Every thread (the main
 * one and each worker) claims the next chunk when it finishes one, so a worker that starts late
 * or a core that runs slow never leaves the others waiting at the end. Battle i is always played
 * with the seeds of battle i, so who plays it does not change the result.
 */

/** Small enough that the main thread answers Ctrl-C and draws progress between chunks. */
export const CHUNK_BATTLES = 250;
/**
 * Chunks shrink toward the end of a run, to an eighth of what is left but never below this:
 * the threads then finish together instead of one playing a whole last chunk alone (a quarter
 * of a second of Shining Force) while the others wait.
 */
export const LAST_CHUNK_BATTLES = 16;

const STOP = 0;
const NEXT = 1;
const DONE = 2;

export class WorkQueue {
  private readonly slots: Int32Array;

  constructor(
    readonly shared: SharedArrayBuffer,
    readonly battles: number,
  ) {
    this.slots = new Int32Array(shared);
  }

  static create(battles: number): WorkQueue {
    return new WorkQueue(new SharedArrayBuffer(4 * 3), battles);
  }

  /** The next battles to play, or undefined when none are left or the run was stopped. */
  claim(): { from: number; to: number } | undefined {
    if (this.stopped()) return undefined;
    for (;;) {
      const from = Atomics.load(this.slots, NEXT);
      if (from >= this.battles) return undefined;
      const size = Math.min(
        CHUNK_BATTLES,
        Math.max(LAST_CHUNK_BATTLES, Math.ceil((this.battles - from) / 8)),
      );
      const to = Math.min(this.battles, from + size);
      // Another thread may have claimed since the load: then try again from where it left off.
      if (Atomics.compareExchange(this.slots, NEXT, from, to) === from) return { from, to };
    }
  }

  finished(battles: number): void {
    Atomics.add(this.slots, DONE, battles);
  }

  done(): number {
    return Atomics.load(this.slots, DONE);
  }

  stop(): void {
    Atomics.store(this.slots, STOP, 1);
  }

  stopped(): boolean {
    return Atomics.load(this.slots, STOP) !== 0;
  }
}
