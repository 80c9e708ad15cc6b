// The test app's page: one list of notes, live, with an add form, the connection's state and the outbox.
// URL: /?list=<list id>&token=<user>@<org> (defaults: inbox, ada@acme; TokenIdentities reads the token).
// What it renders is also recorded, in order, for the browser tests:
//   window.rendered    every view of the list: {status, notes: [{id, title, createdAt}]}
//   window.connections every connection state: "connecting" | "online" | "offline" | "closed"
//   window.outboxes    every outbox: {pending: [writeId], failed: [writeId]}
//   window.outcomes    every mutate outcome: {writeId, result} or {writeId?, error}
//   window.errors      every error tied to no call: {code, cause, fix}
// and writes are made through window.putNote(id, title) and window.addNote(title), which makes a
// time-ordered uuid (the form calls addNote).
import { connect } from '/js/notes-app.js';

const params = new URLSearchParams(location.search);
const listId = params.get('list') || 'inbox';
const token = params.get('token') || 'ada@acme';

Object.assign(window, { rendered: [], connections: [], outboxes: [], outcomes: [], errors: [] });

const runnel = connect({ url: location.origin, credentials: async () => token });
window.runnel = runnel;

const byId = (id) => document.getElementById(id);

function item(data, text) {
  const li = document.createElement('li');
  Object.assign(li.dataset, data);
  li.textContent = text;
  return li;
}

runnel.query('notes', { listId }, ({ status, records, error }) => {
  const notes = records.map((r) => ({ id: r.key, title: r.record.title, createdAt: r.record.created_at ?? null }));
  window.rendered.push({ status, notes });
  const list = byId('notes');
  list.dataset.status = status;
  list.dataset.count = String(notes.length);
  if (error) {
    list.dataset.error = error.code;
  }
  list.replaceChildren(...notes.map((n) => item({ id: n.id, title: n.title, createdAt: n.createdAt ?? '' }, n.title)));
});

runnel.connection(({ state }) => {
  window.connections.push(state);
  const out = byId('connection');
  out.dataset.state = state;
  out.textContent = state;
});

runnel.outbox(({ pending, failed }) => {
  window.outboxes.push({ pending: pending.map((w) => w.writeId), failed: failed.map((w) => w.writeId) });
  const list = byId('outbox');
  list.dataset.pending = String(pending.length);
  list.dataset.failed = String(failed.length);
  list.replaceChildren(
    ...pending.map((w) => item({ writeId: w.writeId, state: w.sending ? 'sending' : 'pending' }, w.mutator + ' pending')),
    ...failed.map((w) => item({ writeId: w.writeId, state: 'failed', code: w.error.code }, w.mutator + ': ' + w.error.cause)));
});

runnel.errors((e) => window.errors.push(e));

window.putNote = (id, title) => runnel.mutate('putNote', { id, listId, title }).then((outcome) => {
  window.outcomes.push(outcome);
  return outcome;
});
// A time-ordered uuid (version 7, RFC 9562): 48 bits of milliseconds, then a counter that keeps ids made in one
// millisecond in order, then random bits. A note's twin has no created_at yet (the server sets it), and the list
// breaks ties by id, so pending notes list in the order they were made.
let lastMs = 0;
let counter = 0;
function uuid7() {
  const ms = Date.now();
  counter = ms === lastMs ? counter + 1 : 0;
  lastMs = ms;
  const b = crypto.getRandomValues(new Uint8Array(16));
  for (let i = 0; i < 6; i++) {
    b[i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
  }
  b[6] = 0x70 | ((counter >> 8) & 0x0f);
  b[7] = counter & 0xff;
  b[8] = 0x80 | (b[8] & 0x3f);
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

window.addNote = (title) => {
  const id = uuid7();
  window.putNote(id, title);
  return id;
};

byId('add').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = byId('title');
  window.addNote(input.value);
  input.value = '';
});
