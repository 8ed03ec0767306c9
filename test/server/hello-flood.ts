import { WebSocket } from 'ws';

/**
 * A flood of catch-ups from its own process, so that what the flooding clients spend (framing,
 * receiving megabytes) is not charged to the server's event loop the test times. Arguments: a
 * socket URL, how many sockets, for how long (ms). Prints `ready` once every socket is
 * welcomed, floods when it reads a line, then prints what it got as one JSON line.
 */

const [url, count, durationMs] = [
  process.argv[2]!,
  Number(process.argv[3]),
  Number(process.argv[4]),
];
const BURST = 20;
const PER_SECOND = 19;

let bytes = 0;
let entryMessages = 0;
let refusals = 0;

const sockets = await Promise.all(
  Array.from(
    { length: count },
    () =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(url);
        socket.on('message', (data: Buffer) => {
          bytes += data.length;
          const head = data.subarray(0, 20).toString();
          if (head.startsWith('{"type":"entries"')) entryMessages++;
          else if (head.startsWith('{"type":"refused"')) refusals++;
        });
        socket.once('message', () => resolve(socket));
        socket.once('error', reject);
      }),
  ),
);
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));

const hello = JSON.stringify({ type: 'hello', since: 0 });
const start = Date.now();
let sent = 0;
while (Date.now() - start < durationMs) {
  const due = BURST + ((Date.now() - start) / 1000) * PER_SECOND;
  for (; sent < due; sent++) for (const socket of sockets) socket.send(hello);
  await new Promise((resolve) => setTimeout(resolve, 20));
}
await new Promise((resolve) => setTimeout(resolve, 500));
const seconds = (Date.now() - start) / 1000;
process.stdout.write(
  `${JSON.stringify({ hellos: sent * sockets.length, seconds, bytes, entryMessages, refusals })}\n`,
);
for (const socket of sockets) socket.close();
process.exit(0);
