import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ContentLibrary } from '../../content/index.js';
import { DiceError } from '../../dice/index.js';
import {
  type AnyEncounter,
  type CommandBase,
  type EnteredRoll,
  gm,
  type LegalAction,
  StatesAfterEntries,
} from '../../engine/index.js';
import { writeAtomically } from '../../files/write-all.js';
import type { AnySystem, RollSlot } from '../../rulesets/system.js';
import { gmCommandFrom, gmExamplesOf, matchAction, menuOf, oddsOf } from '../../session/index.js';
import type { Io } from '../io.js';
import { entryHint, parseEnteredRoll, slotHint } from './entered.js';
import type { LineReader } from './lines.js';
import { eventLines, logLines, movedLines, outcomeLine, stateLines, viewJson } from './screen.js';

const HELP = [
  'Commands:',
  '  3, attack heket          take legal action 3, or the one whose words begin so',
  '  1 hit:heket=2,8 ...      an action with dice rolled at the table, by roll name: the',
  "                           faces as they lie (hit:heket=2,8; damage:heket=10 is the d12's 10),",
  '                           one number for dice added up, total:N for a total with modifiers',
  '  move max c4              on a battlefield: move to a cell (any cell in reach)',
  '  equip|unequip|drop max <item>   change equipment (not an action)',
  '  dice manual | dice auto  ask for every roll as it is needed, or roll here',
  '  undo [n], redo [n]       take back, or put back, the last n commands',
  '  save <file>              write a save file (moogle battle ... --load <file> resumes it)',
  '  log                      every entry so far: undone commands marked, undos named',
  '  odds <n>                 the chances of action n, in detail',
  '  gm ...                   the GM overrules the sheet: help gm lists the GM commands',
  '  show, view --json        the battle as it stands (as one JSON line)',
  '  help, help gm, quit',
];

/** What a line asked for: keep going, or stop (quit, the input ended, or a script failed). */
type Next = 'go-on' | 'stop';

export interface SessionOptions {
  /** Physical dice: every roll asked for as it is needed. */
  readonly manual: boolean;
  /** The encounter's content, where `gm add` finds its sheets. */
  readonly library?: ContentLibrary;
  /** Written after every accepted command, before its result is shown; none when undefined. */
  readonly autosave?: string;
  /** The encounter file: `save` never writes over it. */
  readonly encounterFile?: string;
  /** From a script: go on past a rejected line instead of stopping at the first. */
  readonly keepGoing?: boolean;
}

/**
 * A line from a script that was rejected, and the run stopped there: the battle command turns
 * it into exit status 2.
 */
export class ScriptStopped extends Error {
  override readonly name = 'ScriptStopped';
}

/**
 * The interactive battle: reads a line, does it, shows what changed, until quit or the end of
 * the input. The session stays open after the battle ends, so the last blow can be undone and
 * the end saved or logged.
 */
export class BattleSession {
  private manual: boolean;
  private failure: string | undefined;

  constructor(
    private readonly io: Io,
    private readonly system: AnySystem,
    private readonly encounter: AnyEncounter,
    private readonly reader: LineReader,
    private readonly options: SessionOptions,
  ) {
    this.manual = options.manual;
  }

  async run(): Promise<void> {
    let announced = this.encounter.outcome().over;
    if (announced) this.io.out(this.outcome());
    else this.show();
    for (;;) {
      const line = await this.reader.ask('> ');
      if (line === undefined || (await this.handle(line)) === 'stop') break;
      const over = this.encounter.outcome().over;
      if (over && !announced) {
        this.io.out(this.outcome());
        if (this.reader.interactive) this.io.out('The battle is over: undo, save, log, or quit.');
      }
      announced = over;
    }
    if (this.failure !== undefined) throw new ScriptStopped(this.failure);
    if (!this.encounter.outcome().over) this.io.out('Quit: the battle is not over.');
    if (this.options.autosave !== undefined && this.encounter.log.length > 0)
      this.io.out(
        `Autosaved to ${this.options.autosave}; --load ${this.options.autosave} resumes it.`,
      );
  }

