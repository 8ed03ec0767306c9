/**
 * Appends entries to one encounter as fast as it can, printing `accepted <seq>` for each only
 * after `appendEntry` resolved ok (committed). The kill test SIGKILLs it at chosen moments.
 * Usage (bundled by the test, or with --import tsx): node append-child.ts <location> <encounterId> <firstSeq>
 */
import { openStore } from '../../src/store/index.js';

const [location, encounterId, first] = process.argv.slice(2);
const opened = await openStore(location!);
if (!opened.ok) {
  process.stderr.write(`${opened.error.message}\n`);
  process.exit(2);
}
const store = opened.value;
process.stdout.write('ready\n');
for (let seq = Number(first); ; seq++) {
  const result = await store.appendEntry(encounterId!, seq, `key-${seq}`, {
    seq,
    type: 'undo',
    steps: 1,
  });
  if (!result.ok || result.duplicate) {
    process.stderr.write(`append ${seq}: ${JSON.stringify(result)}\n`);
    process.exit(1);
  }
  // Synchronous on a pipe on Linux: when this returns, the parent can read the line.
  process.stdout.write(`accepted ${seq}\n`);
}
