import type { CommandBase, LegalAction } from '../../engine/index.js';

/**
 * The legal actions as the terminal numbers them: the ones listed one by one first, then the
 * grouped ones (a unit's moves), which are typed rather than read from a list.
 */
export function menuOf(actions: readonly LegalAction<CommandBase>[]): LegalAction<CommandBase>[] {
  return [
    ...actions.filter((a) => a.group === undefined),
    ...[...groupsOf(actions).values()].flat(),
  ];
}

/** The grouped actions by group, groups in the order they first appear. */
export function groupsOf(
  actions: readonly LegalAction<CommandBase>[],
): Map<string, LegalAction<CommandBase>[]> {
  const groups = new Map<string, LegalAction<CommandBase>[]>();
  for (const a of actions) {
    if (a.group === undefined) continue;
    const members = groups.get(a.group);
    if (members === undefined) groups.set(a.group, [a]);
    else members.push(a);
  }
  return groups;
}

/**
 * The action a person means by `text`: its number, its label, the only label starting so, or
 * the only label whose words the typed words begin, in order (`cast thunder` for "Ehlric casts
 * Thunder at the Iron Giant"); a one-letter word begins only a label's first word. Returns the
 * matches: none, one, or the several it could be.
 */
export function matchAction(
  menu: readonly LegalAction<CommandBase>[],
  text: string,
): LegalAction<CommandBase>[] {
  const wanted = text.trim().toLowerCase();
  if (/^\d+$/.test(wanted)) {
    const action = menu[Number(wanted) - 1];
    return action === undefined ? [] : [action];
  }
  const exact = menu.filter((a) => a.label.toLowerCase() === wanted);
  if (exact.length > 0) return exact.slice(0, 1);
  const starts = menu.filter((a) => a.label.toLowerCase().startsWith(wanted));
  if (starts.length > 0) return firstOfOneKind(starts);
  const typed = wordsOf(wanted);
  // Words are names: a line of bare numbers (`-1`) names nothing, it is no action's words.
  if (!typed.some((w) => /\p{L}/u.test(w))) return [];
  return firstOfOneKind(menu.filter((a) => wordsBegin(typed, wordsOf(a.label))));
}

/**
 * Several matches that are one action in different ways (Ehlric attacking the Giant with his
 * staff or his pet's claws) mean the first: systems list the likeliest way first. Matches that
 * differ in kind, actor or target stay a question.
 */
function firstOfOneKind(matches: LegalAction<CommandBase>[]): LegalAction<CommandBase>[] {
  if (matches.length < 2) return matches;
  const key = (a: LegalAction<CommandBase>): string => {
    const { type, actor, target } = a.command as {
      type: string;
      actor?: unknown;
      target?: unknown;
    };
    return JSON.stringify([type, actor, target]);
  };
  const first = key(matches[0]!);
  return matches.every((a) => key(a) === first) ? [matches[0]!] : matches;
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** Each typed word begins a label word, in order; a single letter only the first. */
function wordsBegin(typed: readonly string[], label: readonly string[]): boolean {
  let at = 0;
  for (const word of typed) {
    while (
      at < label.length &&
      !(label[at]!.startsWith(word) && (word.length > 1 || at === 0 || label[at] === word))
    )
      at++;
    if (at === label.length) return false;
    at++;
  }
  return true;
}
