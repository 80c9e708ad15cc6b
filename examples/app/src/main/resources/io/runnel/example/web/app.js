// The team board's page: development sign-in, the org's live feed, a post form, likes, the connection's state and
// the outbox. It imports the board's bundle (Board's refs and twins plus the Runnel client, compiled by TeaVM).
// The chosen user and its token live in sessionStorage; a token the node refuses (401) is replaced by signing in
// again as the same user (credentials' refresh).
// For the browser tests: window.board = {runnel, user, org, post(title, body), like(postId), unlike(postId)}.
import { connect } from '/js/board-client.js';

const byId = (id) => document.getElementById(id);
const USER = 'board.user';
const TOKEN = 'board.token';

async function signIn(user) {
  let answer;
  try {
    answer = await fetch('/v1/dev/sign-in', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ user }),
    });
  } catch (e) {
    throw { code: 'X_NETWORK', cause: 'The server cannot be reached.', fix: 'Check that ./runnel run is running.' };
  }
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    throw body.code ? body : { code: 'X_INTERNAL', cause: 'Sign-in answered ' + answer.status + '.', fix: 'Retry.' };
  }
  sessionStorage.setItem(TOKEN, body.token);
  return body.token;
}

function claims(token) {
  return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
}

function showSignIn(error) {
  byId('sign-in').hidden = false;
  byId('board').hidden = true;
  byId('connection').textContent = 'signed out';
  const e = byId('sign-in-error');
  e.hidden = !error;
  if (error) {
    e.dataset.code = error.code;
    e.textContent = error.code + ': ' + error.cause + ' ' + error.fix;
  }
}

for (const button of document.querySelectorAll('[data-user]')) {
  button.addEventListener('click', async () => {
    try {
      await signIn(button.dataset.user);
      sessionStorage.setItem(USER, button.dataset.user);
      location.reload();
    } catch (error) {
      showSignIn(error);
    }
  });
}

byId('sign-out').addEventListener('click', () => {
  sessionStorage.removeItem(USER);
  sessionStorage.removeItem(TOKEN);
  location.reload();
});

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  const { dataset, ...rest } = props || {};
  Object.assign(e, rest);
  Object.assign(e.dataset, dataset || {});
  e.append(...children);
  return e;
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : 'sending…';
}

