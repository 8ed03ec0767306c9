/**
 * The table server's HTTP API, as the page at `/table/<table id>` calls it: the browser's
 * session cookie (made when the table's link was opened, and never readable here) and the
 * table named in a header. No secret is ever in this page's address or its script.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The whole `error` object the server sent: a refusal's `issues`, a conflict's referrers. */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

/** The table of a page's address `/table/<table id>`; undefined on any other address. */
export function tableFromPath(path: string): string | undefined {
  const match = /^\/table\/([^/?#]+)/.exec(path);
  if (match === null) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

export function makeApi(tableId: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        // The server takes the session's cookie only with its table named here: a header no
        // form of another site can send.
        'x-moogle-table': encodeURIComponent(tableId),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const data = (text ? JSON.parse(text) : {}) as T & {
      error?: { code: string; message: string } & Record<string, unknown>;
    };
    if (!response.ok) {
      throw new ApiError(
        response.status,
        data.error?.code ?? `http/${response.status}`,
        data.error?.message ?? response.statusText,
        data.error ?? {},
      );
    }
    return data;
  }
  return {
    tableId,
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
    put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
    delete: <T>(path: string) => call<T>('DELETE', path),
    /**
     * The live socket of an encounter, on the page's own host. Without a ticket the upgrade
     * carries the session's cookie (a page's own socket: the server checks its origin); with
     * one (`ticket()`), the ticket alone, once, within its 30 seconds.
     */
    socketUrl(encounterId: string, ticket?: string): string {
      const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      const query =
        ticket === undefined
          ? `table=${encodeURIComponent(tableId)}`
          : `ticket=${encodeURIComponent(ticket)}`;
      return `${scheme}//${location.host}/api/encounters/${encodeURIComponent(encounterId)}/live?${query}`;
    },
    /** A one-use WebSocket ticket of this page's session. */
    async ticket(): Promise<string> {
      return (await call<{ ticket: string }>('POST', '/api/session/ticket', {})).ticket;
    },
    /**
     * The address of a GET the page sends no headers with (an `EventSource`, a download link):
     * the table in the query.
     */
    eventsUrl(path: string): string {
      return `${path}${path.includes('?') ? '&' : '?'}table=${encodeURIComponent(tableId)}`;
    },
  };
}

export type Api = ReturnType<typeof makeApi>;
