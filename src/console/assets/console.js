// The approvals console's page: lists runs (waiting first), shows one run's phases, lets the
// person approve or reject the exact digest of a phase waiting for approval, and shows finished
// phases' audit records. Every text from the server is put in the page as text, never as markup.
'use strict';

// `shown` is what the detail last drew of the selected run (its status and each phase's state),
// so an update can announce what changed.
const state = { session: '', selected: null, notice: null, busy: false, shown: null };
const SESSION_KEY = 'codemode-console-session';

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Every API request carries the session id as a header: it lives in this origin's
// sessionStorage, never in a cookie (docs/console.md, "Access").
async function api(path, options = {}) {
  const headers = { ...(options.headers || {}), 'X-Codemode-Session': state.session };
  const response = await fetch(path, { ...options, headers, credentials: 'omit' });
  let body = null;
  try { body = await response.json(); } catch (_) { body = null; }
  return { status: response.status, body };
}

function when(millis) {
  if (!millis) return '';
  return new Date(millis).toLocaleString();
}

function untilText(millis) {
  const seconds = Math.round((millis - Date.now()) / 1000);
  if (seconds <= 0) return 'expired';
  if (seconds < 90) return `in ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `in ${minutes} min` : `in ${Math.round(minutes / 60)} h`;
}

// Costs are the tools' declared units, in millionths (costMicros).
function micros(value) {
  return value === undefined ? '' : `${value.toLocaleString()} micros`;
}

function status(text) {
  return el('span', { class: `status ${text}`, text: text.replace('_', ' ') });
}

function shortId(runId) {
  return `${runId.slice(0, 12)}…`;
}

// The one live region: a short status line (index.html). The detail is not live, so a screen
// reader says what changed instead of reading the whole run again on every update. The same
// message twice is cleared first, or it would not be announced again.
let announcements = 0;
function announce(text, kind = 'info') {
  const line = document.getElementById('status-line');
  const mine = ++announcements;
  line.className = `status-line ${kind}`;
  if (line.textContent === text) {
    line.textContent = '';
    setTimeout(() => { if (mine === announcements) line.textContent = text; }, 50);
  } else {
    line.textContent = text;
  }
}

// The source with the engine's line numbers, highlighted, every unusual character marked
// (source_view.js); a sentence above it says what was marked.
function sourceView(source) {
  const { rows, marks } = SourceView.render(source);
  const note = SourceView.summary(marks);
  return el('div', {},
    note ? el('div', { class: 'notice warn', 'data-testid': 'source-marks', text: note }) : null,
    el('div', { class: 'source', 'data-testid': 'source' }, el('table', {}, el('tbody', {}, rows))));
}

// Multi-line JSON, its unusual characters marked as in the source.
function jsonView(value, testid) {
  const marks = SourceView.newMarks();
  const nodes = SourceView.visibleBlock(JSON.stringify(value, null, 2), marks);
  const note = SourceView.summary(marks);
  return el('div', {},
    note ? el('div', { class: 'notice warn', 'data-testid': `${testid}-marks`, text: note }) : null,
    el('pre', { class: 'json', 'data-testid': testid }, nodes));
}

// A short text from the store (an intent, an id, a version) with its unusual characters marked.
function shown(text) {
  return SourceView.visibleBlock(String(text));
}

// In a box of its own that scrolls sideways if a narrow screen cannot fit it, never the page.
function table(headers, rows) {
  return el('div', { class: 'table-box' }, el('table', {},
    el('thead', {}, el('tr', {}, headers.map((h) => el('th', { text: h })))),
    el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((c) => el('td', {}, c)))))));
}

// ---- the console's worker loop ----
// A banner while its passes fail (a store that cannot be reached, say): what failed and since
// when. The status line says it once when it starts failing and once when it works again.
let workerFailing = false;
function showWorker(worker) {
  const notice = document.getElementById('worker-notice');
  const failing = worker ? worker.failing : null;
  notice.hidden = !failing;
  if (failing) {
    const { code, rule, message } = failing.error;
    notice.textContent = `The console's worker is failing since ${when(failing.since)}: ${message} ` +
      `(${code}, ${rule}). It keeps trying by itself.`;
  }
  if (Boolean(failing) !== workerFailing) {
    workerFailing = Boolean(failing);
    announce(failing ? "The console's worker is failing; it keeps trying."
                     : "The console's worker works again.", failing ? 'error' : 'info');
  }
}

