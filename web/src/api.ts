/** The table server's HTTP API, with the token of the page's link. */

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

/** The token of a table link `/t/<token>`; undefined on any other address. */
export function tokenFromPath(path: string): string | undefined {
  const match = /^\/t\/([^/?#]+)/.exec(path);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

export function makeApi(token: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
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
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
    put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
    delete: <T>(path: string) => call<T>('DELETE', path),
    /** The live socket of an encounter, on the page's own host. */
    socketUrl(encounterId: string): string {
      const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      return `${scheme}//${location.host}/api/encounters/${encodeURIComponent(encounterId)}/live?token=${encodeURIComponent(token)}`;
    },
    eventsUrl(path: string): string {
      return `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
    },
  };
}

export type Api = ReturnType<typeof makeApi>;
