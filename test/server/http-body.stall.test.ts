import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/server/limits.js';
import { freshLocation, type Location, open } from '../store/fixtures.js';
import {
  Client,
  example,
  newTable,
  type ServeProcess,
  spawnServe,
  startEncounterOver,
} from './harness.js';
import { probePings } from './ping-probe.js';

interface Answer {
  readonly status: number;
  readonly code: string | undefined;
  /** From the first byte sent to the last byte of the answer. */
  readonly ms: number;
}

/**
 * The attacker, in a process of its own: building and sending megabytes of body is work for
 * the sender's event loop, and in the prober's process it would be timed as the server's stall.
 */
const ATTACKER = `
const [url, token, hugeBytes] = process.argv.slice(1);
const deep = '{"file":' + '['.repeat(400000) + ']'.repeat(400000) + '}';
const huge = JSON.stringify({ file: 'x'.repeat(Number(hugeBytes)) });
const post = async (body) => {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
    body,
  });
  const answer = await response.json();
  return { status: response.status, code: answer.error?.code, ms: performance.now() - started };
};
const pause = () => new Promise((resolve) => setTimeout(resolve, 200));
const deepAnswers = [];
const hugeAnswers = [];
for (let i = 0; i < 10; i++) {
  deepAnswers.push(await post(deep));
  await pause();
  hugeAnswers.push(await post(huge));
  await pause();
}
process.stdout.write(JSON.stringify({ deepAnswers, hugeAnswers }));
`;

/** A POST with a raw body, from this process (where no timing is measured around it). */
async function post(url: string, token: string, body: string): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  const answer = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: answer.error?.code, ms: performance.now() - started };
}

function attack(
  url: string,
  token: string,
): Promise<{ deepAnswers: Answer[]; hugeAnswers: Answer[] }> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', ATTACKER, url, token, String(SERVER_LIMITS.httpBodyBytes + 1)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the attacker exited ${code}`)),
    );
  });
}

describe('bodies and messages a client controls', () => {
  let location: Location;
  let serve: ServeProcess;
  let gmToken: string;
  let other: Client;
  let encounterId: string;
  beforeAll(async () => {
    location = await freshLocation('sqlite');
    const store = await open(location.location);
    gmToken = (await newTable(store, 'ffrpg')).gmToken;
    const elsewhere = await newTable(store, 'ffrpg');
    await store.close();
    serve = await spawnServe(location.location, ['--no-demo']);
    // Another table's GM, watching its own fight while the bodies arrive.
    encounterId = await startEncounterOver(
      serve.url,
      elsewhere.gmToken,
      example('ffrpg-wind-cave'),
    );
    other = (await Client.join(serve.url, encounterId, elsewhere.gmToken)).client;
  });
  afterAll(async () => {
    other?.close();
    serve?.child.kill('SIGTERM');
    await new Promise((resolve) => serve?.child.once('exit', resolve));
    await location?.dispose();
  });

  it('refuses a body nested 400,000 deep, and one over 2 MiB, at once, while other tables play', async () => {
    // 50 ms apart over about 5 s: over 100 pings, so the p99 is not just the one worst.
    const probe = probePings(other, 50);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { deepAnswers, hugeAnswers } = await attack(`${serve.url}/api/table/encounters`, gmToken);
    const pings = await probe.stop();
    const ms = (answers: { ms: number }[]) => answers.map((a) => a.ms.toFixed(0)).join(', ');
    console.log(
      `400,000 deep: ${ms(deepAnswers)} ms; 2 MiB + 1: ${ms(hugeAnswers)} ms; another table's pings p50 ${pings.p50.toFixed(1)}, p99 ${pings.p99.toFixed(1)} ms (${pings.count})`,
    );
    // Before the depth check, each deep body took 0.2 to 1.4 s here (median 0.4 s), the loop
    // blocked meanwhile: another table's pings had a p99 over a second. Now tens of
    // milliseconds, most of it sending 800 KB.
    const median = (answers: { ms: number }[]) =>
      answers.map((a) => a.ms).sort((a, b) => a - b)[Math.floor(answers.length / 2)]!;
    for (const answer of deepAnswers) {
      expect(answer).toMatchObject({ status: 400, code: 'http/too-deep' });
      expect(answer.ms).toBeLessThan(1000);
    }
    for (const answer of hugeAnswers) {
      expect(answer).toMatchObject({ status: 413, code: 'http/body-too-large' });
      expect(answer.ms).toBeLessThan(1000);
    }
    expect(median(deepAnswers)).toBeLessThan(250);
    expect(median(hugeAnswers)).toBeLessThan(250);
    expect(pings.unanswered).toBe(0);
    expect(pings.p99).toBeLessThan(50);
  });

  it('takes a body 64 deep, and refuses 65, strings with brackets and escapes counted right', async () => {
    const nested = (depth: number, inner = '1') =>
      `{"role":"spectator","x":${'['.repeat(depth - 1)}${inner}${']'.repeat(depth - 1)}}`;
    const url = `${serve.url}/api/table/invites`;
    expect(await post(url, gmToken, nested(SERVER_LIMITS.jsonDepth))).toMatchObject({
      status: 201,
    });
    expect(await post(url, gmToken, nested(SERVER_LIMITS.jsonDepth + 1))).toMatchObject({
      status: 400,
      code: 'http/too-deep',
    });
    // Brackets in strings are text, and an escaped quote does not end one.
    const inString = `"[[[[\\"{{{{\\\\"`;
    expect(
      await post(url, gmToken, nested(SERVER_LIMITS.jsonDepth, `[${inString}]`.slice(1, -1))),
    ).toMatchObject({ status: 201 });
  });

  it('refuses a WebSocket message nested deeper than 64 before parsing it', async () => {
    const deep = `{"type":"ping","x":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    other.socket.send(deep);
    const refused = await other.next('refused');
    expect(refused).toMatchObject({ code: 'message/invalid' });
    expect(refused.message).toMatch(/at most 64/);
    other.send({ type: 'ping' });
    await other.next('pong');
  });
});
