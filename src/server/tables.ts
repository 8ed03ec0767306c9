import { randomBytes } from 'node:crypto';
import type { ContentLibrary } from '../content/index.js';
import { seededDice } from '../dice/index.js';
import { CommandDice, Encounter, err, ok, type Result } from '../engine/index.js';
import type { CampaignRoster, CampaignService, JsonValue } from '../rulesets/campaign.js';
import { SYSTEMS, systemById } from '../rulesets/index.js';
import type { AnySystem } from '../rulesets/system.js';
import type {
  CampaignLogRecord,
  CreatedToken,
  EncounterRecord,
  RosterEntry,
  RosterRow,
  Store,
  TableRecord,
  TokenRole,
} from '../store/index.js';
import { seedTableLibrary, tableLibrary } from './library/library.js';
import { starterLibrary, systemOfTable } from './starter.js';
import { draftEncounter } from './tune/draft.js';

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
  return rosterOf(system, await store.getRoster(table.id));
}

/** Rows as stored, read as the system's campaign rules read a roster. */
function rosterOf(
  system: AnySystem,
  rows: readonly Pick<RosterEntry, 'characterId' | 'state'>[],
): Result<CampaignRoster> {
  const campaign = system.campaign;
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

/** Who made a change, as the campaign log names them when nobody signed in: the CLI. */
export const BY_CLI = 'cli';

/** A character joins the table's roster from its content sheet: an entry of the campaign log. */
export async function recruit(
  store: Store,
  table: TableRecord,
  characterId: string,
  by: string = BY_CLI,
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
  const before = await store.getRoster(table.id);
  const state = campaign.recruit(library.value.library, characterId);
  if (!state.ok) return state;
  const lib = library.value.library;
  const sheet = lib
    .kinds()
    .flatMap((kind) => lib.all(kind))
    .find((entity) => entity.id === characterId) as { name?: unknown } | undefined;
  const name = typeof sheet?.name === 'string' ? sheet.name : characterId;
  const changed = await store.changeRoster(
    table.id,
    {
      kind: 'recruit',
      service: { character: characterId },
      report: [`${name} joins the party.`],
      by,
      before: before.map(rowOf),
    },
    [...before.map(rowOf), { characterId, state: state.value }],
  );
  return changed.ok ? ok(state.value) : changed;
}

function rowOf(entry: RosterEntry): RosterRow {
  return { characterId: entry.characterId, state: entry.state };
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
  const parsed = draftEncounter(system.value, library.value.library, roster.value, request.file);
  if (!parsed.ok) return parsed;
  const seed = request.seed ?? randomBytes(8).toString('hex');
  const created = Encounter.create(system.value.ruleset, parsed.value.setup, seed);
  if (!created.ok) return created;
  return store.createEncounter({
    tableId: table.id,
    name: request.name ?? parsed.value.name,
    ruleset: system.value.ruleset.id,
    setup: parsed.value.setup,
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
  by: string = BY_CLI,
): Promise<Result<Finished>> {
  const system = systemOfTable(table);
  if (!system.ok) return system;
  const campaign = system.value.campaign;
  if (!encounter.outcome().over) {
    return err('encounter/not-over', 'the fight is not over: finish it, or abandon it');
  }
  const library = await tableLibrary(store, table);
  if (!library.ok) return library;
  const rows = await store.getRoster(table.id);
  const roster = rosterOf(system.value, rows);
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
  const finished = await store.finishEncounter(encounterId, rosterRows(step.value.roster), {
    report: step.value.report,
    by,
    before: rows.map(rowOf),
  });
  if (!finished.ok) return finished;
  return ok({ record: finished.value, report: step.value.report });
}

/** What a service costs in the system's money: paid when positive, received when negative. */
export interface ServiceCost {
  readonly unit: string;
  readonly amount: number;
}

export interface ServiceOutcome {
  readonly report: readonly string[];
  /** Null in a system without money (FFVIII, ZODIAC). */
  readonly cost: ServiceCost | null;
  /** The roster after the service: as it now is, or (a quote) as it would be. */
  readonly roster: CampaignRoster;
  /** The campaign log's entry; absent for a quote, which saves nothing. */
  readonly entry?: CampaignLogRecord;
}

export interface ServiceOptions {
  /** Who asks, for the campaign log. */
  readonly by?: string;
  /** Work it out and say what it would cost and do, saving nothing. */
  readonly dryRun?: boolean;
  /** The dice stream's seed; a random one otherwise. */
  readonly seed?: string;
}

/**
 * Between fights: a service the system's text offers (a priest, a store, a rest), an entry of
 * the campaign log; or, as a dry run, its report and cost before the GM confirms it. A service
 * that rolls (FFVIII's `cast`) may roll otherwise when bought than when quoted: a quote's
 * cost is the text's price and never depends on a roll.
 */
export async function applyService(
  store: Store,
  table: TableRecord,
  input: unknown,
  options: ServiceOptions = {},
): Promise<Result<ServiceOutcome>> {
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
  const rows = await store.getRoster(table.id);
  const roster = rosterOf(system.value, rows);
  if (!roster.ok) return roster;
  const seed = options.seed ?? randomBytes(8).toString('hex');
  const dice = new CommandDice(seededDice(seed), { explain: true });
  const step = campaign.applyService(
    library.value.library,
    roster.value,
    parsed.data as CampaignService,
    dice,
  );
  if (!step.ok) return step;
  const money = campaign.money;
  const cost =
    money === undefined
      ? null
      : { unit: money.unit, amount: money.purse(roster.value) - money.purse(step.value.roster) };
  if (options.dryRun === true) {
    return ok({ report: step.value.report, cost, roster: step.value.roster });
  }
  const changed = await store.changeRoster(
    table.id,
    {
      kind: 'service',
      service: parsed.data as unknown as JsonValue,
      report: step.value.report,
      by: options.by ?? BY_CLI,
      before: rows.map(rowOf),
    },
    rosterRows(step.value.roster),
  );
  if (!changed.ok) return changed;
  return ok({ report: step.value.report, cost, roster: step.value.roster, entry: changed.value });
}

/**
 * Undoes the campaign log's newest entry not undone (`expected`: only if it is that one): the
 * roster as it was before it. A fight's rewards undone leave the fight finished
 * (docs/campaign.md, "Undo").
 */
export async function undoCampaign(
  store: Store,
  table: TableRecord,
  by: string = BY_CLI,
  expected?: number,
): Promise<Result<CampaignLogRecord>> {
  const missing = await undoWouldOrphan(store, table, expected);
  if (!missing.ok) return missing;
  return store.undoCampaignEntry(table.id, by, expected);
}

/**
 * Refused when the roster an undo brings back names content the library no longer holds (an
 * item sold, then deleted from the library, then the sale undone): the library refuses to
 * delete what the roster holds, and an undo must not bring it back by the other door.
 */
async function undoWouldOrphan(
  store: Store,
  table: TableRecord,
  expected: number | undefined,
): Promise<Result<true>> {
  const [newest] = (await store.campaignLog(table.id)).filter((e) => e.undoneAt === null);
  // Nothing to undo, or not that one: the store's own refusal says so.
  if (newest === undefined || (expected !== undefined && newest.n !== expected)) return ok(true);
  const read = await tableLibrary(store, table);
  if (!read.ok) return read;
  const { system, library } = read.value;
  const missing = missingFromLibrary(system, library, newest.before);
  if (!missing.ok) return missing;
  if (missing.value.length === 0) return ok(true);
  return err(
    'campaign/undo-missing-content',
    `undoing entry ${newest.n} would bring back what the library no longer holds: ${missing.value.join('; ')}. Add it to the library again first`,
  );
}

/**
 * What roster rows name (an item carried, a class, the party's level table) that the library
 * does not hold, each with who holds it: `item 'healing-seed', held by 'max' (carried)`.
 */
export function missingFromLibrary(
  system: AnySystem,
  library: ContentLibrary,
  rows: readonly Pick<RosterEntry, 'characterId' | 'state'>[],
): Result<string[]> {
  const roster = rosterOf(system, rows);
  if (!roster.ok) return roster;
  const references = system.campaign.references(roster.value);
  if (!references.ok) return references;
  const gone = new Map<string, string[]>();
  for (const r of references.value) {
    const kind = system.kinds.find((k) => k.kind === r.kind);
    if (kind !== undefined && library.get(kind, r.id) !== undefined) continue;
    const who = r.holder === null ? 'the party' : `'${r.holder}'`;
    const key = `${r.kind.split('/')[1] ?? r.kind} '${r.id}'`;
    gone.set(key, [...(gone.get(key) ?? []), `${who} (${r.where})`]);
  }
  return ok([...gone].map(([what, who]) => `${what}, held by ${who.join(', ')}`));
}
