import { err, ok, type Result } from '../result.js';
import type { GmAmount, GmCommand } from './commands.js';
import { findCombatant, findNamed, namesExactly, type RosterEntry } from './roster.js';

/** A resource `gm <name> <who> [key] <value>` sets, beyond HP and MP. */
export interface GmResource {
  /** The word typed: `shots`, `ammo`, `sp`, `cracked`. */
  readonly name: string;
  /** What the resource is counted per, when it is (`weapon`, `spell`, `item`). */
  readonly key?: string;
  /** Yes or no rather than a number (an item's cracked state). */
  readonly flag?: boolean;
  readonly help: string;
}

/** What a system adds to the shared GM vocabulary, for parsing and for `help gm`. */
export interface GmVocabulary {
  /** Resources beyond `hp` and `mp` (which every system has, MP where it has MP). */
  readonly resources: readonly GmResource[];
  /** What `gm clock` moves, in the system's words: `Initiative`, `next shot`, `SP`. */
  readonly clock: string;
  /** Whether the system has MP at all (FFVIII does not). */
  readonly mp: boolean;
  /** Elements `gm damage` may name, for help and for telling an element from a typo. */
  readonly elements: readonly string[];
  /** A line each, typed as at the table in this system: `gm hp heket -30`. */
  readonly examples: readonly string[];
  /** System-only GM commands, for `help gm`: `gm move max c4 (put a unit on a cell)`. */
  readonly extra?: readonly string[];
}

/** The add command before its sheet is read from content: `gm add goblin to enemies as Goblin 2`. */
export interface GmAddRequest {
  readonly type: 'gm-add';
  readonly content: string;
  readonly side: string;
  readonly name?: string;
}

export type GmRequest = Exclude<GmCommand, { type: 'gm-add' }> | GmAddRequest;

/** What parsing a `gm` line needs to know about the fight now. */
export interface GmContext {
  readonly combatants: readonly RosterEntry[];
  readonly sides: readonly RosterEntry[];
  readonly vocabulary: GmVocabulary;
  /**
   * The sheets `gm add` may bring in (characters and monsters), so one is named as a person
   * would (`add Iron Giant to The Iron Giant`); without them the words before `to` are an id.
   */
  readonly content?: readonly RosterEntry[];
  /**
   * The statuses this fight knows, so `+Armor Break` or `+armor` finds `armor-break`; without
   * them (a system whose statuses are free words) the status words are the id, hyphenated.
   */
  readonly statuses?: readonly RosterEntry[];
}

const USAGE = 'type help gm for the GM commands';

/**
 * A `gm ...` line as typed at the table, without the leading `gm`, into a GM command. Names
 * with spaces may be quoted or typed as they are (`gm hp iron giant 50`).
 */
export function parseGmLine(line: string, context: GmContext): Result<GmRequest> {
  const words = tokenize(line);
  if (!words.ok) return words;
  const [verb = '', ...rest] = words.value;
  const word = verb.toLowerCase();
  switch (word) {
    case '':
      return err('gm/usage', USAGE);
    case 'hp':
      return resource(word, rest, context);
    case 'mp':
      if (!context.vocabulary.mp) return err('gm/usage', 'this system has no MP');
      return resource(word, rest, context);
    case 'status':
      return status(rest, context);
    case 'add':
      return add(rest, context);
    case 'remove':
      return whoThen(rest, context, 0, 1, (target, [reason]) => {
        if (reason !== undefined && reason !== 'fled' && reason !== 'dismissed')
          return err('gm/usage', `gm remove <who> [fled|dismissed], not '${reason}'`);
        return ok({ type: 'gm-remove', target, reason: reason ?? 'dismissed' });
      });
    case 'clock':
      return whoThen(rest, context, 1, 1, (target, [value]) => {
        const n = signed(value!);
        if (n === undefined)
          return err('gm/usage', `gm clock <who> <n|+n|-n> (the ${context.vocabulary.clock})`);
        return ok({ type: 'gm-clock', target, value: n.value, relative: n.relative });
      });
    case 'skip':
      return whoThen(rest, context, 0, 0, (target) => ok({ type: 'gm-skip', target }));
    case 'damage':
    case 'heal':
      return effect(word, rest, context);
    case 'note':
      return note(rest, context);
    default: {
      if (context.vocabulary.resources.some((r) => r.name === word))
        return resource(word, rest, context);
      const shown = verb.length > 20 ? `${verb.slice(0, 20)}...` : verb;
      return err('gm/usage', `unknown GM command '${shown}': ${USAGE}`);
    }
  }
}

