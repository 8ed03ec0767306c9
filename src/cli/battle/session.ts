import { writeFileSync } from 'node:fs';
import type { ContentLibrary } from '../../content/index.js';
import { DiceError, parseEnteredFaces } from '../../dice/index.js';
import { type AnyEncounter, type CommandBase, gm, type LegalAction } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';
import type { Io } from '../io.js';
import { gmCommandFrom } from './gm.js';
import type { LineReader } from './lines.js';
import { matchAction, menuOf } from './pick.js';
import { eventLines, logLines, oddsOf, outcomeLine, stateLines, viewJson } from './screen.js';

const HELP = [
  'Commands:',
  '  3, attack heket          take legal action 3, or the one whose words begin so',
  '  1 hit:heket=2,8 ...      an action with dice rolled at the table, by roll name:',
  '                           the faces (2,8) or one number for the total (damage:heket=32)',
  '  move max c4              on a battlefield: move to a cell (any cell in reach)',
  '  equip|unequip|drop max <item>   change equipment (not an action)',
  '  dice manual | dice auto  ask for every roll as it is needed, or roll here',
  '  undo [n], redo [n]       take back, or put back, the last n commands',
  '  save <file>              write a save file (moogle battle ... --load <file> resumes it)',
  '  log                      every event so far, by command',
  '  odds <n>                 the chances of action n, in detail',
  '  gm ...                   the GM overrules the sheet: help gm lists the GM commands',
  '  show, view --json        the battle as it stands (as one JSON line)',
  '  help, help gm, quit',
];

/** What a line asked for: keep going, or stop (quit, or the input ended). */
type Next = 'go-on' | 'stop';

/** The interactive battle: reads a line, does it, shows what changed, until the end or quit. */
export class BattleSession {
  constructor(
    private readonly io: Io,
    private readonly system: AnySystem,
    private readonly encounter: AnyEncounter,
    private readonly reader: LineReader,
    /** Physical dice: every roll asked for as it is needed. */
    private manual: boolean,
    /** The encounter's content, where `gm add` finds its sheets. */
    private readonly library?: ContentLibrary,
  ) {}

  async run(): Promise<void> {
    if (!this.encounter.outcome().over) this.show();
    while (!this.encounter.outcome().over) {
      const line = await this.reader.ask('> ');
      if (line === undefined || (await this.handle(line)) === 'stop') {
        this.io.out('Quit: the battle is not over.');
        return;
      }
    }
    this.io.out(outcomeLine(this.system, this.encounter, this.encounter.outcome()));
  }

  private show(): void {
    for (const line of stateLines(this.system, this.encounter)) this.io.out(line);
  }

  private async handle(line: string): Promise<Next> {
    if (line === '') return 'go-on';
    const [word = '', ...rest] = line.split(/\s+/);
    const arg = rest.join(' ');
    switch (word.toLowerCase()) {
      case 'help':
      case '?':
        for (const text of arg.toLowerCase() === 'gm' ? gm.gmHelp(this.system.gm) : HELP)
          this.io.out(text);
        return 'go-on';
      case 'gm':
        return this.gm(arg);
      case 'view':
        this.view(arg);
        return 'go-on';
      case 'quit':
      case 'exit':
        return 'stop';
      case 'show':
        this.show();
        return 'go-on';
      case 'undo':
      case 'redo':
        this.travel(word.toLowerCase() as 'undo' | 'redo', arg);
        return 'go-on';
      case 'save':
        this.save(arg);
        return 'go-on';
      case 'log':
        for (const text of logLines(this.system, this.encounter)) this.io.out(text);
        return 'go-on';
      case 'odds':
        this.odds(arg);
        return 'go-on';
      case 'dice':
        this.diceMode(arg);
        return 'go-on';
      default:
        return this.act(line);
    }
  }

  private travel(type: 'undo' | 'redo', arg: string): void {
    if (!/^\d*$/.test(arg)) {
      this.io.out(`${type} takes a number of commands: ${type} 2`);
      return;
    }
    const steps = arg === '' ? 1 : Number(arg);
    const result = type === 'undo' ? this.encounter.undo(steps) : this.encounter.redo(steps);
    if (!result.ok) {
      this.io.out(`Cannot ${type}: ${result.error.message}`);
      return;
    }
    this.io.out(`${type === 'undo' ? 'Undid' : 'Redid'} ${plural(steps, 'command')}.`);
    this.show();
  }

  private save(file: string): void {
    if (file === '') {
      this.io.out('save takes a file name: save battle.json');
      return;
    }
    try {
      writeFileSync(file, `${JSON.stringify(this.encounter.save(), null, 2)}\n`);
      this.io.out(`Saved to ${file}; resume with --load ${file}.`);
    } catch (error) {
      this.io.out(`Cannot write ${file}: ${(error as Error).message}`);
    }
  }