// ---- the runs list ----
async function loadRuns() {
  const { status: code, body } = await api('/api/runs');
  if (code !== 200) return;
  showWorker(body.worker);
  const list = document.getElementById('runs');
  // Drawing the list again replaces its buttons: the focused one's run keeps the focus.
  const focused = document.activeElement?.closest?.('#runs button')?.dataset.run;
  list.replaceChildren(...body.runs.map((run) => {
    const waiting = run.pendingPhases.length;
    return el('li', {},
      el('button', {
        'aria-current': run.runId === state.selected ? 'true' : 'false',
        'data-run': run.runId,
        onclick: () => select(run.runId),
      },
      el('div', {}, status(run.status), ' ',
         waiting ? el('strong', { text: `${waiting} to review` }) : null),
      el('div', { class: 'run-id', text: run.runId.slice(0, 16) + '…' }),
      el('div', { class: 'muted', text: `${run.workflow.id} · ${when(run.createdAt)}` })));
  }));
  if (focused) [...list.querySelectorAll('button')].find((b) => b.dataset.run === focused)?.focus();
  document.getElementById('no-runs').hidden = body.runs.length > 0;
}

// ---- one run ----
function select(runId) {
  state.selected = runId;
  state.notice = null;
  history.replaceState(null, '', `#run=${runId}`);
  refresh();
}

// The focused control in the detail (its phase and test id), to focus its counterpart once the
// detail is drawn again: every update replaces its nodes, and a keyboard user keeps their place.
function focusKey(node) {
  const phase = node?.closest?.('#detail [data-phase]');
  const testid = node?.getAttribute?.('data-testid');
  return phase && testid ? { phase: phase.dataset.phase, testid } : null;
}

function refocus(key) {
  if (!key) return;
  // Found by comparison, not a selector: a phase id is the store's text.
  const section = [...document.querySelectorAll('#detail [data-phase]')]
    .find((node) => node.dataset.phase === key.phase);
  const target = section?.querySelector(`[data-testid="${CSS.escape(key.testid)}"]`);
  if (target && !target.disabled) target.focus();
}

// What changed in the selected run since the detail last drew it, as one sentence; '' when
// nothing did. A run not shown before is named with its status and the phases waiting for a
// decision. States that pass in moments (a running phase or run, a phase not ready) and a
// waiting run (its phases say it) are left out.
function changes(run) {
  const before = state.shown;
  const name = `Run ${shortId(run.runId)}`;
  const words = (text) => text.replaceAll('_', ' ');
  if (!before || before.runId !== run.runId || !before.phases) {
    const waiting = run.phases.filter((p) => p.state === 'awaiting_approval').map((p) => p.phaseId);
    return `${name}: ${words(run.status)}${waiting.length ? `; ${waiting.join(', ')} awaiting approval` : ''}.`;
  }
  const said = [];
  for (const phase of run.phases) {
    if (before.phases[phase.phaseId] === phase.state || ['running', 'not_ready'].includes(phase.state)) continue;
    said.push(`${phase.phaseId} ${words(phase.state)}`);
  }
  if (before.status !== run.status && !['running', 'waiting'].includes(run.status)) said.push(`run ${words(run.status)}`);
  return said.length ? `${name}: ${said.join(', ')}.` : '';
}

async function loadRun({ quiet = false } = {}) {
  const detail = document.getElementById('detail');
  if (!state.selected) return;
  const { status: code, body } = await api(`/api/runs/${state.selected}`);
  if (code !== 200) {
    const text = body?.error?.message || 'This run cannot be read.';
    detail.replaceChildren(el('div', { class: 'notice error', text }));
    const again = state.shown?.runId === state.selected && state.shown.error === text;
    state.shown = { runId: state.selected, error: text };
    if (!quiet && !again) announce(`Run ${shortId(state.selected)}: ${text}`, 'error');
    return;
  }
  if (state.busy) return;  // a decision is being sent: do not replace its buttons under the click
  const said = changes(body.run);
  const key = focusKey(document.activeElement);
  detail.replaceChildren(renderRun(body));
  refocus(key);
  state.shown = { runId: body.run.runId, status: body.run.status,
                  phases: Object.fromEntries(body.run.phases.map((p) => [p.phaseId, p.state])) };
  if (said && !quiet) announce(said);
}

