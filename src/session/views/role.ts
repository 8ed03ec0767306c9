/** Who a client speaks for: the GM, the player of one character, or a spectator. */
export type Role =
  | { readonly role: 'gm' }
  | { readonly role: 'player'; readonly characterId: string }
  | { readonly role: 'spectator' };
