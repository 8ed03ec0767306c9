/**
 * The few rules of English the log lines need, in one place: a count and its noun ("1 tick",
 * "2 ticks", "12 HP"), an article ("an Antidote", "a Potion"), a verb agreeing with a side
 * ("Keef wins", "The Shining Force win"), and a status read as a state ("Max is poisoned",
 * "Max has Illusion").
 */

/** Units that never take an s: "1 HP", "12 HP", "30 gold". */
const UNCOUNTED = new Set(['hp', 'mp', 'sp', 'exp', 'gold', 'debt']);

/** "1 tick", "2 ticks", "0 shots", "12 HP"; `plural` for a noun not made with an s. */
export function count(n: number, noun: string, plural?: string): string {
  if (n === 1 || UNCOUNTED.has(noun.toLowerCase())) return `${n} ${noun}`;
  return `${n} ${plural ?? `${noun}s`}`;
}

/** Words starting with a vowel letter that sound a consonant ("a Unicorn Horn", "a Eucalyptus"). */
const CONSONANT_SOUND = /^(uni|use|usu|eu|one|once)/i;
/** Words starting with a consonant letter that sound a vowel ("an hour", "an X-Potion"). */
const VOWEL_SOUND = /^(hour|honou?r|heir|x-|mp\b|hp\b)/i;

/** "an" or "a", by the sound the word begins with. */
export function article(word: string): 'a' | 'an' {
  const w = word.trim();
  if (VOWEL_SOUND.test(w)) return 'an';
  if (CONSONANT_SOUND.test(w)) return 'a';
  return /^[aeiou]/i.test(w) ? 'an' : 'a';
}

/** "an Antidote", "a Potion", "an Ether". */
export function withArticle(noun: string): string {
  return `${article(noun)} ${noun}`;
}

/**
 * A side's verb: one combatant takes the singular ("Keef wins", "The Iron Giant stands"), a
 * side of several the plural, as a team does in British English ("The Shining Force win").
 */
export function sideVerb(members: number, singular: string, plural: string): string {
  return members === 1 ? singular : plural;
}

/**
 * How a status reads as something a combatant is: the rule texts name statuses as nouns
 * (Poison, Sleep, Confusion); a sentence says what the combatant is.
 */
const STATES: Readonly<Record<string, string>> = {
  poison: 'poisoned',
  poisoned: 'poisoned',
  venom: 'envenomed',
  sleep: 'asleep',
  asleep: 'asleep',
  curse: 'cursed',
  cursed: 'cursed',
  freeze: 'frozen',
  frozen: 'frozen',
  silence: 'silenced',
  blind: 'blinded',
  blinded: 'blinded',
  stun: 'stunned',
  stunned: 'stunned',
  slow: 'slowed',
  stop: 'stopped',
  confusion: 'confused',
  confuse: 'confused',
  confused: 'confused',
  charm: 'charmed',
  charmed: 'charmed',
  paralysis: 'paralysed',
  paralyze: 'paralysed',
  paralysed: 'paralysed',
  paralyzed: 'paralysed',
  petrify: 'petrified',
  stone: 'petrified',
  berserk: 'berserk',
  seal: 'sealed',
  unconscious: 'unconscious',
  zombie: 'a zombie',
  frog: 'a frog',
  toad: 'a toad',
  mini: 'shrunk (Mini)',
  disable: 'disabled',
  immobilize: 'immobilized',
  sap: 'sapped',
};

/**
 * "Max is poisoned", "Keef is asleep", "Ehlric has Regen": a status the language makes a state
 * of reads as one; any other is something the combatant has, by its name.
 */
export function statusClause(subject: string, status: string): string {
  const key = status
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  const state = Object.hasOwn(STATES, key) ? STATES[key] : undefined;
  if (state !== undefined) return `${subject} is ${state}`;
  return `${subject} has ${titled(status)}`;
}

/** "death-sentence" as "Death Sentence"; a name already capitalized stays as it is. */
function titled(status: string): string {
  if (/[A-Z]/.test(status)) return status;
  return status
    .split(/[-_\s]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}
