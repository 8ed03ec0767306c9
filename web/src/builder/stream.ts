/**
 * A POST answered with server-sent events (the tune and predict routes): an `EventSource`
 * only GETs, so the response is read here. Aborting the signal closes the response, which is
 * the server's cancel.
 */
import { type Api, ApiError } from '../api.js';

export async function postEvents(
  api: Api,
  path: string,
  body: unknown,
  signal: AbortSignal,
  onEvent: (event: string, data: Record<string, unknown>) => void,
): Promise<void> {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    signal,
    headers: {
      'x-moogle-table': encodeURIComponent(api.tableId),
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  if (!response.ok || response.body === null) {
    const data = (await response.json().catch(() => ({}))) as {
      error?: { code: string; message: string };
    };
    throw new ApiError(
      response.status,
      data.error?.code ?? `http/${response.status}`,
      data.error?.message ?? response.statusText,
    );
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>;
      onEvent(event, data);
    }
  }
}
