import { randomBytes } from 'node:crypto';
import { seededDice } from '../dice/index.js';
import { parseEncounterText } from '../encounters/file.js';
import { CommandDice, Encounter, err, ok, type Result } from '../engine/index.js';
import type { CampaignRoster, CampaignService, JsonValue } from '../rulesets/campaign.js';
import { SYSTEMS, systemById } from '../rulesets/index.js';
import type { AnySystem } from '../rulesets/system.js';
import type {
  CreatedToken,
  EncounterRecord,
  Store,
  TableRecord,
  TokenRole,
} from '../store/index.js';
import { seedTableLibrary, tableLibrary } from './library/library.js';
import { starterLibrary, systemOfTable } from './starter.js';

/**
 * What a table's GM does outside an encounter: create the table, invite, keep the roster, start
 * a fight and apply its results. Shared by the CLI (`moogle table ...`) and the HTTP API, so
 * both do exactly the same; the rules come from the table's system, never from here.
 */

/** The roster row that holds what the party shares; content ids never start with `@`. */
export const PARTY_ROW = '@party';

export { starterLibrary, systemOfTable };

export async function createTable(
  store: Store,
  systemId: string,
  name: string,
): Promise<Result<{ table: TableRecord; gm: CreatedToken }>> {
  const system = systemById(systemId);
  if (system === undefined) {
    return err(
      'table/unknown-system',
      `unknown system '${systemId}': one of ${SYSTEMS.map((s) => s.ruleset.id).join(', ')}`,
    );
  }
  const table = await store.createTable({ systemId, name });
  if (!table.ok) return table;
  const gm = await store.createToken(table.value.id, { role: 'gm' });
  if (!gm.ok) return gm;
  const party = await store.putRosterEntry(table.value.id, PARTY_ROW, system.campaign.emptyParty);
  if (!party.ok) return party;
  // A new table starts with its own copy of the starter content, the GM's to change.
  const seeded = await seedTableLibrary(store, table.value);
  if (!seeded.ok) return seeded;
  return ok({ table: table.value, gm: gm.value });
}

export async function invite(
  store: Store,
  table: TableRecord,
  role: TokenRole,
): Promise<Result<CreatedToken>> {
  if (role.role === 'player') {
    const entry = await store.getRosterEntry(table.id, role.characterId);
    if (entry === undefined || role.characterId === PARTY_ROW) {
      return err(
        'invite/not-on-roster',
        `'${role.characterId}' is not on this table's roster: add the character first`,
      );
    }
  }
  return store.createToken(table.id, role);
}

/** The roster as the system's campaign rules read it, checked like any input. */
export async function readRoster(
  store: Store,
  table: TableRecord,
  system: AnySystem,
): Promise<Result<CampaignRoster>> {
  const campaign = system.campaign;
  const rows = await store.getRoster(table.id);
  const characters: Record<string, JsonValue> = {};
  let party: JsonValue = campaign.emptyParty;
  for (const row of rows) {
    if (row.characterId === PARTY_ROW) party = row.state;
    else characters[row.characterId] = row.state;
  }
  return campaign.parseRoster({ characters, party });
}

function rosterRows(roster: CampaignRoster): { characterId: string; state: JsonValue }[] {
  return [
    { characterId: PARTY_ROW, state: roster.party },
    ...Object.entries(roster.characters).map(([characterId, state]) => ({ characterId, state })),
  ];
}

/** A character joins the table's roster from its content sheet. */
export async function recruit(
  store: Store,
  table: TableRecord,
  characterId: string,
): Promise<Result<JsonValue>> {
  const system = systemOfTable(table);
  if (!system.ok) return system;
  const campaign = system.value.campaign;
  const library = await tableLibrary(store, table);
  if (!library.ok) return library;
  if (characterId.startsWith('@'))
    return err('roster/bad-id', 'a character id never starts with @');
  if ((await store.getRosterEntry(table.id, characterId)) !== undefined) {
    return err('roster/exists', `'${characterId}' is on the roster already`);
  }
  const state = campaign.recruit(library.value.library, characterId);
  if (!state.ok) return state;
  const put = await store.putRosterEntry(table.id, characterId, state.value);
  return put.ok ? ok(state.value) : put;
}

export interface StartEncounter {
  /** An encounter file's text (YAML or JSON), as `moogle battle` reads one. */
  readonly file: string;
  /** Shown in lists; the file's own name otherwise. */
  readonly name?: string;
  /** The dice stream's seed; a random one otherwise (recorded, so the fight replays). */
  readonly seed?: string;
}