async function start(user) {
  let token = sessionStorage.getItem(TOKEN);
  try {
    token = token || await signIn(user);
  } catch (error) {
    showSignIn(error);
    return;
  }
  const org = claims(token).org_id;
  byId('board').hidden = false;
  byId('who').hidden = false;
  byId('who').textContent = user + ' @ ' + org;
  byId('org').textContent = org;
  byId('sign-out').hidden = false;

  const runnel = connect({
    url: location.origin,
    orgId: org, // twins read it as tx.actor().orgId(): a new post shows in the feed before the node answers
    credentials: async ({ refresh }) => {
      if (refresh || !token) {
        try {
          token = await signIn(user);
        } catch (error) {
          return null;
        }
      }
      return token;
    },
  });

  let posts = [];
  let likes = [];
  let status = 'pending';
  let feedError = null;

  // A post is liked when the actor's like is there (the twins add and remove it before the node answers).
  function liked(postId) {
    return likes.some((l) => l.post_id === postId && l.user_id === user);
  }

  function render() {
    const state = byId('feed-state');
    const list = byId('feed');
    list.dataset.status = status;
    list.dataset.count = String(posts.length);
    state.dataset.status = status;
    state.hidden = status === 'ready' && posts.length > 0;
    state.textContent = status === 'pending' ? 'Loading the feed…'
      : status === 'failed' ? 'The feed could not load: ' + feedError.code + ': ' + feedError.cause + ' ' + feedError.fix
        : 'No posts yet: write the first.';
    list.replaceChildren(...posts.map((p) => {
      const isLiked = liked(p.id);
      const like = el('button', { type: 'button', className: 'like', textContent: (isLiked ? '♥ ' : '♡ ') + p.like_count,
        dataset: { liked: String(isLiked) } });
      like.addEventListener('click', () => (isLiked ? window.board.unlike(p.id) : window.board.like(p.id)));
      const actions = el('div', { className: 'actions' }, like);
      if (p.author_id === user) {
        const del = el('button', { type: 'button', className: 'delete', textContent: 'Delete' });
        del.addEventListener('click', () => write('deletePost', { postId: p.id }));
        actions.append(del);
      }
      return el('li', { dataset: { id: p.id, likes: String(p.like_count), liked: String(isLiked),
        provisional: String(p.created_at == null) } },
      el('strong', { className: 'title', textContent: p.title }),
      el('p', { className: 'body', textContent: p.body }),
      el('div', { className: 'meta', textContent: (p.author_id || user) + ' · ' + when(p.created_at) }),
      actions);
    }));
  }

  runnel.query('liveFeed', { orgId: org }, (view) => {
    status = view.status;
    feedError = view.error || null;
    posts = view.records.map((r) => r.record);
    render();
  });
  runnel.query('myLikes', {}, (view) => {
    likes = view.records.map((r) => r.record);
    render();
  });

  runnel.connection(({ state, reconnectAt }) => {
    const out = byId('connection');
    out.dataset.state = state;
    out.textContent = state === 'offline' && reconnectAt
      ? 'offline, retrying at ' + new Date(reconnectAt).toLocaleTimeString() : state;
  });

  runnel.outbox(({ pending, failed }) => {
    const list = byId('outbox');
    list.dataset.pending = String(pending.length);
    list.dataset.failed = String(failed.length);
    byId('outbox-empty').hidden = pending.length + failed.length > 0;
    list.replaceChildren(
      ...pending.map((w) => el('li', { dataset: { writeId: w.writeId, state: w.sending ? 'sending' : 'pending' },
        textContent: w.mutator + (w.sending ? ': sending…' : ': waiting for the network') })),
      ...failed.map((w) => {
        const dismiss = el('button', { type: 'button', textContent: 'Dismiss' });
        dismiss.addEventListener('click', () => runnel.dismiss(w.writeId));
        return el('li', { dataset: { writeId: w.writeId, state: 'failed', code: w.error.code } },
          w.mutator + ' refused: ' + w.error.code + ': ' + w.error.cause + ' ', dismiss);
      }));
  });

  runnel.errors((e) => console.warn(e.code, e.cause, e.fix));

  // The org's channel: who is online (presence) and who is typing (the event typing, at most once).
  const typists = new Map(); // user -> when their last typing event arrived (ms)
  function showTyping() {
    const now = Date.now();
    for (const [who, at] of typists) {
      if (now - at > 3000) typists.delete(who);
    }
    const out = byId('typing');
    out.hidden = typists.size === 0;
    out.textContent = [...typists.keys()].join(', ') + (typists.size === 1 ? ' is typing…' : ' are typing…');
  }
  setInterval(showTyping, 1000);
  runnel.channel('org', { orgId: org }, {
    presence: { user },
    onState: (state) => {
      const out = byId('online-state');
      out.dataset.state = state.state;
      out.hidden = state.state === 'live';
      out.textContent = state.state === 'failed' ? 'Presence is unavailable: ' + state.error.code + ': '
        + state.error.cause : state.state === 'offline' ? 'Offline: presence resumes when the connection does.'
        : 'Joining the org…';
    },
    onPresence: ({ members, total }) => {
      const list = byId('online');
      list.dataset.total = String(total);
      list.replaceChildren(...members.map((m) => el('li', { dataset: { key: m.key },
        textContent: (m.meta && m.meta.user) || m.key })));
    },
    onEvent: (event, payload) => {
      if (event === 'typing' && payload && payload.user && payload.user !== user) {
        typists.set(payload.user, Date.now());
        showTyping();
      }
    },
  });
  // The topic as the client spells it (org.<orgId>, the id percent-encoded: an org id may hold '.', '%' or spaces).
  const orgTopic = runnel.topic('org', { orgId: org });
  let lastTyping = 0;
  const typing = () => {
    const now = Date.now();
    if (now - lastTyping < 1000) return;
    lastTyping = now;
    fetch('/v1/channels/' + encodeURIComponent(orgTopic) + '/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + token },
      body: JSON.stringify({ event: 'typing', payload: { user } }),
    }).catch(() => {}); // at most once: a lost typing event is fine
  };
  byId('title').addEventListener('input', typing);
  byId('body').addEventListener('input', typing);

  const write = (mutator, input) => runnel.mutate(mutator, input);
  window.board = {
    runnel, user, org,
    post: (title, body) => {
      const id = crypto.randomUUID();
      write('createPost', { id, title, body });
      return id;
    },
    like: (postId) => write('likePost', { postId }),
    unlike: (postId) => write('unlikePost', { postId }),
  };

  byId('post-form').addEventListener('submit', (event) => {
    event.preventDefault();
    window.board.post(byId('title').value, byId('body').value);
    byId('post-form').reset();
  });
}

const user = sessionStorage.getItem(USER);
if (user) {
  start(user);
} else {
  showSignIn(null);
}
