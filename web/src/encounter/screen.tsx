import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import { BalancePanel } from '../balance/balance-panel.js';
import { Clock } from '../clock/clock.js';
import type { TableInfo } from '../types.js';
import { useLive } from '../use-live.js';
import { ActionsPanel } from './actions.js';
import { CombatantCard, Combatants } from './combatants.js';
import { FinishFight, GmLine, GmRoll, UndoRedo } from './gm-tools.js';
import { LogPanel } from './log.js';
import { OrderRollEntry, OrderRollsEntered } from './order-rolls.js';
import { WhoIsHere } from './presence.js';
import { ConnectionStatus, OutcomeBanner, TurnLine } from './status.js';
import { TurnSoundToggle, useTurnSound, useYourTurn } from './your-turn.js';

interface Props {
  readonly api: Api;
  readonly info: TableInfo;
  readonly encounterId: string;
  readonly name: string;
  readonly onLeave: () => void;
}

/** One encounter, live: the GM's screen or a player's, from what the server sends each. */
export function EncounterScreen({ api, info, encounterId, name, onLeave }: Props) {
  const [live, snapshot] = useLive(api, encounterId);
  const [selected, setSelected] = useState<number | null>(null);
  const seq = snapshot.state?.seq;
  // The actions on offer change with every entry: a choice made before one is void.
  useEffect(() => setSelected(null), [seq]);
  const [sound, setSound] = useTurnSound();
  const role = snapshot.role ?? info.role;
  const mine = role.role === 'player' ? role.characterId : undefined;
  const actor = snapshot.state?.view.actor;
  useYourTurn(
    mine !== undefined && actor === mine && snapshot.state?.outcome.over === false,
    sound,
  );

  const back = (
    <button type="button" class="back" onClick={onLeave}>
      ← {info.table.name}
    </button>
  );
  if (snapshot.fatal !== null) {
    return (
      <main class="page">
        {back}
        <p role="alert" class="refusal">
          This encounter does not open with this link: {snapshot.fatal}
        </p>
      </main>
    );
  }
  const state = snapshot.state;
  if (state === null) {
    return (
      <main class="page" aria-busy="true">
        {back}
        <ConnectionStatus connection={snapshot.connection} reconnects={snapshot.reconnects} />
        <p>Joining {name}…</p>
      </main>
    );
  }
  const gm = role.role === 'gm';
  const system = snapshot.encounter?.system ?? info.table.systemId;
  const view = state.view;
  const title = snapshot.encounter?.name ?? name;
  const clock = <Clock system={system} view={view} actions={state.actions} onPick={setSelected} />;
  const header = (
    <header class="screen-head">
      {back}
      <h1>{title}</h1>
      <ConnectionStatus connection={snapshot.connection} reconnects={snapshot.reconnects} />
      <TurnLine view={view} mine={mine} />
      <OutcomeBanner outcome={state.outcome} view={view} />
    </header>
  );

  if (gm) {
    return (
      <main class="gm-screen" data-seq={state.seq}>
        {header}
        <div class="gm-grid">
          <div class="gm-main">
            {clock}
            <Combatants
              view={view}
              gm
              revealed={new Set(snapshot.state?.revealed ?? [])}
              onReveal={(id, shown) => live.reveal(id, shown)}
            />
          </div>
          <div class="gm-side">
            <ActionsPanel
              snapshot={snapshot}
              live={live}
              selected={selected}
              setSelected={setSelected}
              heading="Legal actions"
            />
            {state.orderRolls && <OrderRollsEntered order={state.orderRolls} view={view} />}
            <WhoIsHere connected={state.connected} view={view} />
            <UndoRedo snapshot={snapshot} live={live} />
            <GmLine snapshot={snapshot} live={live} />
            <GmRoll snapshot={snapshot} live={live} />
            <FinishFight api={api} encounterId={encounterId} snapshot={snapshot} />
            <BalancePanel api={api} encounterId={encounterId} entry={state.seq} />
          </div>
        </div>
        <LogPanel entries={snapshot.entries} />
      </main>
    );
  }

  const me = view.combatants.find((c) => c.id === mine);
  return (
    <main class="player-screen" data-seq={state.seq}>
      {header}
      {me && <CombatantCard c={me} view={view} gm={false} mine />}
      {me && <TurnSoundToggle on={sound} set={setSound} />}
      {role.role === 'player' && <OrderRollEntry snapshot={snapshot} live={live} />}
      {role.role === 'player' && (
        <ActionsPanel
          snapshot={snapshot}
          live={live}
          selected={selected}
          setSelected={setSelected}
          heading={state.actions.length > 0 ? 'Your actions' : 'Waiting for your turn'}
        />
      )}
      {clock}
      <Combatants view={view} gm={false} mine={mine} skip={me?.id} />
      <LogPanel entries={snapshot.entries} />
    </main>
  );
}