/**
 * Starts a fight from an encounter file, every roster character in it starting from its
 * lasting state. Errors name the place in the file, as the CLI's do.
 */
export async function startEncounter(
  store: Store,
  table: TableRecord,
  request: StartEncounter,
): Promise<Result<EncounterRecord>> {
  const system = systemOfTable(table);
  if (!system.ok) return system;
  const roster = await readRoster(store, table, system.value);
  if (!roster.ok) return roster;
  const library = await tableLibrary(store, table);
  if (!library.ok) return library;
  const parsed = parseEncounterText(
    'encounter',
    request.file,
    [system.value],
    (dirs) => {
      if (dirs.length > 1) {
        return {
          ok: false,
          errors: [
            {
              file: 'encounter',
              path: 'content',
              message:
                "the server reads only its own content: an encounter sent to it has no 'content' folders",
            },
          ],
        };
      }
      // The table's own library, never the package's: the encounter is built from what the
      // GM keeps, and carries the sheets it uses in its setup from then on.
      return { ok: true, library: library.value.library };
    },
    (sys, library, spec) => sys.campaign.setupFrom(library, spec, roster.value),
  );
  if (!parsed.ok) {
    const first = parsed.errors[0]!;
    const where = [first.path, first.line === undefined ? '' : `line ${first.line}`]
      .filter(Boolean)
      .join(', ');
    const more = parsed.errors.length > 1 ? ` (and ${parsed.errors.length - 1} more)` : '';
    return err('encounter/bad-file', `${where ? `${where}: ` : ''}${first.message}${more}`);
  }
  const seed = request.seed ?? randomBytes(8).toString('hex');
  const created = Encounter.create(system.value.ruleset, parsed.encounter.setup, seed);
  if (!created.ok) return created;
  return store.createEncounter({
    tableId: table.id,
    name: request.name ?? parsed.encounter.name,
    ruleset: system.value.ruleset.id,
    setup: parsed.encounter.setup,
    initialDice: created.value.diceState,
  });
}

export interface Finished {
  readonly record: EncounterRecord;
  readonly report: readonly string[];
}

/**
 * Applies a fight that is over to the roster, once: the system's rules say what it gives;
 * rolls between fights continue the encounter's own dice stream, so the result replays.
 */
export async function finishEncounter(
  store: Store,
  table: TableRecord,
  encounter: Encounter<unknown, unknown, { type: string }, { type: string }>,
  encounterId: string,
): Promise<Result<Finished>> {
  const system = systemOfTable(table);
  if (!system.ok) return system;
  const campaign = system.value.campaign;
  if (!encounter.outcome().over) {
    return err('encounter/not-over', 'the fight is not over: finish it, or abandon it');
  }
  const library = await tableLibrary(store, table);
  if (!library.ok) return library;
  const roster = await readRoster(store, table, system.value);
  if (!roster.ok) return roster;
  const dice = new CommandDice(seededDice(encounter.diceState), { explain: true });
  const step = campaign.afterBattle(
    library.value.library,
    encounter.setup,
    encounter.state,
    roster.value,
    dice,
  );
  if (!step.ok) return step;
  const finished = await store.finishEncounter(encounterId, rosterRows(step.value.roster));
  if (!finished.ok) return finished;
  return ok({ record: finished.value, report: step.value.report });
}

/** Between fights: a service the system's text offers (a priest, a store, a rest). */
export async function applyService(
  store: Store,
  table: TableRecord,
  input: unknown,
  seed: string = randomBytes(8).toString('hex'),
): Promise<Result<readonly string[]>> {
  const system = systemOfTable(table);
  if (!system.ok) return system;
  const campaign = system.value.campaign;
  const parsed = campaign.services.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return err('service/invalid', `${issue.path.join('.') || 'service'}: ${issue.message}`);
  }
  const library = await tableLibrary(store, table);
  if (!library.ok) return library;
  const roster = await readRoster(store, table, system.value);
  if (!roster.ok) return roster;
  const dice = new CommandDice(seededDice(seed), { explain: true });
  const step = campaign.applyService(
    library.value.library,
    roster.value,
    parsed.data as CampaignService,
    dice,
  );
  if (!step.ok) return step;
  const put = await store.putRoster(table.id, rosterRows(step.value.roster));
  if (!put.ok) return put;
  return ok(step.value.report);
}