  private outcome(): string {
    return outcomeLine(this.system, this.encounter, this.encounter.outcome());
  }

  private show(): void {
    for (const line of stateLines(this.system, this.encounter)) this.io.out(line);
  }

  /**
   * A line that could not be done. At a terminal the person reads why and types again; from a
   * script the run stops here (unless --keep-going), since every line after it assumed it.
   */
  private reject(message: string): Next {
    this.io.out(message);
    if (this.reader.interactive || this.options.keepGoing) return 'go-on';
    this.failure = `line ${this.reader.lineNumber}: ${message}`;
    return 'stop';
  }

  /**
   * Every accepted change goes to the autosave before anything is shown: a fight killed at any
   * moment keeps every command it showed a result for.
   */
  private persist(): void {
    const path = this.options.autosave;
    if (path === undefined) return;
    try {
      writeAtomically(path, `${JSON.stringify(this.encounter.save())}\n`);
    } catch (error) {
      this.io.err(`moogle: cannot write the autosave ${path}: ${(error as Error).message}`);
    }
  }

  private async handle(line: string): Promise<Next> {
    if (line === '') return 'go-on';
    const [word = '', ...rest] = line.split(/\s+/);
    const arg = rest.join(' ');
    switch (word.toLowerCase()) {
      case 'help':
      case '?':
        for (const text of arg.toLowerCase() === 'gm' ? this.gmHelp() : HELP) this.io.out(text);
        return 'go-on';
      case 'gm':
        return this.gm(arg);
      case 'view':
        return this.view(arg);
      case 'quit':
      case 'exit':
        return 'stop';
      case 'show':
        this.show();
        return 'go-on';
      case 'undo':
      case 'redo':
        return this.travel(word.toLowerCase() as 'undo' | 'redo', arg);
      case 'save':
        return this.save(arg);
      case 'log':
        for (const text of logLines(this.system, this.encounter)) this.io.out(text);
        return 'go-on';
      case 'odds':
        return this.odds(arg);
      case 'dice':
        return this.diceMode(arg);
      default:
        if (this.encounter.outcome().over) {
          return this.reject('The battle is over: undo, save, log, view, or quit.');
        }
        return this.act(line);
    }
  }

  private travel(type: 'undo' | 'redo', arg: string): Next {
    if (!/^\d*$/.test(arg)) return this.reject(`${type} takes a number of commands: ${type} 2`);
    const steps = arg === '' ? 1 : Number(arg);
    const result = type === 'undo' ? this.encounter.undo(steps) : this.encounter.redo(steps);
    if (!result.ok) return this.reject(`Cannot ${type}: ${result.error.message}`);
    this.persist();
    // Name what moved, as the log will: `Undid #12: Mint attacks the Heket`.
    const { ruleset, setup, log } = this.encounter;
    const states = StatesAfterEntries.of(ruleset, setup, log);
    for (const text of movedLines(this.system, this.encounter, states, log.length)) {
      this.io.out(text);
    }
    this.show();
    return 'go-on';
  }

  private save(file: string): Next {
    if (file === '') return this.reject('save takes a file name: save battle.json');
    const encounterFile = this.options.encounterFile;
    if (encounterFile !== undefined && sameFile(file, encounterFile)) {
      return this.reject(`Refused: ${file} is the encounter file; save to another file`);
    }
    try {
      writeAtomically(file, `${JSON.stringify(this.encounter.save(), null, 2)}\n`);
    } catch (error) {
      return this.reject(`Cannot write ${file}: ${(error as Error).message}`);
    }
    this.io.out(`Saved to ${file}; resume with --load ${file}.`);
    return 'go-on';
  }

  private odds(arg: string): Next {
    const menu = menuOf(this.encounter.legalActions());
    const matches = arg === '' ? [] : matchAction(menu, arg);
    if (matches.length !== 1)
      return this.reject('odds takes the number or name of a legal action: odds 1');
    const odds = oddsOf(this.system, this.encounter.state, matches[0]!.command);
    for (const line of odds?.lines ?? ['nothing in that action is left to chance'])
      this.io.out(line);
    return 'go-on';
  }

