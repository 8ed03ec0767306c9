/** Where a command writes; tests pass their own to capture output without spawning a process. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Where an interactive command (battle) reads its lines; process.stdin when absent. */
  readonly input?: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /** Writes without a newline, for a prompt a person types after; only used at a terminal. */
  write?(text: string): void;
}

export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  write: (text) => process.stdout.write(text),
};

/** `moogle odds 100d10 | head` closes the pipe early: that is the reader's choice, not a failure. */
export function exitQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
