/**
 * The nine Combat Elements. The text spells the list two ways ("Earth, Fire, Air, Water,
 * Lightning, Ice, Bio, Holy, and Shadow" in Damage Types; "Fire, Water, Wind, Earth, Ice,
 * Lightning, Poison, Holy and Shadow" in the glossary): Moogle uses the first and reads Wind as
 * Air and Poison as Bio (docs/rulings.md).
 */
export const ELEMENTS = [
  'earth',
  'fire',
  'air',
  'water',
  'lightning',
  'ice',
  'bio',
  'holy',
  'shadow',
] as const;
export type Element = (typeof ELEMENTS)[number];

export const ELEMENT_ALIASES: Readonly<Record<string, Element>> = { wind: 'air', poison: 'bio' };

/** Reads an element name in either of the text's spellings, any case. */
export function parseElement(name: string): Element | undefined {
  const key = name.trim().toLowerCase();
  return (ELEMENTS as readonly string[]).includes(key) ? (key as Element) : ELEMENT_ALIASES[key];
}

export const AFFINITIES = ['weakness', 'resistance', 'immunity', 'absorbance'] as const;
export type Affinity = (typeof AFFINITIES)[number];