  /** `view --json`: the state as one JSON line, for scripts and other tools. */
  private view(arg: string): Next {
    if (arg === '') {
      this.show();
      return 'go-on';
    }
    if (arg !== '--json') return this.reject('view, or view --json for one JSON line');
    this.io.out(JSON.stringify(viewJson(this.system, this.encounter)));
    return 'go-on';
  }

  private async gm(line: string): Promise<Next> {
    if (line === '') {
      for (const text of this.gmHelp()) this.io.out(text);
      return 'go-on';
    }
    // Dice for the GM's own rolls (`gm damage heket 2d6 gm:heket=4,5`): only `gm:` names, so a
    // note's text keeps any `=` it has.
    const split = splitEntered(line, /^(gm:[^=]+)=(.*)$/);
    if ('refused' in split) return this.reject(split.refused);
    const { words, entered } = split;
    const typed = words.join(' ');
    const command = gmCommandFrom(this.system, this.options.library, this.encounter.state, typed);
    if (!command.ok) return this.reject(`Refused: ${command.error.message}`);
    return this.submit({ label: `gm ${typed}`, command: command.value }, entered);
  }

  /** `help gm`, its examples drawn from this fight: its combatants, sides, statuses, content. */
  private gmHelp(): string[] {
    const { library } = this.options;
    const examples = gmExamplesOf(this.system, library, this.encounter.state);
    return gm.gmHelp(
      this.system.gm,
      examples.map((line) => `gm ${line}`),
    );
  }

  private diceMode(arg: string): Next {
    const mode = arg.toLowerCase();
    if (mode !== 'manual' && mode !== 'auto')
      return this.reject('dice manual (every roll asked for) or dice auto (rolled here)');
    this.manual = mode === 'manual';
    this.io.out(
      this.manual ? 'Dice: manual; every roll is asked for as it is needed.' : 'Dice: auto.',
    );
    return 'go-on';
  }

  /** An action by number or name, with any `purpose=faces` (or `purpose=total:N`) rolled at the table. */
  private async act(line: string): Promise<Next> {
    const split = splitEntered(line, /^([^=]+)=(.*)$/);
    if ('refused' in split) return this.reject(split.refused);
    const { words, entered } = split;
    const action = this.pick(words.join(' '));
    if (typeof action === 'string') return this.reject(action);
    const unknown = this.unknownRolls(action.command, entered);
    if (unknown !== undefined) return this.reject(`Refused: ${unknown}`);
    return this.submit(action, entered);
  }

  /** The legal action a number or a name means, or why there is none. */
  private pick(text: string): LegalAction<CommandBase> | string {
    const menu = menuOf(this.encounter.legalActions());
    if (text === '') return 'give the action first, then the dice: 1 hit:heket=2,8';
    const matches = matchAction(menu, text);
    if (matches.length === 1) return matches[0]!;
    if (/^\d+$/.test(text)) return `there is no action ${text}: choose 1 to ${menu.length}`;
    // A command typed in the system's own words (`move max c4`), when it has them.
    const typed = this.system.parseAction?.(this.encounter.state, text);
    if (typed !== undefined) return { label: text, command: typed };
    if (matches.length > 1) {
      const shown = matches.slice(0, 6).map((a) => a.label);
      const more = matches.length > 6 ? ` (and ${matches.length - 6} more)` : '';
      return `'${text}' could be ${shown.join(' or ')}${more}: say more, or use the number`;
    }
    const shown = text.length > 40 ? `${text.slice(0, 40)}...` : text;
    return `unknown command '${shown}': choose an action by number or name, or type help`;
  }

