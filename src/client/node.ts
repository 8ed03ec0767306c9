/**
 * `moogle/client` in Node: the same client, with the `ws` package's WebSocket (Node 20 has no
 * global one). The browser's entry (index.ts) never imports this file, so no bundle holds `ws`.
 */
import { WebSocket } from 'ws';
import { type ClientOptions, EncounterClient, type WebSocketConstructor } from './index.js';

export * from './index.js';

/** A client of one encounter, connecting now over `ws`. */
export function connect(options: ClientOptions): EncounterClient {
  return new EncounterClient({
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    ...options,
  }).start();
}
