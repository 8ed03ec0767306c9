import { render } from 'preact';
import { tokenFromPath } from './api.js';
import { App } from './app.js';
import './style.css';

const root = document.getElementById('app')!;
const token = tokenFromPath(location.pathname);
render(
  token === undefined ? (
    <main class="page">
      <h1>Moogle</h1>
      <p>Open the table link your GM gave you: it looks like /t/… on this server.</p>
    </main>
  ) : (
    <App token={token} />
  ),
  root,
);