  private odds(arg: string): void {
    const menu = menuOf(this.encounter.legalActions());
    const matches = arg === '' ? [] : matchAction(menu, arg);
    if (matches.length !== 1) {
      this.io.out(`odds takes the number or name of a legal action: odds 1`);
      return;
    }
    const odds = oddsOf(this.system, this.encounter.state, matches[0]!.command);
    for (const line of odds?.lines ?? ['nothing in that action is left to chance'])
      this.io.out(line);
  }

  /** `view --json`: the state as one JSON line, for scripts and other tools. */
  private view(arg: string): void {
    if (arg === '') {
      this.show();
      return;
    }
    if (arg !== '--json') {
      this.io.out('view, or view --json for one JSON line');
      return;
    }
    this.io.out(JSON.stringify(viewJson(this.system, this.encounter)));
  }

  private async gm(line: string): Promise<Next> {
    if (line === '') {
      for (const text of gm.gmHelp(this.system.gm)) this.io.out(text);
      return 'go-on';
    }
    const command = gmCommandFrom(this.system, this.library, this.encounter.state, line);
    if (!command.ok) {
      this.io.out(`Refused: ${command.error.message}`);
      return 'go-on';
    }
    return this.submit({ label: `gm ${line}`, command: command.value }, {});
  }

  private diceMode(arg: string): void {
    const mode = arg.toLowerCase();
    if (mode !== 'manual' && mode !== 'auto') {
      this.io.out('dice manual (every roll asked for) or dice auto (rolled here)');
      return;
    }
    this.manual = mode === 'manual';
    this.io.out(
      this.manual ? 'Dice: manual; every roll is asked for as it is needed.' : 'Dice: auto.',
    );
  }

  /** An action by number or name, with any `purpose=faces` rolled at the table. */
  private async act(line: string): Promise<Next> {
    const words: string[] = [];
    const entered: Record<string, number[]> = {};
    for (const token of line.split(/\s+/)) {
      const pair = /^([^=]+)=(.*)$/.exec(token);
      if (pair === null) {
        words.push(token);
        continue;
      }
      try {
        entered[pair[1]!] = parseEnteredFaces(pair[2]!);
      } catch (error) {
        if (!(error instanceof DiceError)) throw error;
        this.io.out(`${pair[1]}: ${error.message}`);
        return 'go-on';
      }
    }
    const action = this.pick(words.join(' '));
    if (typeof action === 'string') {
      this.io.out(action);
      return 'go-on';
    }
    const unknown = this.unknownRolls(action.command, entered);
    if (unknown !== undefined) {
      this.io.out(`Refused: ${unknown}`);
      return 'go-on';
    }
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
    entered: Record<string, number[]>,
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
   * entered (manual dice), and again for any entered faces that do not fit their die.
   */
  private async submit(
    action: LegalAction<CommandBase>,
    entered: Record<string, number[]>,
  ): Promise<Next> {
    for (;;) {
      const result = this.encounter.submit(action.command, {
        entered,
        enterAll: this.manual,
      });
      if (result.ok) {
        const lines = eventLines(this.system, result.value, this.encounter.state, action.label);
        for (const line of lines) this.io.out(line);
        if (!this.encounter.outcome().over) this.show();
        return 'go-on';
      }
      const { code, message, purpose, notation } = result.error;
      // Only dice errors name a roll; anything else (not your turn, not enough MP) is final.
      if (purpose === undefined || notation === undefined) {
        this.io.out(`Refused: ${message}`);
        return 'go-on';
      }
      if (code !== 'dice/needs-entry') this.io.out(message);
      const faces = await this.askFaces(purpose, notation);
      if (faces === undefined) return 'stop';
      if (faces === 'cancel') {
        this.io.out('Cancelled; nothing changed.');
        return 'go-on';
      }
      entered[purpose] = faces;
    }
  }

  private async askFaces(
    purpose: string,
    notation: string,
  ): Promise<number[] | 'cancel' | undefined> {
    const hint = notation.includes('d%')
      ? ' (two d10, tens then ones: 2 8 is 28, 0 0 is 100; or 28 as one number)'
      : /\bfs\b/.test(notation)
        ? ' (the positive die, with a reroll after each 6, then the negative die: 6 3 2 is 9 - 2)'
        : ' (the faces, or one number for the total)';
    for (;;) {
      const line = await this.reader.ask(`Roll ${notation} for ${purpose}${hint}: `);
      if (line === undefined) return undefined;
      if (line.toLowerCase() === 'cancel') return 'cancel';
      try {
        return parseEnteredFaces(line);
      } catch (error) {
        if (!(error instanceof DiceError)) throw error;
        this.io.out(`${error.message}; type the faces again, or cancel`);
      }
    }
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
