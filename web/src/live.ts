import {
  type ClientMessage,
  type ClientSnapshot,
  type Connection,
  EncounterClient,
  type Refusal,
  type Rolled,
  type SubmitAction,
} from '../../src/client/index.js';

/**
 * One screen's live encounter: the package's client (src/client, `moogle/client`), which says
 * hello, follows the patches, reconnects and keeps the submits; this adapter gives the screens
 * its snapshot and the calls they make, in their words.
 */

export type { Connection, Refusal, Rolled };

/** What a screen draws: the client's snapshot, as it is. */
export type LiveSnapshot = ClientSnapshot;

export class LiveEncounter {
  private readonly client: EncounterClient;

  /** `socketUrl`: the live socket's address, asked again before every (re)connect. */
  constructor(socketUrl: () => string | Promise<string>) {
    this.client = new EncounterClient({ url: socketUrl });
  }

  get snapshot(): LiveSnapshot {
    return this.client.snapshot;
  }

  subscribe(listener: (s: LiveSnapshot) => void): () => void {
    return this.client.subscribe(listener);
  }

  start(): void {
    this.client.start();
  }

  stop(): void {
    this.client.close();
  }

  /**
   * Submits against the state this screen shows: if the encounter moved on meanwhile (another
   * screen acted, or this one was offline), the server refuses it as stale and says why.
   */
  submit(
    action: SubmitAction,
    what: string,
    dice?: Extract<ClientMessage, { type: 'submit' }>['dice'],
  ): void {
    if (this.client.snapshot.state === null) return;
    void this.client.submit(action, { what, ...(dice === undefined ? {} : { dice }) });
  }

  roll(notation: string, secret: boolean, label?: string): void {
    this.client.roll(notation, secret, label);
  }

  reveal(combatant: string, revealed: boolean): void {
    this.client.reveal(combatant, revealed);
  }

  /** A player's own order roll, held by the server for the round's command; `null` takes it back. */
  hold(purpose: string, roll: Extract<ClientMessage, { type: 'hold' }>['roll']): void {
    this.client.hold(purpose, roll);
  }

  dismissRefusal(): void {
    this.client.dismissRefusal();
  }
}
