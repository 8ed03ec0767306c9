/**
 * One of two processes appending to the same encounter at once: it appends `count` entries,
 * each as the number after the last it knows, taking the current number from every `stale`
 * answer. Prints `accepted <seq>` for each of its own, then `stale <n>` (how often it lost).
 * Usage (bundled by the test, or with --import tsx): node race-child.ts <location> <encounterId> <name> <count>
 */
import { openStore } from '../../src/store/index.js';

const [location, encounterId, name, count] = process.argv.slice(2);
const opened = await openStore(location!);
if (!opened.ok) {
  process.stderr.write(`${opened.error.message}\n`);
  process.exit(2);
}
const store = opened.value;
let stale = 0;
let next = (await store.lastSeq(encounterId!)) + 1;
for (let mine = 0; mine < Number(count); ) {
  const key = `${name}-${mine}`;
  const result = await store.appendEntry(encounterId!, next, key, {
    seq: next,
    type: 'undo',
    steps: 1,
  });
  if (result.ok && !result.duplicate) {
    process.stdout.write(`accepted ${result.seq}\n`);
    mine++;
    next = result.seq + 1;
  } else if (!result.ok && result.code === 'stale') {
    stale++;
    next = result.current + 1;
  } else {
    process.stderr.write(`unexpected: ${JSON.stringify(result)}\n`);
    process.exit(1);
  }
}
process.stdout.write(`stale ${stale}\n`);
await store.close();
