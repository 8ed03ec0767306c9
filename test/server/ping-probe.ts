import type { Client } from './harness.js';

/**
 * Another table's view of the server while something heavy runs: a socket that sends `ping` on
 * a fixed schedule (60 ms apart by default, under the 20 a second a socket may send) and times each `pong`. Latency counts from when a ping was *due*, not when
 * it went out, so a stalled event loop (the server's, or this process's when the server runs
 * in it) shows as the stall it is instead of hiding the pings it delayed.
 */
export interface PingReport {
  readonly count: number;
  /** Pings due but never answered by the time the probe stopped. */
  readonly unanswered: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface PingProbe {
  /** Stops pinging, waits up to `graceMs` for answers to pings already sent, reports. */
  stop(graceMs?: number): Promise<PingReport>;
}

export function probePings(client: Client, intervalMs = 60): PingProbe {
  const due: number[] = [];
  const latencies: number[] = [];
  const start = performance.now();
  let sent = 0;
  let answered = 0;
  let stopped = false;
  const onMessage = (data: unknown): void => {
    const text = String(data);
    if (!text.startsWith('{"type":"pong"')) return;
    const when = due[answered++];
    if (when !== undefined) latencies.push(performance.now() - when);
  };
  client.socket.on('message', onMessage);
  const tick = (): void => {
    if (stopped) return;
    const now = performance.now();
    // Every ping whose time has come goes out now, each timed from its own due time.
    while (start + sent * intervalMs <= now) {
      due.push(start + sent * intervalMs);
      sent++;
      client.socket.send('{"type":"ping"}');
    }
    timer = setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()));
  };
  let timer = setTimeout(tick, 0);
  return {
    async stop(graceMs = 2_000) {
      stopped = true;
      clearTimeout(timer);
      const deadline = Date.now() + graceMs;
      while (answered < sent && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      client.socket.off('message', onMessage);
      // A ping never answered is as late as the probe waited for it.
      const end = performance.now();
      for (let i = answered; i < sent; i++) latencies.push(end - due[i]!);
      return summarize(latencies, sent - answered);
    },
  };
}

function summarize(latencies: number[], unanswered: number): PingReport {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted.length === 0
      ? 0
      : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return {
    count: sorted.length,
    unanswered,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted.at(-1) ?? 0,
  };
}
