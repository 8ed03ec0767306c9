/**
 * The players' side of an encounter, whose fate the report spells out (anyone knocked out, the
 * whole party, resources left). FFRPG and ZODIAC mark it `party: true` and Shining Force
 * `force: true` in the setup; FFVIII's sides carry no such flag, so there it is the first side,
 * which is where its encounters (and its book's examples) put the player characters.
 */
export interface PlayersSide {
  readonly id: string;
  /** True when the setup marks the side; false when it is the first side by default. */
  readonly marked: boolean;
}

function isMarked(side: unknown): side is { id: string } {
  if (typeof side !== 'object' || side === null) return false;
  const { id, party, force } = side as { id?: unknown; party?: unknown; force?: unknown };
  return typeof id === 'string' && (party === true || force === true);
}

export function playersSide(
  setup: unknown,
  sides: readonly { readonly id: string }[],
): PlayersSide | undefined {
  const declared =
    typeof setup === 'object' && setup !== null ? (setup as { sides?: unknown }).sides : undefined;
  if (Array.isArray(declared)) {
    for (const side of declared as unknown[]) {
      if (isMarked(side) && sides.some((s) => s.id === side.id))
        return { id: side.id, marked: true };
    }
  }
  const first = sides[0];
  return first === undefined ? undefined : { id: first.id, marked: false };
}
