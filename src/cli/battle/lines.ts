import { createInterface, type Interface } from 'node:readline';
import type { Io } from '../io.js';

/**
 * Lines typed at a terminal or piped from a script, one at a time, each after a prompt. At a
 * terminal the prompt is written for the person to type after; from a script the prompt and
 * the line read are printed together, so the output reads like the session it replays.
 */
export class LineReader {
  private readonly readline: Interface;
  private readonly lines: AsyncIterator<string>;
  /** How many lines have been read: what a script's error points at. */
  lineNumber = 0;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly io: Io,
    readonly interactive: boolean,
  ) {
    // terminal: false: a terminal in cooked mode already echoes and edits the line.
    this.readline = createInterface({
      input,
      terminal: false,
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    // Made now, not on first use: the iterator buffers lines that arrive before they are asked for.
    this.lines = this.readline[Symbol.asyncIterator]();
  }

  /** The next line, trimmed, or undefined at the end of the input. */
  async ask(prompt: string): Promise<string | undefined> {
    if (this.interactive) this.io.write?.(prompt);
    const next = await this.lines.next();
    if (next.done === true) return undefined;
    this.lineNumber++;
    const line = next.value.trim();
    if (!this.interactive) this.io.out(`${prompt}${line}`);
    return line;
  }

  close(): void {
    this.readline.close();
  }
}
