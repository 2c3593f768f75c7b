// The dev client: added by the `sitegen dev` server to every page it serves (never to a build).
// It listens to the server's event stream, reloads the page when the page changed, and shows the
// build's problems in an overlay until they are fixed. The page and version it shows are in this
// module's own URL (`dev-client.js?file=de.html&version=…`), which the server reads back.
import { hideProblems, showProblems } from './error-overlay.js';

const events = new EventSource(`/__sitegen/events${new URL(import.meta.url).search}`);
events.addEventListener('reload', () => location.reload());
events.addEventListener('problems', (event) => showProblems(JSON.parse(event.data)));
events.addEventListener('ok', () => hideProblems());
