import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import { BalancePanel } from '../balance/balance-panel.js';
import { Clock } from '../clock/clock.js';
import type { GmKit, TableInfo } from '../types.js';
import { useLive } from '../use-live.js';
import { ActionsPanel } from './actions.js';
import { CombatantCard, Combatants } from './combatants.js';
import { AddCombatant } from './gm-add.js';
import { FinishFight, GmLine, GmRoll, UndoRedo } from './gm-tools.js';
import { LogPanel } from './log.js';
import { OrderRollEntry, OrderRollsEntered } from './order-rolls.js';
import { WhoIsHere } from './presence.js';
import { ClosedBanner, ConnectionStatus, OutcomeBanner, playedBy, TurnLine } from './status.js';
import { type GmTouch, sendGm } from './touch.js';
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
  // What the GM's touch controls offer: the system's statuses and clock, content to add.
  const [kit, setKit] = useState<GmKit | null>(null);
  const isGm = role.role === 'gm';
  useEffect(() => {
    if (!isGm) return;
    let current = true;
    api
      .get<GmKit>(`/api/encounters/${encodeURIComponent(encounterId)}/gm-kit`)
      .then((k) => current && setKit(k))
      .catch(() => current && setKit(null));
    return () => {
      current = false;
    };
  }, [api, encounterId, isGm]);
  const mine = role.role === 'player' ? role.characterId : undefined;
  const actor = snapshot.state?.view.actor;
  useYourTurn(
    mine !== undefined && actor === mine && snapshot.state?.outcome.over === false,
    sound,
  );

  const back = (
    <>
      <button type="button" class="back" onClick={onLeave}>
        ← {info.table.name}
      </button>{' '}
      {/* A player's sheet during the fight, one touch away (the campaign page). */}
      <a class="button back" href="#/campaign">
        {info.role.role === 'gm' ? 'Campaign' : 'My sheet'}
      </a>
    </>
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
  const touch: GmTouch | undefined = gm ? { live, snapshot, kit } : undefined;
  const clock = (
    <Clock
      system={system}
      view={view}
      actions={state.actions}
      onPick={setSelected}
      onMove={
        touch &&
        ((id, value) =>
          sendGm(
            touch,
            { type: 'gm-clock', target: id, value, relative: false },
            `gm clock ${id} ${value}`,
          ))
      }
      onPlace={
        touch &&
        ((id, cell) =>
          sendGm(touch, { type: 'gm-move', target: id, to: cell }, `gm move ${id} ${cell}`))
      }
    />
  );
  const header = (
    <header class="screen-head">
      {back}
      <h1>{title}</h1>
      <ConnectionStatus connection={snapshot.connection} reconnects={snapshot.reconnects} />
      <TurnLine view={view} mine={mine} />
      <OutcomeBanner outcome={state.outcome} view={view} />
      <ClosedBanner status={state.status} />
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
              touch={touch}
              played={playedBy(state.connected)}
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
            {touch && state.status === 'active' && <AddCombatant touch={touch} view={view} />}
            {/* A finished or abandoned fight takes no more overrides: the server would refuse. */}
            {state.status === 'active' && <GmLine snapshot={snapshot} live={live} />}
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
