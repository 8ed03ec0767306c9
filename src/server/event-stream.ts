import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Takes the reply over as a server-sent event stream (the balance run's and the tune's
 * progress): the headers that keep proxies from buffering it, and `event`, which writes one
 * event unless the client has gone.
 */
export function openEventStream(reply: FastifyReply): {
  readonly out: ServerResponse;
  readonly event: (name: string, data: unknown) => void;
} {
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const event = (name: string, data: unknown): void => {
    if (!out.writableEnded && !out.destroyed) {
      out.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    }
  };
  return { out, event };
}
