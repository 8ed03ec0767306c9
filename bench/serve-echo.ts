/**
 * The floor of `npm run bench:serve`: a bare WebSocket broadcast echo (the `ws` package, nothing
 * else) in a process of its own. A socket joins the room named by its path (`/t/<table>`); each
 * message is relayed as it came to every socket of the room, the sender's own copy standing for
 * its acknowledgement. No parsing, no store, no views: what a relay costs on this machine, against
 * which the table server's figures are read.
 */
import { type WebSocket, WebSocketServer } from 'ws';

const rooms = new Map<string, Set<WebSocket>>();
const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });

server.on('connection', (socket, request) => {
  const name = request.url ?? '/';
  let room = rooms.get(name);
  if (room === undefined) {
    room = new Set();
    rooms.set(name, room);
  }
  const members = room;
  members.add(socket);
  socket.on('message', (data, isBinary) => {
    for (const member of members) member.send(data, { binary: isBinary });
  });
  socket.on('close', () => {
    members.delete(socket);
    if (members.size === 0) rooms.delete(name);
  });
});

server.on('listening', () => {
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error(`unexpected address ${address}`);
  process.stderr.write(`serving on http://127.0.0.1:${address.port}\n`);
});

process.on('SIGTERM', () => {
  server.close();
  process.exit(0);
});