function renderRun({ run, pending, audits }) {
  const ledger = run.ledger;
  const facts = el('dl', { class: 'facts' },
    el('dt', { text: 'Run' }), el('dd', { class: 'mono', text: run.runId }),
    el('dt', { text: 'Workflow' }), el('dd', {}, shown(`${run.workflow.id} v${run.workflow.version}`)),
    el('dt', { text: 'Started' }), el('dd', { text: when(run.createdAt) }),
    el('dt', { text: 'Last change' }), el('dd', { text: when(run.updatedAt) }),
    el('dt', { text: 'Budget' }),
    el('dd', { 'data-testid': 'ledger', text: `spent ${micros(ledger.spentMicros)} · reserved ${micros(ledger.reservedMicros)} · of ${micros(ledger.maxCostMicros)}` }));
  const parts = [
    el('h2', {}, 'Run ', status(run.status)),
    facts,
  ];
  parts.push(el('div', { class: 'notice-slot' }, noticeNode()));
  if (run.output !== undefined) parts.push(el('h4', { text: 'Result' }), jsonView(run.output, 'result'));
  if (run.error) parts.push(el('div', { class: 'notice error', text: `${run.error.code}: ${run.error.message}` }));
  for (const phase of run.phases) {
    const request = pending.find((p) => p.phaseId === phase.phaseId);
    // Own keys only: a phase may be called "toString".
    const audit = Object.hasOwn(audits, phase.phaseId) ? audits[phase.phaseId] : undefined;
    parts.push(renderPhase(phase, request, audit));
  }
  return el('div', {}, parts);
}

function noticeNode() {
  return state.notice
    ? el('div', { class: `notice ${state.notice.kind}`, 'data-testid': 'notice', text: state.notice.text })
    : null;
}

// The notice drawn into the detail as it stands, for when it cannot be drawn again (the console
// did not answer).
function showNotice() {
  document.querySelector('#detail .notice-slot')?.replaceChildren(...[noticeNode()].filter(Boolean));
}

function renderPhase(phase, request, audit) {
  const header = el('header', {}, el('h3', { text: phase.phaseId }), status(phase.state),
    phase.decidedBy ? el('span', { class: 'muted', text: `decided by ${phase.decidedBy} at ${when(phase.decidedAt)}` }) : null);
  const body = el('div', { class: 'body' });
  if (request) body.append(...renderRequest(request));
  if (phase.state === 'not_ready') {
    body.append(el('p', { class: 'muted', text: 'Waits for the phases it depends on to succeed; then it asks for its own approval.' }));
  }
  if (audit !== undefined) body.append(...renderAudit(audit));
  if (phase.error) body.append(el('div', { class: 'notice error', text: `${phase.error.code}: ${phase.error.message}` }));
  return el('section', { class: 'phase', 'data-phase': phase.phaseId }, header, body);
}

// What each tool runs, from the phase binding the digest binds (docs/workflows.md, "What an
// approval binds"): a command's argv one argument a line, and the content digest of every file it
// names. The argv is drawn like the input: every character shown, long arguments wrapped.
function renderBinding(binding) {
  const tools = (binding && binding.tools) || [];
  return el('div', { 'data-testid': 'binding' }, tools.map((tool) => {
    const runs = tool.runs || {};
    const command = Array.isArray(runs.command) ? runs.command : null;
    const marks = SourceView.newMarks();
    const what = command
      ? el('ol', { class: 'command', 'data-testid': 'command' },
        command.map((argument) => el('li', {}, SourceView.visibleBlock(String(argument), marks))))
      : Object.keys(runs).length > 0
        ? el('pre', { class: 'json' }, SourceView.visibleBlock(JSON.stringify(runs, null, 2), marks))
        : el('p', { class: 'muted', text: 'The host\'s own code (nothing outside it is bound).' });
    const note = SourceView.summary(marks);
    const files = (tool.files || []).map((file) => [
      el('span', { class: 'mono' }, shown(file.path)),
      el('span', { class: 'mono', title: file.content, text: file.content.startsWith('sha256:') ? file.content.slice(0, 23) + '…' : file.content })]);
    return el('div', { class: 'bound-tool' },
      el('div', {}, el('span', { class: 'mono' }, shown(tool.id)), ` · timeout ${Number(tool.timeoutMs).toLocaleString()} ms`),
      note ? el('div', { class: 'notice warn', text: note }) : null,
      what,
      files.length > 0 ? table(['file', 'content'], files) : null);
  }));
}