/** Words, with "double quotes" keeping spaces; at most 64 words. */
export function tokenize(line: string): Result<string[]> {
  const words: string[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  for (const match of line.matchAll(pattern)) {
    if (words.length === 64) return err('gm/usage', 'too many words for a GM command');
    words.push(match[1] ?? match[2]!);
  }
  if ((line.match(/"/g)?.length ?? 0) % 2 === 1) return err('gm/usage', 'a quote is not closed');
  return ok(words);
}

/**
 * The combatant named by the first words, then `min` to `max` more words. A name may take
 * several words: the longest run that names someone exactly wins, else the first word alone.
 */
function whoThen(
  words: readonly string[],
  context: GmContext,
  min: number,
  max: number,
  then: (target: string, rest: string[]) => Result<GmRequest>,
): Result<GmRequest> {
  if (words.length === 0) return err('gm/usage', `name a combatant: ${USAGE}`);
  const found = splitWho(words, context.combatants, min);
  if (!found.ok) return found;
  const rest = words.slice(found.value.used);
  if (rest.length < min || rest.length > max) return err('gm/usage', `wrong arguments: ${USAGE}`);
  return then(found.value.id, rest);
}

function splitWho(
  words: readonly string[],
  roster: readonly RosterEntry[],
  keep: number,
): Result<{ id: string; used: number }> {
  for (let used = Math.max(1, words.length - keep); used >= 2; used--) {
    const text = words.slice(0, used).join(' ').toLowerCase();
    const exact = roster.filter((c) => c.name.toLowerCase() === text || c.id === text);
    if (exact.length === 1) return ok({ id: exact[0]!.id, used });
  }
  const one = findCombatant(roster, words[0]!);
  return one.ok ? ok({ id: one.value, used: 1 }) : one;
}

function signed(text: string): { value: number; relative: boolean } | undefined {
  const match = /^([+-]?)(\d{1,7})$/.exec(text);
  if (match === null) return undefined;
  const magnitude = Number(match[2]);
  return {
    value: match[1] === '-' ? -magnitude : magnitude,
    relative: match[1] !== '',
  };
}

function resource(name: string, words: readonly string[], context: GmContext): Result<GmRequest> {
  const definition = context.vocabulary.resources.find((r) => r.name === name);
  const keyed = definition?.key !== undefined;
  const usage = `gm ${name} <who>${keyed ? ` <${definition!.key}>` : ''} ${definition?.flag ? '<yes|no>' : '<n|+n|-n>'}`;
  const extra = keyed ? 2 : 1;
  if (words.length < extra + 1) return err('gm/usage', usage);
  const valueWord = words.at(-1)!.toLowerCase();
  const key = keyed ? words.at(-2) : undefined;
  const found = splitWho(words.slice(0, words.length - extra), context.combatants, 0);
  if (!found.ok) return found;
  if (found.value.used !== words.length - extra) return err('gm/usage', usage);
  let value: { value: number; relative: boolean } | undefined;
  if (definition?.flag) {
    const flag = ['yes', 'true'].includes(valueWord)
      ? 1
      : ['no', 'false'].includes(valueWord)
        ? 0
        : undefined;
    value = flag === undefined ? undefined : { value: flag, relative: false };
  } else {
    value = signed(valueWord);
  }
  if (value === undefined) return err('gm/usage', usage);
  return ok({
    type: 'gm-set',
    target: found.value.id,
    resource: name,
    ...(key === undefined ? {} : { key }),
    value: value.value,
    relative: value.relative,
  });
}

function status(words: readonly string[], context: GmContext): Result<GmRequest> {
  const usage = 'gm status <who> +<status> [timer], or gm status <who> -<status>';
  const at = words.findIndex((w) => /^[+-]./.test(w));
  if (at < 1) return err('gm/usage', usage);
  const found = splitWho(words.slice(0, at), context.combatants, 0);
  if (!found.ok) return found;
  if (found.value.used !== at) return err('gm/usage', usage);
  const sign = words[at]![0];
  const statusWords = [words[at]!.slice(1), ...words.slice(at + 1)];
  let timer: number | 'infinite' | undefined;
  const last = statusWords.at(-1)!.toLowerCase();
  if (sign === '+' && statusWords.length > 1 && /^(\d{1,3}|infinite|∞)$/.test(last)) {
    timer = /^\d+$/.test(last) ? Number(last) : 'infinite';
    statusWords.pop();
    if (timer === 0) return err('gm/usage', 'a timer is 1 or more, or infinite');
  }
  const named = statusNamed(statusWords, context.statuses);
  if (!named.ok) return named;
  const name = named.value;
  if (sign === '-' && statusWords.length > 1 && timer === undefined && /^\d+$/.test(last))
    return err('gm/usage', 'a timer goes with +<status> only');
  return ok({
    type: 'gm-status',
    target: found.value.id,
    status: name,
    remove: sign === '-',
    ...(timer === undefined ? {} : { timer }),
  });
}

/**
 * The status the words name: its id or name in any case, or the only one they begin; the words
 * hyphenated when the fight lists no statuses or none fits (the ruleset then says what it has).
 */
function statusNamed(words: readonly string[], statuses: readonly RosterEntry[] | undefined) {
  const slug = words.join('-').toLowerCase();
  if (statuses === undefined || statuses.length === 0) return ok(slug);
  const exact = namesExactly(statuses, words.join(' ')) ?? namesExactly(statuses, slug);
  if (exact !== undefined) return ok(exact);
  const found = findNamed(statuses, words.join(' '), 'status');
  return found.ok || found.error.code !== 'gm/ambiguous-status'
    ? ok(found.ok ? found.value : slug)
    : found;
}

function add(words: readonly string[], context: GmContext): Result<GmRequest> {
  const usage = 'gm add <content> to <side> [as <name>]';
  // Names may hold several words: each `to` is tried, the one where both the content and the
  // side are named exactly first (`add Iron Giant to The Iron Giant`), then the first `to`.
  const tos = words.flatMap((w, i) => (i > 0 && w.toLowerCase() === 'to' ? [i] : []));
  if (tos.length === 0) return err('gm/usage', usage);
  const attempts = tos.map((to) => addAt(words, to, context));
  const exact = attempts.find((a) => a.ok && a.exact);
  if (exact !== undefined) return exact.request;
  return attempts.find((a) => a.request.ok)?.request ?? attempts[0]!.request;
}

function addAt(
  words: readonly string[],
  to: number,
  context: GmContext,
): { ok: boolean; exact: boolean; request: Result<GmRequest> } {
  const usage = 'gm add <content> to <side> [as <name>]';
  const refuse = (request: Result<GmRequest>) => ({ ok: false, exact: false, request });
  const as = words.findIndex((w, i) => i > to && w.toLowerCase() === 'as');
  const contentWords = words.slice(0, to);
  const sideWords = words.slice(to + 1, as === -1 ? undefined : as);
  const nameWords = as === -1 ? [] : words.slice(as + 1);
  if (sideWords.length === 0 || (as !== -1 && nameWords.length === 0))
    return refuse(err('gm/usage', usage));
  const contentText = contentWords.join(' ');
  const sideText = sideWords.join(' ');
  const known = context.content;
  let content: string;
  let exact = namesExactly(context.sides, sideText) !== undefined;
  if (known === undefined || known.length === 0) {
    content = contentWords.join('-').toLowerCase();
  } else {
    const found = findNamed(known, contentText, 'character or monster', 'content');
    if (!found.ok) return refuse(found);
    content = found.value;
    exact &&= namesExactly(known, contentText) !== undefined;
  }
  const side = findNamed(context.sides, sideText, 'side');
  if (!side.ok) {
    if (side.error.code === 'gm/ambiguous-side') return refuse(side);
    const shown = sideText.length > 40 ? `${sideText.slice(0, 40)}...` : sideText;
    const sides = context.sides.map((s) => `${s.name} (${s.id})`).join(', ');
    return refuse(err('gm/unknown-side', `there is no side '${shown}' (sides: ${sides})`));
  }
  return {
    ok: true,
    exact,
    request: ok({
      type: 'gm-add',
      content,
      side: side.value,
      ...(nameWords.length === 0 ? {} : { name: nameWords.join(' ') }),
    }),
  };
}

function effect(
  kind: 'damage' | 'heal',
  words: readonly string[],
  context: GmContext,
): Result<GmRequest> {
  const usage = `gm ${kind} <who> <amount|dice|50%[ max-hp]>${kind === 'damage' ? ' [element]' : ''} [raw]`;
  // The amount is the first word after the name that reads as one.
  const at = words.findIndex((w, i) => i > 0 && amountOf(w) !== undefined);
  if (at < 1) return err('gm/usage', usage);
  const found = splitWho(words.slice(0, at), context.combatants, 0);
  if (!found.ok) return found;
  if (found.value.used !== at) return err('gm/usage', usage);
  let amount = amountOf(words[at]!)!;
  const rest = words.slice(at + 1).map((w) => w.toLowerCase());
  if (typeof amount === 'object' && /^(max-)?(hp|mp)$/.test(rest[0] ?? '')) {
    amount = { percent: amount.percent, of: rest.shift() as 'hp' };
  }
  const raw = rest.includes('raw');
  const others = rest.filter((w) => w !== 'raw');
  if (kind === 'heal' && others.length > 0) return err('gm/usage', usage);
  if (others.length > 1) return err('gm/usage', usage);
  const element = others[0];
  if (element !== undefined && !context.vocabulary.elements.includes(element)) {
    const known = context.vocabulary.elements.join(', ') || 'none in this system';
    return err('gm/unknown-element', `'${element}' is not an element (elements: ${known})`);
  }
  return ok({
    type: kind === 'damage' ? 'gm-damage' : 'gm-heal',
    target: found.value.id,
    amount,
    raw,
    ...(element === undefined ? {} : { element }),
  });
}

/** A number, `50%` (of current HP), or dice notation; undefined for a word that is none. */
function amountOf(word: string): GmAmount | undefined {
  if (/^\d{1,7}$/.test(word)) return Number(word);
  const percent = /^(\d{1,4})%$/.exec(word);
  if (percent !== null) return { percent: Number(percent[1]), of: 'hp' };
  // Dice: at least one die, nothing a name would have.
  if (/\d*d(\d+|%)/i.test(word) && /^[\dd%+\-*/()khlrx!<>=.]+$/i.test(word)) return word;
  return undefined;
}

function note(words: readonly string[], context: GmContext): Result<GmRequest> {
  if (words.length === 0)
    return err('gm/usage', 'gm note <who> <text>, or gm note <who> - to clear');
  const found = splitWho(words, context.combatants, 0);
  if (!found.ok) return found;
  const target = found.value.id;
  const text = words.slice(found.value.used).join(' ');
  if (text === '') return err('gm/usage', 'gm note <who> <text>, or gm note <who> - to clear');
  return ok({ type: 'gm-note', target, text: text === '-' ? '' : text });
}

/**
 * `help gm`: every GM command, with the system's own resources, and examples: the fight's own
 * when given (`gm hp Iron Giant 40`), else the system's.
 */
export function gmHelp(
  vocabulary: GmVocabulary,
  examples: readonly string[] = vocabulary.examples,
): string[] {
  const lines = [
    'GM commands (<who>, a side, a status or content: an id or a name; a change is logged,',
    '  undoable and saved):',
    '  gm hp <who> <n|+n|-n>                  set or change current HP (never the maximum)',
  ];
  if (vocabulary.mp)
    lines.push('  gm mp <who> <n|+n|-n>                  set or change current MP');
  for (const r of vocabulary.resources) {
    const form = `gm ${r.name} <who>${r.key === undefined ? '' : ` <${r.key}>`} ${r.flag ? '<yes|no>' : '<n|+n|-n>'}`;
    lines.push(`  ${form.padEnd(38)} ${r.help}`);
  }
  lines.push(
    '  gm status <who> +<status> [timer]      inflict a status (timer: a number or infinite)',
    '  gm status <who> -<status>              end a status early',
    '  gm add <content> to <side> [as <name>]      a monster or character joins the fight',
    '  gm remove <who> [fled|dismissed]       take a combatant out of the fight',
    `  gm clock <who> <n|+n|-n>               move it on the clock (${vocabulary.clock})`,
    '  gm skip <who>                          its turn passes without an action',
    `  gm damage <who> <n|dice|50%> ${vocabulary.elements.length > 0 ? '[element] ' : ''}[raw]  a trap or an event; through the damage rules unless raw`,
    '  gm heal <who> <n|dice|50%> [raw]       healing as a GM effect',
    '  gm note <who> <text>                   a note shown with it; gm note <who> - clears',
  );
  for (const line of vocabulary.extra ?? []) lines.push(`  ${line}`);
  if (vocabulary.elements.length > 0) lines.push(`Elements: ${vocabulary.elements.join(', ')}`);
  lines.push('Examples:', ...examples.map((e) => `  ${e}`));
  return lines;
}
