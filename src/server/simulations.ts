import type { SimRun } from '../sim/sim.js';

/**
 * The server's simulation threads, shared by every table's balance runs. Battles run only on
 * worker threads, never on the event loop that answers sockets; the threads are counted here so
 * that all of them together leave the event loop a core, and so that one table runs one
 * simulation at a time.
 */

export interface SimulationLimits {
  /** Worker threads simulating at once on this server, every run together. */
  readonly threads: number;
  /** Worker threads one run may take (fewer when fewer are free). */
  readonly threadsPerRun: number;
  /** Runs at once per table. */
  readonly runsPerTable: number;
}

export type Refusal = { readonly code: 'balance/busy'; readonly message: string };

/** Threads held for one run until its workers have exited; release() is idempotent. */
export interface Lease {
  readonly threads: number;
  /** The run's worker threads, once started: counted in live() and cancelled by cancelAll(). */
  attach(run: SimRun, cancel: () => Promise<void>): void;
  release(): void;
}

export class Simulations {
  private held = 0;
  private readonly perTable = new Map<string, number>();
  private readonly runs = new Map<SimRun, () => Promise<void>>();
  /** Milliseconds from a stream's close to its run's last worker exit, the latest cancel's. */
  lastCancelMs: number | undefined;

  constructor(readonly limits: SimulationLimits) {}

  /** Threads for a run of `tableId`, or why it must wait: this table's run, or others'. */
  reserve(tableId: string): { ok: true; lease: Lease } | { ok: false; refusal: Refusal } {
    if ((this.perTable.get(tableId) ?? 0) >= this.limits.runsPerTable) {
      return {
        ok: false,
        refusal: {
          code: 'balance/busy',
          message: 'this table is already running a simulation: cancel it or wait for its report',
        },
      };
    }
    const free = this.limits.threads - this.held;
    if (free <= 0) {
      return {
        ok: false,
        refusal: {
          code: 'balance/busy',
          message: "the server's simulation threads are all taken by other tables: try again soon",
        },
      };
    }
    const threads = Math.min(free, this.limits.threadsPerRun);
    this.held += threads;
    this.perTable.set(tableId, (this.perTable.get(tableId) ?? 0) + 1);
    let attached: SimRun | undefined;
    let released = false;
    return {
      ok: true,
      lease: {
        threads,
        attach: (run, cancel) => {
          attached = run;
          this.runs.set(run, cancel);
        },
        release: () => {
          if (released) return;
          released = true;
          this.held -= threads;
          const left = (this.perTable.get(tableId) ?? 1) - 1;
          if (left === 0) this.perTable.delete(tableId);
          else this.perTable.set(tableId, left);
          if (attached !== undefined) this.runs.delete(attached);
        },
      },
    };
  }

  /** Simulation worker threads alive now, every run together. */
  live(): number {
    let threads = 0;
    for (const run of this.runs.keys()) threads += run.threads();
    return threads;
  }

  /** Runs under way (their threads leased), every table together. */
  running(): number {
    return this.runs.size;
  }

  /** Cancels every run (the server is stopping); resolves once their threads are gone. */
  async cancelAll(): Promise<void> {
    await Promise.all([...this.runs.values()].map((cancel) => cancel()));
  }
}
