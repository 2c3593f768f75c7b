// The build error overlay of `sitegen dev`: an alert dialog over the page (the last version that
// built) listing each problem with its file:line, message, what to do, and the offending lines.
// It lives in a shadow root, so neither the page's CSS nor its ids reach it; Escape or the button
// hides it until the next build result, and it removes itself when a build succeeds.

const TAG = 'sitegen-error-overlay';

const STYLE = `
:host { all: initial; }
.backdrop { position: fixed; inset: 0; z-index: 2147483647; background: rgba(15, 23, 42, 0.66); overflow: auto;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.dialog { max-width: 60rem; margin: 4vh auto; padding: 1.5rem 1.75rem; background: #0f172a; color: #f1f5f9;
  border-top: 6px solid #f87171; border-radius: 0.5rem; box-shadow: 0 20px 50px rgba(0, 0, 0, 0.5); }
.dialog:focus { outline: 3px solid #fbbf24; outline-offset: 2px; }
h2 { margin: 0 0 0.25rem; font-size: 1.25rem; color: #fecaca; }
.intro { margin: 0 0 1rem; color: #cbd5e1; }
ol { margin: 0; padding: 0; list-style: none; }
li { margin: 0 0 1.25rem; }
.location { font: 600 0.95rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #fde68a; }
.code { color: #94a3b8; font-weight: 400; }
.message { margin: 0.25rem 0; white-space: pre-wrap; }
.hint { margin: 0.25rem 0 0.5rem; color: #cbd5e1; }
pre:focus-visible { outline: 3px solid #fbbf24; outline-offset: 2px; }
pre { margin: 0; padding: 0.5rem 0; background: #020617; border-radius: 0.375rem; overflow-x: auto;
  font: 0.875rem/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #e2e8f0; }
.line { display: block; padding: 0 0.75rem; white-space: pre; }
.line.offending { background: #7f1d1d; color: #fff; }
.number { display: inline-block; min-width: 3ch; margin-right: 1ch; text-align: right; color: #94a3b8; user-select: none; }
.offending .number { color: #fecaca; }
mark { background: none; color: inherit; }
button { margin-top: 0.5rem; padding: 0.4rem 0.9rem; border: 1px solid #94a3b8; border-radius: 0.375rem;
  background: #1e293b; color: #f1f5f9; font: inherit; cursor: pointer; }
button:focus-visible { outline: 3px solid #fbbf24; outline-offset: 2px; }
`;

let previousFocus = null;

/** Creates an element with a class and text. */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The numbered excerpt of a problem's file, the offending line marked. */
function excerptOf(problem) {
  const pre = el('pre');
  pre.setAttribute('aria-label', `${problem.location}, the lines around it`);
  // Long lines scroll sideways: the keyboard must reach the scrolling box too.
  pre.tabIndex = 0;
  for (const { line, text, offending } of problem.excerpt) {
    const row = el('span', offending ? 'line offending' : 'line');
    row.append(el('span', 'number', offending ? `>${line}` : String(line)), offending ? el('mark', '', text) : text);
    pre.append(row);
  }
  return pre;
}

/** Shows (or updates) the overlay with the build's problems and moves the focus into it. */
export function showProblems(problems) {
  hideProblems({ restoreFocus: false });
  const host = document.createElement(TAG);
  const root = host.attachShadow({ mode: 'open' });
  const style = el('style', '', STYLE);
  const backdrop = el('div', 'backdrop');
  const dialog = el('div', 'dialog');
  dialog.setAttribute('role', 'alertdialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', 'sitegen-title');
  dialog.setAttribute('aria-describedby', 'sitegen-intro');
  dialog.tabIndex = -1;
  const title = el('h2', '', problems.length === 1 ? 'The build failed: 1 problem' : `The build failed: ${problems.length} problems`);
  title.id = 'sitegen-title';
  const intro = el('p', 'intro', 'The page below is the last version that built. Fix the problem and save: this message goes away and the page reloads.');
  intro.id = 'sitegen-intro';
  const list = el('ol');
  for (const problem of problems) {
    const item = el('li');
    const location = el('div', 'location', problem.location);
    location.append(' ', el('span', 'code', `[${problem.code}]`));
    item.append(location, el('p', 'message', problem.message), el('p', 'hint', problem.hint));
    if (problem.excerpt.length > 0) item.append(excerptOf(problem));
    list.append(item);
  }
  const close = el('button', '', 'Hide until the next save');
  close.type = 'button';
  close.addEventListener('click', () => hideProblems());
  dialog.append(title, intro, list, close);
  backdrop.append(dialog);
  root.append(style, backdrop);
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') hideProblems();
    // Keep the focus inside the dialog (it is modal): Tab and Shift+Tab cycle through its excerpts and button.
    if (event.key === 'Tab') {
      event.preventDefault();
      const stops = [...dialog.querySelectorAll('pre, button')];
      const at = stops.indexOf(root.activeElement);
      stops[(at + (event.shiftKey ? -1 : 1) + stops.length) % stops.length].focus();
    }
  });
  if (!previousFocus) previousFocus = document.activeElement;
  document.documentElement.append(host);
  dialog.focus();
}

/** Removes the overlay, if shown, and gives the focus back to where it was. */
export function hideProblems({ restoreFocus = true } = {}) {
  const host = document.querySelector(TAG);
  if (!host) return;
  host.remove();
  if (restoreFocus && previousFocus && typeof previousFocus.focus === 'function') previousFocus.focus();
  if (restoreFocus) previousFocus = null;
}