function renderRequest(request) {
  const tools = table(['tool', 'version', 'effects', 'cost'], (request.tools || []).map((tool) => [
    el('span', { class: 'mono' }, shown(tool.id)), shown(tool.version || ''),
    el('span', { class: `effects-${tool.effects}`, text: tool.effects }), micros(tool.costMicros || 0)]));
  const limits = table(['limit', 'value'], Object.entries(request.limits).map(([name, value]) =>
    [name, Number(value).toLocaleString()]));
  return [
    el('p', { class: 'intent', 'data-testid': 'intent' }, shown(request.intent)),
    el('div', { class: 'muted' }, 'Program ', el('span', { class: 'mono' }, shown(request.programId)),
       ' · effects ', el('span', { class: `effects-${request.effects}`, text: request.effects }),
       ` · reserves ${micros(request.costMicros)}`),
    el('h4', { text: 'Source' }), sourceView(request.source),
    el('div', { class: 'review-grid' },
      el('div', {}, el('h4', { text: 'Input' }), jsonView(request.input, 'input')),
      el('div', {}, el('h4', { text: 'Tools it may call' }), tools,
         el('h4', { text: 'Limits' }), limits)),
    el('h4', { text: 'What the tools run' }), renderBinding(request.binding),
    el('h4', { text: 'Approval digest' }),
    el('div', { class: 'digest mono', 'data-testid': 'digest', text: request.digest }),
    el('div', { class: 'muted', text: `Expires ${when(request.expiresAt)} (${untilText(request.expiresAt)})` }),
    el('div', { class: 'actions' },
      el('button', { class: 'approve', 'data-testid': 'approve', onclick: () => decide(request, 'approve') }, 'Approve this digest'),
      el('button', { class: 'reject', 'data-testid': 'reject', onclick: () => decide(request, 'reject') }, 'Reject')),
  ];
}

function renderAudit(audit) {
  if (audit === null) {
    return [el('h4', { text: 'Audit' }),
      el('div', { class: 'notice error', text: 'No audit record: the phase was interrupted; its effects are unknown.' })];
  }
  const usage = audit.usage;
  return [
    el('h4', { text: 'Audit' }),
    el('div', { 'data-testid': 'audit-outcome' }, 'Outcome ', status(audit.outcome),
       el('span', { class: 'muted', text: ` · program ${audit.programDigest.slice(0, 16)}…` })),
    el('h4', { text: 'Receipts' }),
    table(['call', 'tool', 'execution', 'disclosure'], audit.evidence.map(({ receipt }) => [
      el('span', { class: 'mono', text: receipt.callId.split(':').slice(-1)[0] }),
      el('span', { class: 'mono', text: receipt.toolId }), status(receipt.execution), receipt.disclosure])),
    el('h4', { text: 'Usage' }),
    table(['tool calls', 'unknown calls', 'known cost', 'unknown cost', 'maximum cost'], [[
      String(usage.toolCalls), String(usage.unknownCalls), micros(usage.knownCostMicros),
      micros(usage.unknownCostMicros), micros(usage.maximumCostMicros)]]),
  ];
}

