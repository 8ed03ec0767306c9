/**
 * The socket a client talks over, and where it connects: as little of the WebSocket interface
 * as the client uses, so the browser's and the `ws` package's (in Node) both fit.
 */

export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: never) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onclose: ((event: never) => void) | null;
  onerror: ((event: never) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * Where to connect, asked again before every (re)connect:
 * - `token`: a link's token (a bot's, or a table link's), sent in the socket's address;
 * - `ticket`: a provider of a short-lived ticket (the web tracker's, from its session);
 * - `url`: a provider of the whole socket address, for anything else.
 * `server` is the table server's address (`https://table.example`); in a browser, the page's
 * own unless given. A provider that fails is asked again after the backoff, but one whose error
 * has `code` `auth/revoked` or `auth/invalid` (the link revoked, the session ended) ends the
 * client with that error as `fatal`.
 */
export type SocketOptions =
  | {
      readonly url: () => string | Promise<string>;
    }
  | {
      readonly server?: string;
      readonly encounter: string;
      readonly token: string;
    }
  | {
      readonly server?: string;
      readonly encounter: string;
      readonly ticket: () => string | Promise<string>;
    };

/** The live socket's address of an encounter on a server, with the link's token or a ticket. */
export async function socketUrl(options: SocketOptions): Promise<string> {
  if ('url' in options) return options.url();
  const page = (globalThis as { location?: { readonly protocol: string; readonly host: string } })
    .location;
  const server =
    options.server ?? (page === undefined ? undefined : `${page.protocol}//${page.host}`);
  if (server === undefined) throw new Error('no server to connect to: give `server`');
  const base = server.replace(/^http/, 'ws').replace(/\/+$/, '');
  const credential =
    'token' in options
      ? `token=${encodeURIComponent(options.token)}`
      : `ticket=${encodeURIComponent(await options.ticket())}`;
  return `${base}/api/encounters/${encodeURIComponent(options.encounter)}/live?${credential}`;
}
