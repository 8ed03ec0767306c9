import { render } from 'preact';
import { tableFromPath } from './api.js';
import { App } from './app.js';
import './style.css';

const root = document.getElementById('app')!;
const tableId = tableFromPath(location.pathname);
render(
  tableId === undefined ? (
    <main class="page">
      <h1>Moogle</h1>
      <p>Open the table link your GM gave you: it looks like /t/… on this server.</p>
    </main>
  ) : (
    <App tableId={tableId} />
  ),
  root,
);
