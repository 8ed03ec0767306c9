// A bot at a live encounter: plays what its link is offered, at random, until the fight ends.
// node examples/bot.ts <server> <encounter> <token>   (with tsx; docs/server.md)
import { connect } from 'moogle/client';

const [server, encounter, token] = process.argv.slice(2) as [string, string, string];
const client = connect({ server, encounter, token });
let state = await client.ready();
while (state.status === 'active' && !state.outcome.over) {
  const pick = state.actions[Math.floor(Math.random() * state.actions.length)];
  if (pick !== undefined) {
    const answer = await client.submit({ kind: 'command', command: pick.command });
    console.log(answer.ok ? `#${answer.seq} ${pick.label}` : `refused: ${answer.message}`);
    if (answer.ok) {
      state = client.state!;
      continue;
    }
  }
  // Not this link's turn, or another screen was first: wait for the fight to move on.
  const seen = state.seq;
  state = (await client.until((s) => s.state!.seq > seen || s.state!.status !== 'active')).state!;
}
console.log(`over: ${state.outcome.reason}`);
client.close();