async function decide(request, verb) {
  if (state.busy) return;
  const key = focusKey(document.activeElement);
  const buttons = [...document.querySelectorAll('#detail .actions button')];
  const ownPhase = (button) => button.closest('[data-phase]')?.dataset.phase === request.phaseId;
  const run = `Run ${shortId(request.runId)}`;
  const done = verb === 'approve' ? 'approved' : 'rejected';
  let decided = false;
  state.busy = true;
  for (const button of buttons) button.disabled = true;
  try {
    const { status: code, body } = await api(
      `/api/runs/${request.runId}/phases/${request.phaseId}/${verb}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ digest: request.digest }),
      });
    if (code === 200) {
      decided = true;
      state.notice = { kind: 'info', text: verb === 'approve'
        ? `Approved ${request.phaseId} (digest ${request.digest.slice(0, 12)}…).`
        : `Rejected ${request.phaseId}; the run ends blocked.` };
      announce(`${run}: ${request.phaseId} ${done}.`);
    } else if (code === 409) {
      const fresh = body?.pending?.[0];
      // The request may have been issued again already (the console's loop does, once it lapsed),
      // and then the answer cannot say why the digest is no longer the open one: the page can.
      const why = request.expiresAt <= Date.now()
        ? 'The request you reviewed expired; a new one was issued.'
        : body?.error?.message || 'The request changed.';
      state.notice = { kind: 'error', text: `${why} ` +
        (fresh ? `Nothing was ${done}: review the new request below (digest ${fresh.digest.slice(0, 12)}…).`
               : 'Nothing was decided.') };
      announce(`${run}: ${request.phaseId} was not ${done}: the request changed.`, 'error');
    } else {
      state.notice = { kind: 'error', text: `The console answered ${code}` +
        `${body?.error?.message ? `: ${body.error.message}` : ''}. Nothing was ${done}; you can try again.` };
      announce(`${run}: ${request.phaseId} was not ${done}: the console answered ${code}.`, 'error');
    }
  } catch (error) {
    // The request failed on the way (the console is down, the network dropped). It may or may
    // not have arrived: the run's state shows once the console answers again.
    state.notice = { kind: 'error', text: `The decision on ${request.phaseId} could not be sent ` +
      `or its answer was lost (${error.message}). Check the connection and try again; the run ` +
      'shows whether it was decided once the console answers.' };
    announce(`${run}: the decision on ${request.phaseId} failed: the console did not answer.`, 'error');
  } finally {
    // Whatever happened, the page stays usable even when the run cannot be loaded again below:
    // a decision that did not go through leaves every button enabled for another try; one that
    // did keeps only its own phase's buttons disabled.
    state.busy = false;
    for (const button of buttons) if (!(decided && ownPhase(button))) button.disabled = false;
    if (!decided && (!document.activeElement || document.activeElement === document.body)) refocus(key);
    showNotice();
  }
  await refresh({ quiet: true });
}

// Loads the runs and the selected run again. A failure to reach the console leaves the page as
// it was (a decision's own failure is in its notice); the next live update loads again.
async function refresh(options) {
  try {
    await loadRuns();
    await loadRun(options);
  } catch (_) {
    // see above
  }
}

// Live updates: the server-sent events of /api/events, read through fetch (EventSource cannot
// send the session header); reconnects after a second when the stream ends.
async function listen() {
  const live = document.getElementById('live');
  let version = null;
  for (;;) {
    try {
      const response = await fetch('/api/events', {
        headers: { 'X-Codemode-Session': state.session }, credentials: 'omit' });
      if (response.status !== 200) throw new Error(`events answered ${response.status}`);
      live.textContent = 'live';
      live.classList.add('on');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!event.startsWith('data: ')) continue;
          const next = JSON.parse(event.slice(6)).version;
          if (next !== version) { version = next; refresh(); }
        }
      }
    } catch (_) {
      // fall through to reconnect
    }
    live.textContent = 'reconnecting…';
    live.classList.remove('on');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function signInNeeded() {
  document.getElementById('detail').replaceChildren(el('div', { class: 'notice error',
    text: 'Open the login link that codemode workflow console printed.' }));
}

async function main() {
  // The login redirect puts the session in the fragment: keep it, and take it off the address bar.
  const fromLogin = location.hash.match(/^#session=([0-9a-f]{64})$/);
  if (fromLogin) {
    sessionStorage.setItem(SESSION_KEY, fromLogin[1]);
    history.replaceState(null, '', '/');
  }
  state.session = sessionStorage.getItem(SESSION_KEY) || '';
  if (!state.session) { signInNeeded(); return; }
  const { status: code, body } = await api('/api/session');
  if (code !== 200) { signInNeeded(); return; }
  document.getElementById('person').textContent = body.person;
  document.getElementById('workflow').textContent = body.workflow;
  const match = location.hash.match(/^#run=([0-9a-f]{64})$/);
  if (match) state.selected = match[1];
  await refresh();
  listen();
}

main();
