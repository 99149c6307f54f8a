// The llmtestserver dashboard: reads the admin API with the credentials
// the browser logged in with (the management key), and renders the
// selected runtime's conversations, jobs, scenarios and assertions. Every
// string from the server goes into the DOM as text (textContent, text
// nodes), never as markup: journal content is the data of the code under
// test.
'use strict';

(function () {
  const POLL_MS = 1000;

  const $ = (id) => document.getElementById(id);
  const select = $('runtime');
  const live = $('live');
  const statusLine = $('status');

  // What is on screen, by section, as the JSON it was rendered from, so
  // that a poll that brings nothing new changes nothing in the DOM.
  const shown = { summary: '', conversations: '', assertions: '', jobs: '', scenarios: '' };
  // The <details> the user opened or closed, by key, kept across renders.
  const opened = new Map();
  let timer = null;
  let generation = 0; // bumped on each selection, to drop stale answers

  // el builds an element: attrs sets attributes and properties (class,
  // title, dataset), children are nodes or strings (made text nodes).
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    append(node, children);
    return node;
  }

  function append(node, children) {
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false || c === '') continue;
      node.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    }
    return node;
  }

  // details is a collapsible block whose open state survives re-renders.
  function details(key, openByDefault, summary, ...body) {
    const d = el('details', { class: 'fold' }, el('summary', {}, summary), ...body);
    d.open = opened.has(key) ? opened.get(key) : openByDefault;
    d.addEventListener('toggle', () => opened.set(key, d.open));
    return d;
  }

  function badge(text, kind) {
    return el('span', { class: 'badge ' + (kind || '') }, text);
  }

  function ms(v) {
    if (!v) return '0 ms';
    return v < 10 ? v.toFixed(2) + ' ms' : Math.round(v) + ' ms';
  }

  function time(iso) {
    const d = new Date(iso);
    return isNaN(d) ? String(iso) : d.toLocaleTimeString([], { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0');
  }

  function bytes(n) {
    if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + ' MiB';
    if (n >= 1 << 10) return (n / (1 << 10)).toFixed(1) + ' KiB';
    return n + ' B';
  }

  function pretty(s) {
    try {
      return JSON.stringify(JSON.parse(s), null, 2);
    } catch {
      return s;
    }
  }

  function replace(node, ...children) {
    node.replaceChildren();
    append(node, children);
  }

  // ---- data ----

  class HTTPError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  async function get(path) {
    const res = await fetch(path, { credentials: 'same-origin', cache: 'no-store' });
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = JSON.parse(text).error.message;
      } catch {
        // not the admin API's envelope
      }
      throw new HTTPError(res.status, message);
    }
    return JSON.parse(text);
  }

  function base(id) {
    return id ? '/admin-api/sessions/' + encodeURIComponent(id) : '/admin-api';
  }

  async function load(id) {
    const b = base(id);
    const [sessions, journal, scenarios, assertions, jobs, info] = await Promise.all([
      get('/admin-api/sessions'),
      get(b + '/journal'),
      get(b + '/scenarios'),
      get(b + '/assertions'),
      get(b + '/jobs'),
      id ? get(b) : Promise.resolve(null),
    ]);
    return { sessions: sessions.data, journal, scenarios: scenarios.scenarios, assertions, jobs, info };
  }

  // ---- session selector ----

  function selected() {
    return select.value;
  }

  function sessionLabel(s) {
    return s.id + ' · ' + s.requests + ' request' + (s.requests === 1 ? '' : 's') + ' · ' + s.pending_replies + ' pending';
  }

  // updateSelector brings the options in line with the working set in
  // place (newest session first), so that an open list or the selection
  // is never disturbed.
  function updateSelector(sessions) {
    // By time, not by text: RFC 3339 drops trailing zeros of the fraction,
    // so ".12Z" sorts after ".123Z" as text.
    const list = sessions.slice().sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? -1 : 1));
    const alive = new Set(list.map((s) => s.id));
    for (const opt of Array.from(select.options)) {
      if (opt.value !== '' && !alive.has(opt.value)) {
        if (opt.value === selected()) {
          opt.textContent = opt.value + ' · deleted';
          opt.dataset.gone = '1';
        } else {
          opt.remove();
        }
      }
    }
    let after = select.options[0];
    for (const s of list) {
      let opt = Array.from(select.options).find((o) => o.value === s.id);
      if (!opt) {
        opt = el('option', { value: s.id });
      }
      const label = sessionLabel(s);
      if (opt.textContent !== label) opt.textContent = label;
      delete opt.dataset.gone;
      if (after.nextSibling !== opt) select.insertBefore(opt, after.nextSibling);
      after = opt;
    }
    $('session-count').textContent = list.length + ' session' + (list.length === 1 ? '' : 's');
  }

  // ---- summary ----

  function renderSummary(data) {
    const j = data.journal;
    const a = data.assertions;
    const title = data.info
      ? el('div', { class: 'title' }, el('span', { class: 'k' }, 'Session '), el('span', { class: 'mono' }, data.info.id))
      : el('div', { class: 'title' }, el('span', { class: 'k' }, 'Default runtime'), el('span', { class: 'dim' }, ' the requests sent without session headers'));
    const meta = data.info
      ? el('div', { class: 'meta dim' }, 'created ' + time(data.info.created_at) + ' · last used ' + time(data.info.last_accessed_at) +
        ' · reserves ' + bytes(data.info.reservation_bytes))
      : '';
    const usage = j.data.reduce((u, e) => {
      const x = e.usage || {};
      u.input += x.input || 0;
      u.cached += x.cache_read || 0;
      u.output += x.output || 0;
      return u;
    }, { input: 0, cached: 0, output: 0 });
    const pending = Object.values(a.unused_replies).reduce((n, v) => n + v, 0);
    const faults = Object.entries(a.faults).map(([k, v]) => k + ' ×' + v).join(', ');
    const items = [
      ['Requests', String(j.data.length) + (j.evicted ? ' (+' + j.evicted + ' evicted)' : '')],
      ['Misses', String(a.unmatched_total), a.unmatched_total ? 'bad' : ''],
      ['Pending replies', String(pending)],
      ['Tokens in / cached / out', usage.input + ' / ' + usage.cached + ' / ' + usage.output],
      ['Faults fired', faults || 'none', faults ? 'warn' : ''],
    ];
    replace($('summary'), el('div', { class: 'heading' }, title, meta),
      el('div', { class: 'stats' }, items.map(([k, v, cls]) =>
        el('div', { class: 'stat' }, el('div', { class: 'k' }, k), el('div', { class: 'v ' + (cls || '') }, v)))));
  }

  // ---- conversations ----

  // conversations groups the entries by conversation, each in turn order
  // (generation, turn, arrival), the conversations in order of their
  // first request; entries of no conversation come last.
  function conversations(entries) {
    const groups = new Map();
    for (const e of entries) {
      const key = e.conversation || '';
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(e);
    }
    const out = [];
    for (const [key, list] of groups) {
      list.sort((a, b) => (a.generation || 0) - (b.generation || 0) || (a.turn || 0) - (b.turn || 0) || a.seq - b.seq);
      out.push({ key, entries: list, first: Math.min(...list.map((e) => e.seq)) });
    }
    out.sort((a, b) => (a.key === '') - (b.key === '') || a.first - b.first);
    return out;
  }

  function statusKind(e) {
    if (e.status >= 500 || e.status === 0) return 'bad';
    if (e.status >= 400) return 'warn';
    return 'ok';
  }

  function isMiss(e) {
    return e.error_code === 'llm_test_server_no_scenario' || (e.tried && e.tried.length > 0);
  }

  function message(m) {
    const body = [];
    if (m.text) body.push(el('div', { class: 'text' }, m.text));
    for (const c of m.tool_calls || []) body.push(toolCall(c));
    return el('div', { class: 'msg role-' + m.role },
      el('div', { class: 'role' }, m.role, m.tool_call_id ? el('span', { class: 'mono dim' }, ' ← ' + m.tool_call_id) : ''),
      body);
  }

  function toolCall(c) {
    return el('div', { class: 'toolcall' },
      el('div', { class: 'tc-head' }, badge('tool call', 'tool'), ' ', el('strong', { class: 'mono' }, c.name),
        c.id ? el('span', { class: 'mono dim' }, ' ' + c.id) : ''),
      el('pre', { class: 'code' }, pretty(c.arguments || '')));
  }

  function requestView(e, prevCount, key) {
    const r = e.request || {};
    const msgs = r.messages || [];
    const parts = [];
    if (r.system) parts.push(el('div', { class: 'msg role-system' }, el('div', { class: 'role' }, 'system'), el('div', { class: 'text' }, r.system)));
    const earlier = prevCount > 0 && prevCount < msgs.length ? msgs.slice(0, prevCount) : [];
    const fresh = earlier.length ? msgs.slice(prevCount) : msgs;
    if (r.omitted_messages) parts.push(el('p', { class: 'dim' }, r.omitted_messages + ' earlier messages not kept'));
    if (earlier.length) {
      parts.push(details(key + '/earlier', false, earlier.length + ' earlier message' + (earlier.length === 1 ? '' : 's') + ' of this conversation',
        earlier.map(message)));
    }
    parts.push(fresh.map(message));
    const knobs = [];
    if (r.tools && r.tools.length) knobs.push(['tools offered', r.tools.join(', ')]);
    if (r.tool_choice) knobs.push(['tool_choice', r.tool_choice]);
    if (r.response_format) knobs.push(['response_format', r.response_format]);
    if (r.temperature !== undefined) knobs.push(['temperature', String(r.temperature)]);
    if (r.max_output_tokens) knobs.push(['max output tokens', String(r.max_output_tokens)]);
    if (r.previous_response_id) knobs.push(['previous_response_id', r.previous_response_id]);
    if (knobs.length) {
      parts.push(el('dl', { class: 'knobs' }, knobs.map(([k, v]) => [el('dt', {}, k), el('dd', { class: 'mono' }, v)])));
    }
    return el('div', { class: 'col' }, el('h4', {}, 'Request'), parts);
  }

  // faultText says what the client saw of a fault the reply scripted.
  function faultText(e) {
    switch (e.fault) {
      case 'drop': return 'The connection was closed before any byte of the answer.';
      case 'hang': return 'Nothing was sent until the client gave up.';
      case 'cut': return 'The client got ' + (e.stream ? 'the first ' + (e.chunks || 0) + ' events' : 'the body but its last byte') + ', then the connection was cut.';
      case 'malformed': return 'The client got ' + (e.stream ? 'the first ' + (e.chunks || 0) + ' events, then one that is not JSON.' : 'a body that is not JSON.');
      case 'error_event': return 'The stream ended with the provider\u2019s error event after ' + (e.chunks || 0) + ' events.';
      case 'http_error': return 'The reply was a scripted HTTP error.';
      default: return '';
    }
  }

  function replyView(e) {
    const parts = [];
    if (isMiss(e)) {
      parts.push(el('div', { class: 'miss' },
        el('div', { class: 'miss-head' }, badge('miss', 'bad'), ' no scenario answered this request'),
        e.tried && e.tried.length
          ? el('ol', { class: 'tried' }, e.tried.map((t) => el('li', {}, el('strong', {}, t.scenario), ': ', t.why)))
          : el('p', { class: 'dim' }, 'The session has no scenarios.')));
    } else if (e.error_code || e.error_message) {
      parts.push(el('div', { class: 'error' }, badge(e.error_code || 'error', 'bad'), ' ', e.error_message || ''));
    }
    if (e.fault) parts.push(el('div', { class: 'fault' }, badge('fault: ' + e.fault, 'bad'), ' ', faultText(e)));
    if (e.refusal) parts.push(el('div', { class: 'refusal' }, badge('refusal', 'warn'), ' ', e.refusal));
    if (e.reply_text) {
      if (e.json) {
        parts.push(el('div', {}, badge('JSON', 'tool'), e.schema_errors && e.schema_errors.length ? badge('schema errors', 'bad') : badge('fits schema', 'ok')));
        parts.push(el('pre', { class: 'code' }, pretty(e.reply_text)));
      } else {
        parts.push(el('div', { class: 'msg role-assistant' }, el('div', { class: 'role' }, 'assistant'), el('div', { class: 'text' }, e.reply_text)));
      }
    }
    if (e.schema_errors && e.schema_errors.length) {
      parts.push(el('ul', { class: 'problems' }, e.schema_errors.map((s) => el('li', {}, s))));
    }
    for (const c of e.tool_calls || []) parts.push(toolCall(c));
    if (e.contradictions && e.contradictions.length) {
      parts.push(el('div', { class: 'error' }, badge('contradicts the request', 'bad'),
        el('ul', { class: 'problems' }, e.contradictions.map((s) => el('li', {}, s)))));
    }
    if (!parts.length) parts.push(el('p', { class: 'dim' }, e.status === 0 ? 'No answer: the connection was dropped.' : 'No content.'));
    return el('div', { class: 'col' }, el('h4', {}, 'Reply'), parts);
  }

  function facts(e) {
    const u = e.usage || {};
    const out = [];
    if (e.usage) {
      out.push(['tokens in', String(u.input)], ['cached', String(u.cache_read)]);
      if (u.cache_write) out.push(['cache write', String(u.cache_write)]);
      out.push(['out', String(u.output)]);
      if (u.reasoning) out.push(['reasoning', String(u.reasoning)]);
    }
    out.push(['duration', ms(e.duration_ms)]);
    if (e.first_byte_ms) out.push(['first byte', ms(e.first_byte_ms)]);
    if (e.stream) out.push(['chunks', String(e.chunks || 0)]);
    if (e.scenario) out.push(['scenario', e.scenario + ' #' + (e.reply_index || 0) + (e.scripted_at ? ' (' + e.scripted_at + ')' : '')]);
    if (e.idempotency_key) out.push(['idempotency key', e.idempotency_key + (e.replay ? ' (replay)' : '')]);
    if (e.client && e.client.retry_count) out.push(['retry', String(e.client.retry_count)]);
    return el('div', { class: 'facts' }, out.map(([k, v]) => el('span', { class: 'fact' }, el('span', { class: 'k' }, k), ' ', el('span', { class: 'v' }, v))));
  }

  function step(e, index, prevCount, rkey) {
    const key = rkey + '/step/' + e.seq;
    const head = el('div', { class: 'step-head' },
      el('span', { class: 'step-no' }, 'Step ' + (index + 1)),
      badge(String(e.status), statusKind(e)),
      el('span', { class: 'mono' }, e.method + ' ' + e.path),
      e.model ? el('span', { class: 'mono dim' }, e.model) : '',
      e.stream ? badge('stream', 'info') : '',
      e.fault ? badge('fault: ' + e.fault, 'bad') : '',
      isMiss(e) ? badge('miss', 'bad') : '',
      e.replay ? badge('replay', 'info') : '',
      el('span', { class: 'spacer' }),
      el('span', { class: 'dim' }, (e.generation > 1 ? 'generation ' + e.generation + ' · ' : '') + 'turn ' + (e.turn || 0) + ' · #' + e.seq + ' · ' + time(e.time)));
    const wrong = (e.schema_errors && e.schema_errors.length) || (e.contradictions && e.contradictions.length);
    const cls = 'step' + (isMiss(e) ? ' is-miss' : '') + (e.fault ? ' is-fault' : '') + (wrong ? ' is-wrong' : '');
    return el('article', { class: cls, 'data-seq': e.seq },
      head,
      el('div', { class: 'step-body' }, requestView(e, prevCount, key), replyView(e)),
      facts(e),
      e.headers ? details(key + '/headers', false, 'headers (credentials redacted)',
        el('dl', { class: 'knobs' }, Object.entries(e.headers).sort().map(([k, v]) => [el('dt', {}, k), el('dd', { class: 'mono' }, v)]))) : '');
  }

  function renderConversations(entries, rkey) {
    const root = $('conversations');
    if (!entries.length) {
      replace(root, el('p', { class: 'empty' }, 'No requests yet. Requests appear here as the code under test sends them.'));
      return;
    }
    const groups = conversations(entries);
    replace(root, groups.map((g) => {
      const title = g.key ? 'Conversation ' + g.key : 'Other requests';
      const models = [...new Set(g.entries.map((e) => e.model).filter(Boolean))].join(', ');
      let prev = 0;
      const steps = g.entries.map((e, i) => {
        const msgs = (e.request && e.request.messages) || [];
        const s = step(e, i, g.key ? prev : 0, rkey);
        prev = msgs.length;
        return s;
      });
      const misses = g.entries.filter(isMiss).length;
      return details(rkey + '/conv/' + g.key, true,
        el('span', { class: 'conv-title' }, el('span', { class: 'mono' }, title),
          el('span', { class: 'dim' }, ' · ' + g.entries.length + ' step' + (g.entries.length === 1 ? '' : 's') + (models ? ' · ' + models : '')),
          misses ? badge(misses + ' miss' + (misses === 1 ? '' : 'es'), 'bad') : ''),
        el('div', { class: 'steps' }, steps));
    }));
  }

  // ---- side panels ----

  function renderAssertions(a) {
    const rows = [
      ['Unmatched requests', a.unmatched_total],
      ['Schema mismatches', a.schema_mismatch_total],
      ['Contradictions', a.contradiction_total],
      ['Unused replies', a.unused.length],
    ];
    const ok = rows.every(([, n]) => n === 0);
    const parts = [
      el('p', { class: ok ? 'verdict ok' : 'verdict bad' }, ok ? 'All assertions hold.' : 'The session\u2019s assertions would fail.'),
      el('table', { class: 'grid' }, el('tbody', {}, rows.map(([k, n]) => el('tr', {}, el('td', {}, k), el('td', { class: n ? 'num bad' : 'num' }, String(n)))))),
    ];
    if (a.unused.length) {
      parts.push(el('h3', {}, 'Unused replies'), el('ul', { class: 'plain' }, a.unused.map((u) =>
        el('li', {}, el('strong', {}, u.scenario), ' reply #' + u.index, u.scripted_at ? el('span', { class: 'mono dim' }, ' ' + u.scripted_at) : ''))));
    }
    const faults = Object.entries(a.faults);
    if (faults.length) {
      parts.push(el('h3', {}, 'Faults fired'), el('ul', { class: 'plain' }, faults.map(([k, v]) => el('li', {}, badge(k, 'bad'), ' ×' + v))));
    }
    replace($('assertions'), parts);
  }

  // jobStateKind is the badge colour of a job's state.
  function jobStateKind(state) {
    switch (state) {
      case 'in_progress': return 'info';
      case 'completed': return 'ok';
      case 'failed': return 'bad';
      case 'expired':
      case 'cancelled': return 'warn';
      default: return 'dim';
    }
  }

  // progressBar shows a percentage as a bar, read out by assistive
  // technology as a progress bar.
  function progressBar(percent, state) {
    const fill = el('div', { class: 'bar-fill ' + jobStateKind(state) });
    fill.style.width = Math.max(0, Math.min(100, percent)) + '%';
    return el('div', { class: 'bar', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': percent,
      'aria-label': 'progress ' + percent + '%' }, fill);
  }

  // poolText says what the jobs take of one pool's bounds.
  function poolText(name, p) {
    return name + ' ' + p.count + ' of ' + p.capacity + ' · ' + bytes(p.bytes) + ' of ' + bytes(p.max_bytes);
  }

  // renderJobs lists the runtime's jobs (videos, batches, background
  // responses), oldest first, as the admin API reads them off the
  // session's clock, under the bounds of both pools.
  function renderJobs(list) {
    const pools = el('div', { class: 'small dim pools' },
      el('div', {}, poolText('videos', list.capacity.videos)), el('div', {}, poolText('jobs', list.capacity.jobs)));
    if (!list.data.length) {
      replace($('jobs'), el('p', { class: 'empty' }, 'No jobs.'), pools);
      return;
    }
    replace($('jobs'), list.data.map((j) => {
      const when = ['created ' + time(j.created_at)];
      if (j.ended_at) when.push('ended ' + time(j.ended_at));
      return el('div', { class: 'job state-' + j.state, 'data-id': j.id },
        el('div', { class: 'job-head' }, el('strong', { class: 'mono' }, j.id), el('span', { class: 'spacer' }),
          badge(j.kind, 'tool'), badge(j.state.replace('_', ' '), jobStateKind(j.state))),
        el('div', { class: 'job-progress' }, progressBar(j.progress, j.state), el('span', { class: 'mono small' }, j.progress + '%')),
        el('div', { class: 'small dim' }, when.join(' · ')));
    }), pools);
  }

  function matchText(m) {
    if (!m || !Object.keys(m).length) return 'anything';
    return JSON.stringify(m);
  }

  function renderScenarios(list) {
    if (!list.length) {
      replace($('scenarios'), el('p', { class: 'empty' }, 'No scenarios.'));
      return;
    }
    replace($('scenarios'), list.map((s) => {
      const total = (s.replies || []).length;
      const left = s.remaining;
      const flags = [s.repeat ? 'repeat' : '', s.per_conversation ? 'per conversation' : '', s.in_process_only ? 'Go function' : ''].filter(Boolean);
      const byConv = Object.entries(s.remaining_by_conversation || {});
      return el('div', { class: 'scenario' + (left === 0 ? ' used' : '') },
        el('div', { class: 'scen-head' }, el('strong', {}, s.name),
          el('span', { class: 'spacer' }),
          badge(left + (total ? ' of ' + total : '') + ' left', left === 0 ? 'dim' : 'info')),
        el('div', { class: 'mono small' }, 'match: ', matchText(s.match)),
        flags.length ? el('div', { class: 'small dim' }, flags.join(' · ')) : '',
        byConv.length ? el('div', { class: 'small' }, byConv.map(([c, n]) => el('div', { class: 'mono' }, c + ': ' + n + ' left'))) : '');
    }));
  }

  // ---- loop ----

  function show(section, data, render) {
    const json = JSON.stringify(data);
    if (shown[section] === json) return;
    shown[section] = json;
    render(data);
  }

  function banner(text) {
    const b = $('banner');
    b.hidden = !text;
    b.textContent = text || '';
  }

  async function refresh() {
    const mine = generation;
    const id = selected();
    try {
      const data = await load(id);
      if (mine !== generation) return;
      updateSelector(data.sessions);
      banner('');
      const rkey = id || 'default';
      show('summary', { info: data.info, journal: data.journal, assertions: data.assertions }, renderSummary);
      show('conversations', { rkey, entries: data.journal.data }, (d) => renderConversations(d.entries, d.rkey));
      show('assertions', data.assertions, renderAssertions);
      show('jobs', data.jobs, renderJobs);
      show('scenarios', data.scenarios, renderScenarios);
      statusLine.textContent = 'updated ' + new Date().toLocaleTimeString([], { hour12: false });
      document.body.dataset.polls = String(Number(document.body.dataset.polls || 0) + 1);
    } catch (err) {
      if (mine !== generation) return;
      if (err.status === 404 && id) {
        banner('Session ' + id + ' no longer exists; what it showed last stays on screen.');
        try {
          updateSelector((await get('/admin-api/sessions')).data);
        } catch {
          // the next poll tries again
        }
      } else if (err.status === 401) {
        banner('Not authorized: log in with any user name and the management key as password.');
      } else {
        banner('Cannot reach the server: ' + err.message);
      }
      statusLine.textContent = 'failed ' + new Date().toLocaleTimeString([], { hour12: false });
    }
  }

  function schedule() {
    clearTimeout(timer);
    if (!live.checked) return;
    timer = setTimeout(async () => {
      await refresh();
      schedule();
    }, POLL_MS);
  }

  function fromHash() {
    const m = /^#session=(.+)$/.exec(location.hash);
    if (!m) return '';
    try {
      return decodeURIComponent(m[1]);
    } catch {
      return ''; // a hash that is no encoded ID selects the default runtime
    }
  }

  function choose(id) {
    if (id && !Array.from(select.options).some((o) => o.value === id)) {
      select.appendChild(el('option', { value: id }, id));
    }
    select.value = id;
    generation++;
    for (const k of Object.keys(shown)) shown[k] = '';
    window.scrollTo(0, 0);
  }

  select.addEventListener('change', async () => {
    const id = select.value;
    history.replaceState(null, '', id ? '#session=' + encodeURIComponent(id) : location.pathname);
    choose(id);
    await refresh();
    schedule();
  });
  live.addEventListener('change', async () => {
    if (live.checked) await refresh();
    schedule();
  });
  window.addEventListener('hashchange', async () => {
    choose(fromHash());
    await refresh();
    schedule();
  });

  choose(fromHash());
  refresh().then(schedule);
})();
