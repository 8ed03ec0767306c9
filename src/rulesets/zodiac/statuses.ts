/**
 * The chapter's Status Effects: eighteen negative (Unconscious among them) and six positive. Each
 * has a mechanic of its own, so they are code, not content; content names them by these ids.
 */

export const STATUS_IDS = [
  'berserk',
  'blind',
  'charm',
  'confusion',
  'curse',
  'death-sentence',
  'frog',
  'mini',
  'poison',
  'seal',
  'sleep',
  'slow',
  'stone',
  'stop',
  'stun',
  'unconscious',
  'venom',
  'zombie',
  'barrier',
  'haste',
  'mbarrier',
  'regen',
  'reraise',
  'wall',
] as const;
export type StatusId = (typeof STATUS_IDS)[number];

/**
 * "Temporary" wears off after the time the attack gave it, in ticks; "Permanent" lasts until
 * cured; "Special" is Stun (one turn) and, by its own wording, Death Sentence (a round count).
 * Positive effects have no duration in the text: the Tech that grants one may give ticks.
 */
export type Duration = 'temporary' | 'permanent' | 'special' | 'positive';

export interface StatusInfo {
  readonly name: string;
  readonly polarity: 'negative' | 'positive';
  readonly duration: Duration;
  /** The cure the chapter names: a Potion, "Receive Damage", or "None". */
  readonly cure: string;
  /** Needs a duration in ticks when inflicted: the Temporary effects that wear off by time. */
  readonly timed: boolean;
}

const negative = (
  name: string,
  duration: Duration,
  cure: string,
  timed = duration === 'temporary',
): StatusInfo => ({ name, polarity: 'negative', duration, cure, timed });
const positive = (name: string): StatusInfo => ({
  name,
  polarity: 'positive',
  duration: 'positive',
  cure: 'Dispel',
  timed: false,
});

export const STATUSES: Readonly<Record<StatusId, StatusInfo>> = {
  berserk: negative('Berserk', 'temporary', 'Tranquilizer'),
  blind: negative('Blind', 'permanent', 'Eye Drops'),
  charm: negative('Charm', 'temporary', 'Receive Damage'),
  confusion: negative('Confusion', 'temporary', 'Receive Damage'),
  curse: negative('Curse', 'permanent', 'Annointment'),
  // "until the end of the next combat round": counted in rounds, not ticks.
  'death-sentence': negative('Death Sentence', 'temporary', 'None', false),
  frog: negative('Frog', 'permanent', "Maiden's Kiss"),
  mini: negative('Mini', 'permanent', 'Cornucopia'),
  poison: negative('Poison', 'temporary', 'Antidote'),
  seal: negative('Seal', 'permanent', 'Echo Screen'),
  sleep: negative('Sleep', 'temporary', 'Receive Damage'),
  slow: negative('Slow', 'temporary', 'None'),
  stone: negative('Stone', 'permanent', 'Soft'),
  stop: negative('Stop', 'temporary', 'None'),
  stun: negative('Stun', 'special', 'None'),
  unconscious: negative('Unconscious', 'permanent', 'Phoenix Down / Phoenix Pinion'),
  venom: negative('Venom', 'permanent', 'Vaccine'),
  zombie: negative('Zombie', 'permanent', 'Revivify'),
  barrier: positive('Barrier'),
  haste: positive('Haste'),
  mbarrier: positive('MBarrier'),
  regen: positive('Regen'),
  reraise: positive('Reraise'),
  wall: positive('Wall'),
};

/** Ended by taking damage: "Cure: Receive Damage". */
export const ENDS_ON_DAMAGE: ReadonlySet<StatusId> = new Set(['charm', 'confusion', 'sleep']);

/**
 * Knocked out: "any 'Temporary' negative status effects disappear immediately" and "any positive
 * status effects disappear immediately". Stun and Death Sentence go with them (rulings).
 */
export function clearedByUnconsciousness(id: StatusId): boolean {
  const info = STATUSES[id];
  return info.duration !== 'permanent';
}

/** "All 'Temporary' effects vanish when the battle is over": and the positive ones (rulings). */
export function clearedByBattleEnd(id: StatusId): boolean {
  return STATUSES[id].duration !== 'permanent';
}
