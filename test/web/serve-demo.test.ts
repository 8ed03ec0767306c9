import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { http, type ServeProcess, spawnServe } from '../server/harness.js';

/** `moogle serve` on an empty store: a demo table per system, their GM links printed. */
describe('moogle serve on an empty store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'moogle-demo-'));
  let serve: ServeProcess | undefined;
  afterAll(() => {
    serve?.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts a demo table per system with its example fight, and prints their links', async () => {
    serve = await spawnServe(join(dir, 'demo.db'));
    await expect.poll(() => (serve!.stderr().match(/\/t\//g) ?? []).length).toBe(4);
    const lines = serve.stderr().trim().split('\n');
    expect(lines[0]).toMatch(/^Moogle is serving on http:\/\/\S+ \(sqlite\); demo tables/);
    const links = lines.slice(1, 5).map((l) => /^ {2}(\S+): (http\S+\/t\/(\S+))$/.exec(l));
    expect(links.map((m) => m?.[1])).toEqual(['ffrpg', 'ffviii', 'zodiac', 'shining-force']);
    for (const match of links) {
      const [, system, link, token] = match!;
      const page = await fetch(link!);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      const table = await http<{
        table: { systemId: string };
        role: { role: string };
        roster: { character: string }[];
        encounters: { status: string }[];
      }>(`${serve.url}/api/table`, token, 'GET');
      expect(table.body.table.systemId).toBe(system);
      expect(table.body.role.role).toBe('gm');
      expect(table.body.encounters.map((e) => e.status)).toEqual(['active']);
      expect(table.body.roster.filter((r) => !r.character.startsWith('@')).length).toBeGreaterThan(
        0,
      );
    }
    // The page's scripts are served from the package, hashed and cached for good.
    const html = await (await fetch(links[0]![2]!)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${serve.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('adds no demo tables once the store has tables', async () => {
    // Killed outright: a graceful stop waits on the test's kept-alive HTTP connections.
    const exited = new Promise((resolve) => serve!.child.once('exit', resolve));
    serve?.child.kill('SIGKILL');
    await exited;
    serve = await spawnServe(join(dir, 'demo.db'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(serve.stderr()).not.toContain('/t/');
  });
});
