import { err, ok, type Result } from '../../engine/index.js';
import type { Store } from '../../store/index.js';
import {
  hashSecret,
  newOwnerToken,
  ownerTokenMatches,
  ownerTokenShape,
} from '../../store/tokens.js';

/**
 * The owner credential: whoever holds it runs every table of the store over the lobby API (a
 * hosted service, a bot). `moogle serve` makes one on its first start and prints it once, or is
 * given one (`--owner-token-file`, `MOOGLE_OWNER_TOKEN`), which replaces what was kept. Only its
 * SHA-256 is stored, as a link's secret is.
 *
 * Resolves with the credential when this call made it (to be shown once), else undefined.
 */
export async function ensureOwnerToken(
  store: Store,
  given?: string,
): Promise<Result<string | undefined>> {
  if (given !== undefined) {
    if (!ownerTokenShape(given)) {
      return err(
        'owner/invalid',
        'an owner token is 32 to 200 characters of letters, digits and . _ ~ + / = -',
      );
    }
    await store.setOwnerHash(hashSecret(given), true);
    return ok(undefined);
  }
  if ((await store.ownerHash()) !== undefined) return ok(undefined);
  const made = newOwnerToken();
  // Another process starting on the same database at once may win: then its token stands.
  return ok((await store.setOwnerHash(hashSecret(made), false)) ? made : undefined);
}

/** Whether `token` is the store's owner credential: one read by primary key. */
export async function isOwner(store: Store, token: string): Promise<boolean> {
  const hash = await store.ownerHash();
  return hash !== undefined && ownerTokenMatches(token, hash);
}
