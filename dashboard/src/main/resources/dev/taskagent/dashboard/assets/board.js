// The task board's page: builds every element with createElement and textContent, never by parsing markup,
// so that whatever users and models wrote shows as text. Talks to the board's JSON API and follows its event
// stream; the filters and the search's words live in the URL's query string, and #task-ID names a card to
// scroll to.
'use strict';

(() => {
  // Where the board is: the server's root, or the path an application mounted it under (e.g. /taskagent/board/).
  const BASE = new URL('.', document.currentScript.src).pathname;
  const PAGE_SIZE = 1000;
  const SEARCH_PAGE_SIZE = 20;
  const FILTERS = ['status', 'assignee', 'text', 'tag', 'readiness'];
  const NO_FILTERS = Object.freeze({ status: '', assignee: '', text: '', tag: '', readiness: '' });
  const state = {
    token: null,
    actions: false,
    live: false,
    position: 0,
    session: null,
    filters: Object.assign({}, NO_FILTERS),
    focus: null, // the id of a card to scroll to once the board has loaded
    related: new Set(), // the ids the board shows or links to: an event about one of them reloads it
    offset: 0,
    q: '', // the search's words; empty when no search is shown
    searchCursor: null, // the cursor of the search's next page
    searchRequest: 0,
    skew: 0,
    boardRequest: 0,
    sidesRequest: 0,
    timers: {},
    knownSessions: new Set(),
  };

  // ---- small helpers -------------------------------------------------------------------------------

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function $(id) {
    return document.getElementById(id);
  }

  function notice(message) {
    const box = $('notice');
    box.textContent = message || '';
    box.hidden = !message;
  }

  function debounce(name, delay, action) {
    clearTimeout(state.timers[name]);
    state.timers[name] = setTimeout(action, delay);
  }

  function headers(extra) {
    const result = Object.assign({}, extra || {});
    if (state.token) result.Authorization = 'Bearer ' + state.token;
    return result;
  }

  async function api(path, options) {
    const response = await fetch(BASE + path.replace(/^\//, ''), Object.assign({ cache: 'no-store' }, options || {}, {
      headers: headers(options && options.headers),
    }));
    let body = null;
    try {
      body = await response.json();
    } catch (e) {
      body = null;
    }
    if (response.status === 401) {
      notice('This board needs its token: open it as ' + location.origin + BASE + '#token=YOUR_TOKEN');
    }
    return { status: response.status, body };
  }

  // ---- the token: taken from the fragment, kept in this tab only, never in a URL sent ---------------

  function readToken() {
    const match = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
    if (match) {
      sessionStorage.setItem('taskagent-board-token', decodeURIComponent(match[1]));
      history.replaceState(history.state, '', location.pathname + location.search);
    }
    state.token = sessionStorage.getItem('taskagent-board-token');
  }

  // ---- the URL's query string holds the session, the filters and the page ---------------------------

  function readUrl() {
    const query = new URLSearchParams(location.search);
    state.session = query.get('session');
    for (const name of FILTERS) {
      state.filters[name] = query.get(name) || '';
      $('filter-' + name).value = state.filters[name];
    }
    state.offset = Math.max(0, parseInt(query.get('offset') || '0', 10) || 0);
    state.q = query.get('q') || '';
    $('search-q').value = state.q;
    const focus = /^#task-(\d+)$/.exec(location.hash);
    state.focus = focus ? Number(focus[1]) : null;
  }

  function urlOf(session, filters, offset, focus) {
    const query = new URLSearchParams();
    if (session) query.set('session', session);
    for (const name of FILTERS) {
      if (filters[name]) query.set(name, filters[name]);
    }
    if (offset) query.set('offset', String(offset));
    if (state.q) query.set('q', state.q);
    const text = query.toString();
    return location.pathname + (text ? '?' + text : '') + (focus ? '#task-' + focus : '');
  }

  function navigate(session, filters, offset, focus) {
    history.pushState(null, '', urlOf(session, filters, offset, focus));
    readUrl();
    renderSessionList();
    loadBoard(true);
  }

  // ---- sessions ------------------------------------------------------------------------------------

  let sessionIds = [];

  async function loadSessions() {
    const { status, body } = await api('/api/sessions');
    if (status !== 200) return;
    sessionIds = body.sessions;
    state.knownSessions = new Set(sessionIds);
    if (!state.session && sessionIds.length > 0) {
      history.replaceState(null, '', urlOf(sessionIds[0], state.filters, state.offset));
      readUrl();
      loadBoard(true);
    }
    renderSessionList();
  }

  function renderSessionList() {
    const list = $('sessions');
    list.replaceChildren();
    for (const id of sessionIds) {
      const item = el('li');
      const link = el('a', null, id);
      link.href = urlOf(id, NO_FILTERS, 0);
      if (id === state.session) link.setAttribute('aria-current', 'page');
      link.addEventListener('click', (event) => {
        event.preventDefault();
        navigate(id, NO_FILTERS, 0);
      });
      item.append(link);
      list.append(item);
    }
    if (sessionIds.length === 0) list.append(el('li', 'meta', 'No tasks yet'));
  }

  // ---- the board of one session --------------------------------------------------------------------

  // task id -> { key, node: its card, wrapper: the card and its subtasks, subtasks: where they nest }
  const cards = new Map();

  async function loadBoard(fromScratch) {
    if (!state.session) return;
    const request = ++state.boardRequest;
    const query = new URLSearchParams();
    for (const name of FILTERS) {
      if (state.filters[name]) query.set(name, state.filters[name]);
    }
    query.set('offset', String(state.offset));
    query.set('limit', String(PAGE_SIZE));
    const { status, body } = await api('/api/sessions/' + encodeURIComponent(state.session) + '/tasks?' + query);
    if (request !== state.boardRequest) return; // a newer request is on its way
    $('board-title').textContent = 'Session ' + state.session;
    if (status !== 200) {
      $('cards').replaceChildren();
      cards.clear();
      $('board-summary').textContent = body && body.error ? body.error : 'The board could not be loaded (' + status + ')';
      return;
    }
    if (fromScratch) {
      $('cards').replaceChildren();
      cards.clear();
    }
    renderCards(body.tasks);
    const shownTo = body.offset + body.tasks.length;
    $('board-summary').textContent = body.total === 0
      ? 'No task matches the filters (' + body.session_total + ' in the session)'
      : 'Tasks ' + (body.offset + 1) + '–' + shownTo + ' of ' + body.total
        + (body.total !== body.session_total ? ' matching (' + body.session_total + ' in the session)' : '')
        + (!body.graph_complete && body.tasks.some((task) => task.blocked_by.length > 0 || task.parent_id)
          ? ' · this store does not list dependants and subtasks, so only those in this session are shown' : '');
    $('prev').hidden = body.offset === 0;
    $('next').hidden = shownTo >= body.total;
    document.body.dataset.boardLoaded = String(Date.now());
    if (state.focus && cards.has(state.focus)) {
      openCard(state.focus);
      state.focus = null;
    }
    if (fromScratch && !performance.getEntriesByName('board-rendered').length) {
      // Marks for measuring: the cards are in the document; then the frame after they were painted.
      performance.mark('board-rendered');
      requestAnimationFrame(() => setTimeout(() => performance.mark('board-painted'), 0));
    }
  }

  // What a card shows besides its own version: the graph around it changes without changing the version
  // (a blocker that completes lowers open_blockers only), so it is part of the key too.
  function cardKey(task) {
    return task.version + '|' + state.actions + '|' + JSON.stringify([task.open_blockers, task.blockers,
      task.dependants, task.dependants_total, task.children, task.children_done, task.children_total,
      task.parent]);
  }

  function renderCards(tasks) {
    const seen = new Set();
    for (const task of tasks) {
      seen.add(task.id);
      let entry = cards.get(task.id);
      const key = cardKey(task);
      if (!entry) {
        const node = renderCard(task);
        const wrapper = el('div', 'task-node');
        wrapper.dataset.taskId = String(task.id);
        const subtasks = el('div', 'subtasks');
        subtasks.setAttribute('aria-label', 'Subtasks of task ' + task.id);
        wrapper.append(node, subtasks);
        entry = { key, node, wrapper, subtasks };
        cards.set(task.id, entry);
      } else if (entry.key !== key) {
        const node = renderCard(task);
        entry.node.replaceWith(node);
        entry.node = node;
        entry.key = key;
      }
    }
    for (const [id, entry] of cards) {
      if (!seen.has(id)) {
        entry.wrapper.remove();
        cards.delete(id);
      }
    }
    // A subtask nests under its parent when the parent is on the board too, else it stands at the top.
    // Whatever changes place is taken out first, so that a parent never lands inside its own subtree.
    const containerOf = (task) => {
      const parent = task.parent_id ? cards.get(task.parent_id) : null;
      return parent ? parent.subtasks : $('cards');
    };
    for (const task of tasks) {
      const entry = cards.get(task.id);
      if (entry.wrapper.parentNode !== containerOf(task)) entry.wrapper.remove();
    }
    const previous = new Map();
    for (const task of tasks) {
      const entry = cards.get(task.id);
      const container = containerOf(task);
      const before = previous.get(container);
      const expectedPlace = before ? before.nextSibling : container.firstChild;
      if (expectedPlace !== entry.wrapper) container.insertBefore(entry.wrapper, expectedPlace);
      previous.set(container, entry.wrapper);
    }
    const related = new Set(cards.keys());
    const tags = new Set();
    for (const task of tasks) {
      for (const ref of [...task.blockers, ...task.dependants, ...task.children]) related.add(ref.id);
      if (task.parent) related.add(task.parent.id);
      for (const tag of task.tags) tags.add(tag);
    }
    state.related = related;
    const list = $('tags');
    list.replaceChildren();
    for (const tag of [...tags].sort()) list.append(Object.assign(el('option'), { value: tag }));
  }

  // Scrolls to a card on the board and marks it; false when it is not on the board.
  function openCard(id) {
    const entry = cards.get(id);
    if (!entry) return false;
    entry.node.scrollIntoView({ block: 'center' });
    for (const marked of document.querySelectorAll('.card.focused')) marked.classList.remove('focused');
    entry.node.classList.add('focused');
    entry.node.focus({ preventScroll: true });
    history.replaceState(history.state, '', location.pathname + location.search + '#task-' + id);
    return true;
  }

  // A link to another task's card: on the board it scrolls there; else it opens the task's session,
  // without filters (they may hide it), and scrolls there once loaded.
  function taskLink(ref) {
    const link = el('a', 'task-link', 'task ' + ref.id + ' · ' + ref.description);
    link.href = urlOf(ref.session_id, NO_FILTERS, 0, ref.id);
    link.dataset.targetId = String(ref.id);
    link.dataset.status = ref.status;
    link.title = 'task ' + ref.id + ' · ' + ref.status + (ref.archived ? ' · archived' : '')
      + (ref.session_id !== state.session ? ' · session ' + ref.session_id : '');
    link.addEventListener('click', (event) => {
      event.preventDefault();
      if (!openCard(ref.id)) navigate(ref.session_id, NO_FILTERS, 0, ref.id);
    });
    return link;
  }

  function taskLinks(className, label, refs, total) {
    const line = el('p', 'graph ' + className);
    line.append(el('span', 'graph-label', label + ' '));
    refs.forEach((ref, index) => {
      if (index > 0) line.append(', ');
      line.append(taskLink(ref));
    });
    if (total > refs.length) line.append(el('span', 'meta', ' and ' + (total - refs.length) + ' more'));
    return line;
  }

  function tagChips(task) {
    const list = el('ul', 'tags');
    list.setAttribute('aria-label', 'Tags');
    for (const tag of task.tags) {
      const item = el('li');
      const chip = el('button', 'tag', tag);
      chip.type = 'button';
      chip.dataset.tag = tag;
      const active = state.filters.tag === tag;
      chip.setAttribute('aria-pressed', String(active));
      chip.title = active ? 'Show every tag again' : 'Show only the tasks tagged ' + tag;
      chip.addEventListener('click', () => navigate(state.session,
        Object.assign({}, state.filters, { tag: active ? '' : tag }), 0));
      item.append(chip);
      list.append(item);
    }
    return list;
  }

  function graphLines(card, task) {
    if (task.parent) card.append(taskLinks('parent', 'Subtask of', [task.parent], 1));
    if (task.blocked_by.length > 0) {
      card.append(taskLinks('blocked-by', 'Blocked by', task.blockers, task.blocked_by.length));
    }
    for (const ref of task.blockers) {
      if (ref.status === 'failed') {
        const failed = el('p', 'blocker-failed', 'Blocker ');
        failed.dataset.blockerId = String(ref.id);
        failed.append(taskLink(ref), ' failed: this task waits until it is requeued and succeeds,'
          + ' or the dependency is removed');
        card.append(failed);
      } else if (ref.status === 'cancelled') {
        const cancelled = el('p', 'blocker-failed', 'Blocker ');
        cancelled.dataset.blockerId = String(ref.id);
        cancelled.append(taskLink(ref), ' was cancelled: this task waits until the dependency is removed');
        card.append(cancelled);
      }
    }
    if (task.dependants_total > 0) {
      card.append(taskLinks('blocks', 'Blocks', task.dependants, task.dependants_total));
    }
    if (task.children_total > 0) {
      const progress = el('div', 'progress children-progress');
      const bar = el('progress');
      bar.max = task.children_total;
      bar.value = task.children_done;
      progress.append(bar, el('span', 'children-count',
        'Subtasks ' + task.children_done + '/' + task.children_total + ' done'));
      card.append(progress);
    }
  }

  function truncatedMarker(task, field, text) {
    return task.truncated.includes(field) ? el('p', 'marker', text) : null;
  }

  function renderCard(task) {
    const card = el('article', 'card');
    card.id = 'task-' + task.id;
    card.tabIndex = -1;
    card.dataset.taskId = String(task.id);
    card.dataset.version = String(task.version);
    card.dataset.status = task.status;
    card.dataset.ready = String(task.ready);

    const header = el('header');
    header.append(el('span', 'order', '#' + task.order + ' · task ' + task.id));
    const badges = el('span', 'badges');
    if (task.open_blockers > 0) {
      const blocked = el('span', 'blocked-badge', 'blocked');
      blocked.title = task.open_blockers + ' of ' + task.blocked_by.length + ' blockers not done yet';
      badges.append(blocked);
    }
    if (waitsForTime(task)) {
      const waiting = el('span', 'scheduled-badge', task.attempt > 0 ? 'backing off' : 'scheduled');
      waiting.title = 'not claimed before ' + new Date(task.not_before).toLocaleString();
      waiting.dataset.until = task.not_before;
      badges.append(waiting);
    }
    const badge = task.status + (task.dead_lettered ? ' · dead letter' : '') + (task.archived ? ' · archived' : '');
    badges.append(el('span', 'status ' + task.status, badge));
    header.append(badges);
    card.append(header);
    if (task.tags.length > 0) card.append(tagChips(task));

    card.append(el('p', 'description', task.description));
    const cut = truncatedMarker(task, 'description',
      '(description cut: ' + task.description_length + ' characters in all)');
    if (cut) card.append(cut);

    const meta = [];
    meta.push('assignee: ' + (task.assignee || 'none'));
    if (task.previous_assignee) meta.push('from ' + task.previous_assignee);
    if (task.priority) meta.push('priority ' + task.priority);
    if (task.attempt) meta.push('attempt ' + task.attempt + (task.max_attempts ? '/' + task.max_attempts : ''));
    card.append(el('p', 'meta assignee', meta.join(' · ')));
    if (task.lease_until) {
      const lease = el('p', 'meta');
      lease.append('lease: ', countdown(task.lease_until));
      card.append(lease);
    }
    if (waitsForTime(task)) {
      const line = el('p', 'meta not-before', 'not before: ' + new Date(task.not_before).toLocaleString());
      line.dataset.until = task.not_before;
      card.append(line);
    }

    graphLines(card, task);

    if (task.steps_total > 0) {
      const progress = el('div', 'progress');
      const bar = el('progress');
      bar.max = task.steps_total;
      bar.value = task.steps_done;
      progress.append(bar, el('span', 'step-label', 'Step ' + task.steps_done + '/' + task.steps_total));
      card.append(progress);
      const list = el('ul', 'steps');
      for (const step of task.steps) {
        const item = el('li', 'depth-' + Math.min(step.depth, 3));
        const box = el('input');
        box.type = 'checkbox';
        box.disabled = true;
        box.checked = step.done;
        box.setAttribute('aria-label', 'step ' + step.number);
        item.append(box, el('span', null, step.text));
        list.append(item);
      }
      card.append(list);
      const more = truncatedMarker(task, 'steps', 'showing the first ' + task.steps.length + ' of ' + task.steps_total + ' steps');
      if (more) card.append(more);
    }

    if (task.preference) {
      card.append(el('h3', null, 'Preference'), el('p', 'preference', task.preference));
    }
    if (task.progress.length > 0) {
      card.append(el('h3', null, 'Progress' + (task.truncated.includes('progress') ? ' (latest ' + task.progress.length + ' of ' + task.progress_total + ')' : '')));
      const list = el('ol', 'progresses');
      for (const entry of task.progress) list.append(el('li', null, entry));
      card.append(list);
    }
    if (task.comments.length > 0) {
      card.append(el('h3', null, 'Comments' + (task.truncated.includes('comments') ? ' (latest ' + task.comments.length + ' of ' + task.comments_total + ')' : '')));
      const list = el('ul', 'comments');
      for (const comment of task.comments) list.append(el('li', null, comment.author + ': ' + comment.text));
      card.append(list);
    }
    if (task.links.length > 0) {
      card.append(el('h3', null, 'Links'));
      const list = el('ul', 'links');
      for (const link of task.links) {
        const item = el('li');
        item.append(linkNode(link));
        list.append(item);
      }
      card.append(list);
    }
    if (state.actions) card.append(actionButtons(task));
    return card;
  }

  // Only http and https addresses become links; anything else (javascript:, data:) stays text.
  function linkNode(link) {
    const label = link.description || link.url;
    let url = null;
    try {
      url = new URL(link.url);
    } catch (e) {
      url = null;
    }
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
      const anchor = el('a', null, label);
      anchor.href = url.href;
      anchor.rel = 'noopener noreferrer';
      anchor.target = '_blank';
      return anchor;
    }
    return el('span', null, label + ' (' + link.url + ')');
  }

  // ---- actions (only when the board enables them) --------------------------------------------------

  function actionButtons(task) {
    const bar = el('div', 'actions');
    const button = (label, action, body) => {
      const node = el('button', null, label);
      node.type = 'button';
      node.addEventListener('click', () => act(task, action, body && body()));
      bar.append(node);
    };
    if (task.status === 'failed' && !task.archived) button('Requeue', 'requeue');
    if ((task.status === 'pending' || task.status === 'running') && !task.archived) {
      button('Move…', 'move', () => ({ to: prompt('Move task ' + task.id + ' to which agent?') || '' }));
    }
    if (!task.archived) button('Archive', 'archive');
    return bar;
  }

  async function act(task, action, body) {
    const { status, body: reply } = await api('/api/tasks/' + task.id + '/' + action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'If-Match': '"' + task.version + '"' },
      body: JSON.stringify(body || {}),
    });
    notice(reply && (reply.message || reply.error) ? reply.message || reply.error : action + ': ' + status);
    loadBoard(false);
    loadSides();
  }

  // ---- the search: every session's tasks by their words, a page at a time --------------------------------

  function setSearch(q) {
    state.q = q;
    history.pushState(null, '', urlOf(state.session, state.filters, state.offset));
    loadSearch();
  }

  async function loadSearch(cursor) {
    const request = ++state.searchRequest;
    const box = $('search-results');
    $('search-clear').hidden = !state.q;
    if (!state.q) {
      box.hidden = true;
      $('search-list').replaceChildren();
      return;
    }
    const query = new URLSearchParams({ q: state.q, limit: String(SEARCH_PAGE_SIZE) });
    if (cursor) query.set('cursor', cursor);
    const { status, body } = await api('/api/search?' + query);
    if (request !== state.searchRequest) return; // a newer search is on its way
    box.hidden = false;
    const list = $('search-list');
    if (!cursor) list.replaceChildren();
    if (status !== 200) {
      $('search-title').textContent = body && body.error ? body.error : 'The search failed (' + status + ')';
      $('search-more').hidden = true;
      state.searchCursor = null;
      return;
    }
    for (const task of body.tasks) {
      const item = el('li');
      item.dataset.taskId = String(task.id);
      item.append(el('span', 'status ' + task.status, task.status), ' ', taskLink(task));
      item.append(el('span', 'meta', ' · ' + (task.assignee || 'no agent') + ' · session ' + task.session_id));
      list.append(item);
    }
    const shown = list.children.length;
    $('search-title').textContent = shown === 0
      ? 'No task holds every word of “' + body.words.join(' ') + '”'
      : shown + (body.remaining > 0 ? ' of ' + (shown + body.remaining) : '') + ' task'
        + (shown + body.remaining === 1 ? '' : 's') + ' holding “' + body.words.join(' ') + '”, best first';
    state.searchCursor = body.next_cursor;
    $('search-more').hidden = !body.next_cursor;
    document.body.dataset.searchLoaded = String(Date.now());
  }

  // ---- queues, lease countdowns and dead letters ---------------------------------------------------

  /** A pending task whose not-before time is still ahead on the server's clock: scheduled, or backing off. */
  function waitsForTime(task) {
    return task.status === 'pending' && task.not_before != null
      && Date.parse(task.not_before) > Date.now() + state.skew;
  }

  /** Takes away the marks of waits whose time has passed (no event says so: the time just passes). */
  function expireWaits() {
    for (const mark of document.querySelectorAll('[data-until]')) {
      if (Date.parse(mark.dataset.until) <= Date.now() + state.skew) mark.remove();
    }
  }

  function countdown(expiresAt) {
    const node = el('span', 'countdown');
    node.dataset.expires = expiresAt;
    updateCountdown(node);
    return node;
  }

  function updateCountdown(node) {
    const left = Math.round((Date.parse(node.dataset.expires) - (Date.now() + state.skew)) / 1000);
    if (left <= 0) {
      node.textContent = 'expired';
      node.classList.add('expired');
      return;
    }
    const minutes = Math.floor(left / 60);
    const seconds = String(left % 60).padStart(2, '0');
    node.textContent = minutes + ':' + seconds + ' left';
  }

  async function loadSides() {
    const request = ++state.sidesRequest;
    const [queues, dead] = await Promise.all([api('/api/queues'), api('/api/dead-letters')]);
    if (request !== state.sidesRequest) return;
    if (queues.status === 200) renderQueues(queues.body);
    if (dead.status === 200) renderDeadLetters(dead.body);
  }

  function renderQueues(body) {
    state.skew = Date.parse(body.now) - Date.now();
    const box = $('queues');
    box.replaceChildren();
    const agents = $('agents');
    agents.replaceChildren();
    for (const queue of body.agents) {
      agents.append(Object.assign(el('option'), { value: queue.agent }));
      const section = el('div', 'queue');
      section.dataset.agent = queue.agent;
      section.append(el('h3', null, queue.agent + ' (' + queue.total + ')'));
      const list = el('ol');
      for (const task of queue.tasks) {
        const item = el('li');
        item.dataset.taskId = String(task.id);
        item.append(el('span', 'status ' + task.status, task.status), ' ');
        if (task.open_blockers > 0) item.append(el('span', 'blocked-badge', 'blocked'), ' ');
        item.append(el('span', null, '#' + task.id + ' ' + task.description));
        if (task.lease_until) item.append(' · lease ', countdown(task.lease_until));
        if (waitsForTime(task)) {
          const waiting = el('span', 'scheduled-badge', 'not before ' + new Date(task.not_before).toLocaleTimeString());
          waiting.dataset.until = task.not_before;
          item.append(waiting);
        }
        list.append(item);
      }
      section.append(list);
      box.append(section);
    }
    if (body.agents.length === 0) box.append(el('p', 'meta', 'No agent holds a task'));
  }

  function renderDeadLetters(body) {
    const list = $('dead-letters');
    list.replaceChildren();
    for (const task of body.tasks) {
      const item = el('li');
      item.dataset.taskId = String(task.id);
      item.append(el('span', null, '#' + task.id + ' ' + task.description + ' (' + (task.assignee || 'no agent')
        + ', ' + task.attempt + ' attempts, session ' + task.session_id + ')'));
      if (state.actions) {
        const requeue = el('button', null, 'Requeue');
        requeue.type = 'button';
        requeue.addEventListener('click', () => act(task, 'requeue'));
        item.append(' ', requeue);
      }
      list.append(item);
    }
    if (body.tasks.length === 0) list.append(el('li', 'meta', 'None'));
  }

  // ---- live updates: the event stream, read with fetch so that it can carry the token ---------------

  function setLive(text) {
    const badge = $('live');
    badge.dataset.state = text;
    badge.textContent = text;
  }

  function onEvent(type, data) {
    if (type === 'reset') {
      state.position = data.position;
      loadSessions();
      loadBoard(false);
      loadSides();
      return;
    }
    if (type !== 'task') return;
    state.position = data.position;
    if (!state.knownSessions.has(data.session_id)) debounce('sessions', 200, loadSessions);
    // A task of another session that a card links to (a blocker, a dependant, a parent or a subtask)
    // changes what that card shows; so does a new or removed edge to a task on the board.
    const blocker = data.payload && data.payload.blocker_id;
    if (data.session_id === state.session || state.related.has(data.task_id) || state.related.has(blocker)) {
      debounce('board', 50, () => loadBoard(false));
    }
    debounce('sides', 200, loadSides);
  }

  // Refused a stream (503: every slot taken), the page polls meanwhile and asks again after 1 s, 2 s, 4 s, …
  // up to 30 s, each wait shortened by up to a half at random so that refused pages do not come back together.
  const RETRY_FIRST_MS = 1000;
  const RETRY_MOST_MS = 30000;

  async function follow() {
    let refusals = 0;
    for (;;) {
      try {
        const response = await fetch(BASE + 'api/events', {
          cache: 'no-store',
          headers: headers({ 'Last-Event-ID': String(state.position), Accept: 'text/event-stream' }),
        });
        if (response.status === 503) {
          setLive('polling');
          poll();
          const backoff = Math.min(RETRY_MOST_MS, RETRY_FIRST_MS * 2 ** refusals);
          refusals++;
          await new Promise((resolve) => setTimeout(resolve, backoff * (0.5 + Math.random() / 2)));
          continue;
        }
        if (response.status !== 200) throw new Error('status ' + response.status);
        refusals = 0;
        stopPolling();
        // What changed while it polled or waited is sent first: the stream resumes from state.position.
        setLive('live');
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let type = 'message';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) type = line.slice(7);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            if (data) onEvent(type, JSON.parse(data));
          }
        }
      } catch (e) {
        // reconnect below
      }
      setLive('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  function poll() {
    if (state.timers.poll) return;
    state.timers.poll = setInterval(() => {
      loadBoard(false);
      loadSides();
    }, 2000);
  }

  function stopPolling() {
    clearInterval(state.timers.poll);
    state.timers.poll = null;
  }

  // ---- start ---------------------------------------------------------------------------------------

  async function start() {
    readToken();
    readUrl();
    $('filters').addEventListener('submit', (event) => {
      event.preventDefault();
      navigate(state.session, {
        status: $('filter-status').value,
        assignee: $('filter-assignee').value.trim(),
        text: $('filter-text').value.trim(),
        tag: $('filter-tag').value.trim(),
        readiness: $('filter-readiness').value,
      }, 0);
    });
    $('filter-status').addEventListener('change', () => $('filters').requestSubmit());
    $('filter-readiness').addEventListener('change', () => $('filters').requestSubmit());
    $('filter-clear').addEventListener('click', () => navigate(state.session, NO_FILTERS, 0));
    $('search').addEventListener('submit', (event) => {
      event.preventDefault();
      setSearch($('search-q').value.trim());
    });
    $('search-clear').addEventListener('click', () => setSearch(''));
    $('search-more').addEventListener('click', () => loadSearch(state.searchCursor));
    $('prev').addEventListener('click', () => navigate(state.session, state.filters, Math.max(0, state.offset - PAGE_SIZE)));
    $('next').addEventListener('click', () => navigate(state.session, state.filters, state.offset + PAGE_SIZE));
    window.addEventListener('popstate', () => {
      readUrl();
      renderSessionList();
      loadBoard(true);
      loadSearch();
    });
    setInterval(() => {
      document.querySelectorAll('.countdown').forEach(updateCountdown);
      expireWaits();
    }, 1000);

    const { status, body } = await api('/api/config');
    if (status !== 200) {
      setLive(status === 401 ? 'token needed' : 'offline');
      return;
    }
    state.actions = body.actions;
    state.live = body.live;
    state.position = body.position;
    if (state.live) follow();
    else {
      setLive('polling');
      poll();
    }
    // The session named in the URL loads at once, beside the sessions list and the queues.
    await Promise.all([loadSessions(), loadBoard(true), loadSides(), loadSearch()]);
  }

  document.addEventListener('DOMContentLoaded', start);
})();
