/** "There are eight different elemental types in ZODIAC." */
export const ELEMENTS = [
  'earth',
  'fire',
  'water',
  'wind',
  'ice',
  'lightning',
  'holy',
  'shadow',
] as const;
export type Element = (typeof ELEMENTS)[number];

/** "There are five levels of elemental affinities." */
export const AFFINITIES = [
  'weakness',
  'resistance',
  'immunity',
  'lesser-absorbency',
  'greater-absorbency',
] as const;
export type Affinity = (typeof AFFINITIES)[number];

export const AFFINITY_NAMES: Readonly<Record<Affinity, string>> = {
  weakness: 'Weakness',
  resistance: 'Resistance',
  immunity: 'Immunity',
  'lesser-absorbency': 'Lesser Absorbency',
  'greater-absorbency': 'Greater Absorbency',
};

export const ELEMENT_NAMES: Readonly<Record<Element, string>> = {
  earth: 'Earth',
  fire: 'Fire',
  water: 'Water',
  wind: 'Wind',
  ice: 'Ice',
  lightning: 'Lightning',
  holy: 'Holy',
  shadow: 'Shadow',
};
