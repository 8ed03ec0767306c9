import { mkdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

/** Where autosaves go when `--autosave` names no file: MOOGLE_SAVES_DIR, or ./moogle-saves. */
export function savesFolder(env: NodeJS.ProcessEnv = process.env): string {
  return env.MOOGLE_SAVES_DIR !== undefined && env.MOOGLE_SAVES_DIR !== ''
    ? env.MOOGLE_SAVES_DIR
    : 'moogle-saves';
}

/**
 * A new autosave file for an encounter file, named for it and the time the battle started
 * (`wind-cave-2026-11-30-1532.json`), numbered past any that exist.
 */
export function newAutosavePath(
  encounterFile: string,
  now: Date,
  exists: (path: string) => boolean,
  folder = savesFolder(),
): string {
  mkdirSync(folder, { recursive: true });
  const stem = basename(encounterFile, extname(encounterFile)).replace(/[^A-Za-z0-9_-]+/g, '-');
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  for (let n = 1; ; n++) {
    const path = join(folder, `${stem}-${stamp}${n === 1 ? '' : `-${n}`}.json`);
    if (!exists(path)) return path;
  }
}
