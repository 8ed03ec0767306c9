import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { formatContentError } from '../content/index.js';
import { parseDice, seededDice } from '../dice/index.js';
import { readEncounterFile } from '../encounters/file.js';
import { Encounter } from '../engine/index.js';
import { describeEvents } from '../rulesets/ffrpg/describe.js';
import { type FfrpgEvent, ffrpg } from '../rulesets/ffrpg/index.js';
import { SYSTEMS } from '../rulesets/index.js';
import { percent, renderHistogram, summaryLine } from './histogram.js';
import type { Io } from './io.js';

const DEMO_SEED = 2026;
/** The Playguide's fight, as the examples folder ships it. */
const EXAMPLE = fileURLToPath(new URL('../../examples/ffrpg-wind-cave.yaml', import.meta.url));

/** Rolls from the four rule texts, then exact odds: what Moogle's dice engine does, in a minute. */
export function runDemo(io: Io): void {
  const dice = seededDice(DEMO_SEED);
  const show = (
    title: string,
    expression: string,
    variables: Record<string, number> = {},
    verdict: (total: number) => string = () => '',
  ): void => {
    const result = parseDice(expression).roll({ dice, variables });
    const said = verdict(result.total);
    io.out(`  ${title.padEnd(44)} ${result.text}${said === '' ? '' : `: ${said}`}`);
  };
  io.out(`Moogle dice demo (seed ${DEMO_SEED}: run it again for the same rolls)`);
  io.out('');
  io.out('Rolls, every die shown:');
  show('FFRPG Task Check, d% against CoS 70:', 'd%', {}, (roll) =>
    roll <= 10 ? 'Critical Success' : roll >= 95 ? 'Botch' : roll <= 70 ? 'success' : 'failure',
  );
  show("Hiro's Valiant Rifle, 2 x AGI + d12, AGI 10:", '2*AGI + d12', { AGI: 10 });
  show('FFVIII action dice (Feng Shui), AV 11:', '11 + fs');
  show('ZODIAC weapon damage, (d8 x 10) + 25:', '(1d8*10)+25');
  show('Shining Force attack, five d100:', '5d100');
  show('Ability scores, 4d6 keep highest 3:', '4d6kh3');
  show('Success counting, 5d10 >= 8, 1s subtract:', '5d10>=8f1');
  io.out('');
  io.out('Exact odds of 4d6kh3 (rpg-dice-roller reports a mean of 10.5):');
  const odds = parseDice('4d6kh3').distribution();
  io.out(renderHistogram(odds));
  io.out(summaryLine(odds));
  io.out('');
  const d100 = parseDice('d%').distribution();
  const fs = parseDice('fs').distribution();
  io.out(
    `A CoS 70 Task Check succeeds ${percent(d100.atMost(70))} of the time, a Critical Success (1-10) ${percent(d100.atMost(10))}.`,
  );
  io.out(
    `Feng Shui dice roll 5 or more ${percent(fs.atLeast(5))} of the time (explosions followed 10 deep).`,
  );
  io.out('');
  runBattleDemo(io);
  io.out('');
  io.out('Try: npx moogle roll "3*STR + d10" --var STR=8    npx moogle odds "10d10kh3"');
  io.out('     npx moogle check ffrpg --rating 34 --modifier easy');
  io.out(
    '     npx moogle battle examples/ffrpg-wind-cave.yaml    npx moogle sim examples/ffrpg-wind-cave.yaml -n 10000',
  );
  io.out('Other systems, each with its own clock:');
  io.out('     npx moogle battle examples/ffviii-iron-giant.yaml        (FFVIII: the shot clock)');
  io.out(
    '     npx moogle battle examples/zodiac-keef-and-the-ogre.yaml (ZODIAC: Speed Points, ticks)',
  );
  io.out('     npx moogle battle examples/shining-force-gate.yaml       (Shining Force: a grid)');
  io.out(
    'In a battle the GM overrules the sheet in any system: gm hp heket -30, gm add goblin to enemies, help gm.',
  );
}

/**
 * "Combat in Action" replayed on the engine with the starter content: the text's own dice are
 * entered for the opening, the rest of the fight is seeded.
 */
function runBattleDemo(io: Io): void {
  const read = readEncounterFile(EXAMPLE, SYSTEMS);
  if (!read.ok) throw new Error(read.errors.map(formatContentError).join('\n'));
  const created = Encounter.create(ffrpg, read.encounter.setup, DEMO_SEED);
  if (!created.ok) throw new Error(created.error.message);
  const battle = created.value;
  io.out(
    'FFRPG "Combat in Action", the text\'s dice entered: Initiatives 15, 14, 12 and the Heket\'s 12.',
  );
  const show = (events: readonly FfrpgEvent[]): void => {
    for (const line of describeEvents(events, battle.state)) io.out(`  ${line}`);
  };
  const opening = battle.submit(
    { type: 'begin-round' },
    {
      entered: {
        'initiative:hiro': [10],
        'initiative:haze': [6],
        'initiative:mint': [4],
        'initiative:heket': [6],
      },
    },
  );
  if (opening.ok) show(opening.value);
  const shot = battle.submit(
    { type: 'attack', actor: 'hiro', target: 'heket' },
    { entered: { 'hit:heket': [2, 8], 'damage:heket': [10] } },
  );
  if (shot.ok) show(shot.value);
  let commands = 0;
  while (!battle.outcome().over && commands++ < 500) {
    // A simple table policy: everyone attacks the first enemy they can.
    const choice = battle
      .legalActions()
      .find((a) => a.command.type === 'begin-round' || a.command.type === 'attack');
    if (choice === undefined) break;
    battle.submit(choice.command);
  }
  const outcome = battle.outcome();
  const rewards = battle.state.rewards;
  io.out(`  ...round ${battle.state.round}: ${outcome.over ? outcome.reason : 'still fighting'}.`);
  if (rewards !== null) {
    io.out(
      `  ${rewards.xp} XP and ${rewards.gil} Gil: ${rewards.shares.map((s) => `${battle.state.combatants[s.id]?.sheet.name} ${s.xp} XP`).join(', ')}.`,
    );
  }
}

export function registerDemo(program: Command, io: Io): void {
  program
    .command('demo')
    .description('a short tour: rolls from the rule texts and exact odds')
    .action(() => runDemo(io));
}
