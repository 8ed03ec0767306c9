import { describe, expect, it } from 'vitest';
import { newToken, splitToken } from '../../src/store/tokens.js';

describe('link tokens', () => {
  it('never make an id that a command line reads as an option (one in 64 began with -)', () => {
    const ids = Array.from({ length: 10_000 }, () => newToken().tokenId);
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('split back into the id and the secret they were made of', () => {
    const made = newToken();
    expect(splitToken(made.token)).toEqual({
      tokenId: made.tokenId,
      secret: made.token.slice(made.tokenId.length + 1),
    });
  });
});