  /**
   * Entered dice for a roll the action never makes (a typo: `hti:heket`), found before any
   * dice are asked for; undefined when every name is one of the action's rolls.
   */
  private unknownRolls(
    command: CommandBase,
    entered: Record<string, EnteredRoll>,
  ): string | undefined {
    const names = Object.keys(entered);
    if (names.length === 0) return undefined;
    const slots = this.system.rolls(this.encounter.state, command);
    const known = new Set(slots.map((slot) => slot.purpose));
    const unknown = names.filter((name) => !known.has(name.replace(/#\d+$/, '')));
    if (unknown.length === 0) return undefined;
    const rolls =
      slots.length === 0
        ? 'it rolls no dice'
        : `its rolls: ${slots.map((slot) => `${slot.purpose} (${slot.notation})`).join(', ')}`;
    return `this action makes no roll named ${unknown.join(', ')}; ${rolls}`;
  }

  /**
   * Submits the action, asking for dice until it goes through: each roll the engine needs
   * entered (manual dice), and at a terminal again for entered faces that do not fit their die.
   */
  private async submit(
    action: LegalAction<CommandBase>,
    entered: Record<string, EnteredRoll>,
  ): Promise<Next> {
    for (;;) {
      const result = this.encounter.submit(action.command, {
        entered,
        enterAll: this.manual,
      });
      if (result.ok) {
        this.persist();
        const lines = eventLines(this.system, result.value, this.encounter.state, action.label);
        for (const line of lines) this.io.out(line);
        if (!this.encounter.outcome().over) this.show();
        return 'go-on';
      }
      const { code, message, purpose, notation } = result.error;
      // Only dice errors name a roll; anything else (not your turn, not enough MP) is final.
      if (purpose === undefined || notation === undefined)
        return this.reject(`Refused: ${message}`);
      // From a script, dice that do not fit stop it: the next line is a command, not a retry.
      if (code !== 'dice/needs-entry') {
        if (!this.reader.interactive) return this.reject(message);
        this.io.out(message);
      }
      const slot = this.system
        .rolls(this.encounter.state, action.command)
        .find((s) => s.purpose === purpose.replace(/#\d+$/, ''));
      const faces = await this.askFaces(purpose, notation, slot);
      if (faces === 'end') return 'stop';
      if (faces === 'cancel') {
        this.io.out('Cancelled; nothing changed.');
        return 'go-on';
      }
      if (typeof faces === 'object' && 'rejected' in faces) {
        // --keep-going: the line was not dice; the action is dropped and the line is a command.
        const next = this.reject(faces.rejected);
        if (next === 'stop') return next;
        this.io.out('Cancelled; nothing changed.');
        return this.handle(faces.line);
      }
      entered[purpose] = faces;
    }
  }

  private async askFaces(
    purpose: string,
    notation: string,
    slot: RollSlot | undefined,
  ): Promise<EnteredRoll | 'cancel' | 'end' | { rejected: string; line: string }> {
    const hint = entryHint(notation);
    for (;;) {
      const line = await this.reader.ask(
        `Roll ${notation}${slotHint(slot)} for ${purpose}${hint}: `,
      );
      if (line === undefined) return 'end';
      if (line.toLowerCase() === 'cancel') return 'cancel';
      try {
        return parseEnteredRoll(line);
      } catch (error) {
        if (!(error instanceof DiceError)) throw error;
        if (!this.reader.interactive) return { rejected: `${purpose}: ${error.message}`, line };
        this.io.out(`${error.message}; type the faces again, or cancel`);
      }
    }
  }
}

/** Whether two paths name the same file, following links; false if either does not exist. */
function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/**
 * A typed line's words and its `purpose=dice` pairs (`pair` picks which tokens are pairs: any
 * `a=b`, or a GM line's `gm:who=b` alone, since a note's text may hold an `=`).
 */
function splitEntered(
  line: string,
  pair: RegExp,
): { words: string[]; entered: Record<string, EnteredRoll> } | { refused: string } {
  const words: string[] = [];
  const entered: Record<string, EnteredRoll> = {};
  for (const token of line.split(/\s+/)) {
    const match = pair.exec(token);
    if (match === null) {
      words.push(token);
      continue;
    }
    try {
      entered[match[1]!] = parseEnteredRoll(match[2]!);
    } catch (error) {
      if (!(error instanceof DiceError)) throw error;
      return { refused: `${match[1]}: ${error.message}` };
    }
  }
  return { words, entered };
}
