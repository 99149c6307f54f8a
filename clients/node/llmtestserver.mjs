// A thin helper for driving llmtestserver from Node tests: start the binary
// or connect to a running server, create isolated sessions, script them,
// read what they were sent, and hand the official SDKs the options they
// need. It has no dependencies: it uses Node's fetch and child_process.
//
//   const server = await startServer();                        // once per test file
//   const session = await server.createSession({ scenarios }); // once per test
//   const openai = new OpenAI(session.openai());
//
// The README next to this file explains it; the server's README documents
// the HTTP API every function here calls.

import { spawn } from 'node:child_process';

/** The header that selects a session. */
export const SESSION_HEADER = 'X-Llm-Test-Server-Session';
/** The header that proves the caller holds the session's key. */
export const SESSION_KEY_HEADER = 'X-Llm-Test-Server-Session-Key';
/** The header that names the conversation a request belongs to. */
export const CONVERSATION_HEADER = 'X-Llm-Test-Server-Conversation';

// The SDKs refuse to start without an API key, and a session without an
// api_key accepts any, so this stands in when the configuration sets none.
const PLACEHOLDER_API_KEY = 'llmtest-no-key';

// keyOf is the provider key a configuration sets: api_key, or bearer_token,
// its former name, which the server still takes.
function keyOf(config) {
  return config?.api_key || config?.bearer_token || undefined;
}

// The filters GET /admin-api/journal takes, so that a misspelt one fails here
// with its name rather than as the server's 400 after a round trip.
const JOURNAL_FILTERS = new Set([
  'provider', 'endpoint', 'model', 'scenario', 'conversation', 'generation', 'status', 'error_code', 'fault',
]);

/**
 * An error answer of the server's admin API, in OpenAI's envelope
 * (`{"error": {"message", "type", "param", "code"}}`).
 */
export class LLMTestServerError extends Error {
  /**
   * @param {string} what the request that failed, such as "POST /admin-api/sessions"
   * @param {number} status the HTTP status
   * @param {any} body the parsed JSON body, or its text when it is not JSON
   */
  constructor(what, status, body) {
    const err = body && typeof body === 'object' && body.error && typeof body.error === 'object' ? body.error : {};
    const detail = err.message ?? (typeof body === 'string' ? body : JSON.stringify(body));
    super(`${what}: ${status}${err.code ? ` ${err.code}` : ''}: ${detail}`);
    this.name = 'LLMTestServerError';
    /** @type {number} */
    this.status = status;
    /** @type {string | null} the error's `code`, such as "session_not_found" */
    this.code = err.code ?? null;
    /** @type {string | null} */
    this.type = err.type ?? null;
    /** @type {string | null} the offending field, such as "scenarios[0].replies" */
    this.param = err.param ?? null;
    /** @type {any} */
    this.body = body;
  }
}

/**
 * Calls the server and decodes its answer: undefined for 204, the parsed
 * JSON otherwise. Any status of 400 or more throws an LLMTestServerError.
 *
 * @param {string} url
 * @param {string} method
 * @param {Record<string, string>} headers
 * @param {unknown} [body] sent as JSON when not undefined
 */
async function call(url, method, headers, body) {
  const init = { method, headers: { Accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let parsed = text;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Kept as text: net/http's own refusals are plain text.
    }
  }
  if (res.status >= 400) {
    throw new LLMTestServerError(`${method} ${new URL(url).pathname}`, res.status, parsed);
  }
  return res.status === 204 || text === '' ? undefined : parsed;
}

/**
 * A server to create sessions on: one this process started with
 * startServer, or a running one reached with connect.
 */
export class LLMTestServer {
  /**
   * @param {{url: string, managementKey: string}} options the server's root
   *   URL (such as "http://127.0.0.1:8080") and its management key
   */
  constructor({ url, managementKey, apiKey, bearerToken }) {
    if (!url) throw new TypeError('LLMTestServer: url is required');
    if (!managementKey) throw new TypeError('LLMTestServer: managementKey is required');
    /** @type {string} the root URL, without a trailing slash */
    this.url = url.replace(/\/+$/, '');
    /** @type {string} */
    this.managementKey = managementKey;
    /**
     * @type {string | undefined} the startup configuration's api_key,
     * which a session whose configuration sets none inherits
     */
    this.providerKey = apiKey || bearerToken || undefined;
    /** @type {Set<Session>} sessions created here and not deleted yet */
    this.sessionsAlive = new Set();
    /** @type {import('node:child_process').ChildProcess | null} */
    this.process = null;
  }

  /**
   * Creates a session: POST /admin-api/sessions with the management key.
   *
   * @param {object} [config] the session's configuration, the same JSON as
   *   the body of POST /admin-api/sessions (api_key, models, scenarios,
   *   stream, rate_limits, chaos, id_seed, ...); none for the startup one
   * @returns {Promise<Session>}
   */
  async createSession(config) {
    const created = await call(`${this.url}/admin-api/sessions`, 'POST',
      { Authorization: `Bearer ${this.managementKey}` }, config ?? {});
    const session = new Session(this, created, keyOf(config) ?? this.providerKey);
    this.sessionsAlive.add(session);
    return session;
  }

  /**
   * The working set: GET /admin-api/sessions, the most recently used
   * session first (never a key).
   *
   * @returns {Promise<Array<{id: string, created_at: string, last_accessed_at: string,
   *   requests: number, pending_replies: number, reservation_bytes: number}>>}
   */
  async sessions() {
    const list = await call(`${this.url}/admin-api/sessions`, 'GET', { Authorization: `Bearer ${this.managementKey}` });
    return list.data;
  }

  /**
   * The server's clock (GET /admin-api/clock): the time every runtime
   * reads, and whether it is a fake one (-fake-clock).
   *
   * @returns {Promise<{now: string, fake: boolean}>}
   */
  async clock() {
    return call(`${this.url}/admin-api/clock`, 'GET', { Authorization: `Bearer ${this.managementKey}` });
  }

  /**
   * Moves a fake clock forward (POST /admin-api/clock/advance), firing
   * what falls due: reply delays, paced streams, rate-limit windows. A
   * server on the real clock refuses with 409 clock_not_fake.
   *
   * @param {string} duration in Go's notation, such as "20s" or "1m30s"
   * @returns {Promise<{now: string, fake: boolean}>}
   */
  async advanceClock(duration) {
    return call(`${this.url}/admin-api/clock/advance`, 'POST', { Authorization: `Bearer ${this.managementKey}` }, { duration });
  }

  /**
   * Lets go of the server. A server started by startServer is stopped
   * (SIGTERM, then SIGKILL after `timeoutMs`), which ends its sessions with
   * it; on a server reached with connect, the sessions created here and
   * not deleted yet are deleted, so a shared server gets its capacity back.
   *
   * @param {{timeoutMs?: number}} [options]
   */
  async close({ timeoutMs = 5000 } = {}) {
    if (this.process) {
      await stopProcess(this.process, timeoutMs);
      this.sessionsAlive.clear();
      return;
    }
    await Promise.allSettled([...this.sessionsAlive].map((s) => s.delete()));
  }
}

/**
 * One isolated session: its own scenarios, journal, history and limits.
 */
export class Session {
  /**
   * Made by LLMTestServer.createSession.
   *
   * @param {LLMTestServer} server
   * @param {{id: string, key: string, reservation_bytes: number}} created the Created body
   * @param {string} [providerKey] the api_key its configuration set
   */
  constructor(server, created, providerKey) {
    /** @type {LLMTestServer} */
    this.server = server;
    /** @type {string} */
    this.id = created.id;
    /** @type {string} the session key, shown once at creation */
    this.key = created.key;
    /** @type {number} */
    this.reservationBytes = created.reservation_bytes;
    /** @type {string | undefined} the api_key its configuration set */
    this.providerKey = providerKey || undefined;
    /** @type {boolean} */
    this.deleted = false;
  }

  /** The base URL for the openai SDK: the server's URL plus "/v1". */
  get baseURL() {
    return `${this.server.url}/v1`;
  }

  /** The base URL for @anthropic-ai/sdk: the server's root (it adds "/v1/messages"). */
  get anthropicBaseURL() {
    return this.server.url;
  }

  /**
   * The API key for the SDKs: the configuration's api_key, else a
   * placeholder (a session without one accepts any key).
   */
  get apiKey() {
    return this.providerKey ?? PLACEHOLDER_API_KEY;
  }

  /**
   * The two headers that select this session, for an SDK's defaultHeaders.
   *
   * @param {string} [conversation] also declare this conversation
   *   (X-Llm-Test-Server-Conversation), for per-conversation scenarios
   * @returns {Record<string, string>}
   */
  headers(conversation) {
    const h = { [SESSION_HEADER]: this.id, [SESSION_KEY_HEADER]: this.key };
    if (conversation !== undefined) h[CONVERSATION_HEADER] = conversation;
    return h;
  }

  /**
   * Options for `new OpenAI(...)`: baseURL, apiKey and defaultHeaders, over
   * which `extra` is spread (its defaultHeaders are merged).
   *
   * @param {{conversation?: string, defaultHeaders?: Record<string, string>,
   *   [option: string]: any}} [extra] other client options, such as maxRetries
   */
  openai(extra = {}) {
    return this.#clientOptions(this.baseURL, extra);
  }

  /**
   * Options for `new Anthropic(...)`: baseURL, apiKey and defaultHeaders, over
   * which `extra` is spread (its defaultHeaders are merged).
   *
   * @param {{conversation?: string, defaultHeaders?: Record<string, string>,
   *   [option: string]: any}} [extra] other client options, such as maxRetries
   */
  anthropic(extra = {}) {
    return this.#clientOptions(this.anthropicBaseURL, extra);
  }

  #clientOptions(baseURL, { conversation, defaultHeaders, ...rest }) {
    return {
      baseURL,
      apiKey: this.apiKey,
      ...rest,
      defaultHeaders: { ...this.headers(conversation), ...defaultHeaders },
    };
  }

  /**
   * Calls any route as this session: its two headers and, when its
   * configuration set one, its bearer token. The routes without a method
   * here (faults, chaos, clock, stored responses...) go through it.
   *
   * @param {string} method
   * @param {string} path such as "/admin-api/scenarios" or "/v1/models"
   * @param {unknown} [body] sent as JSON when given
   * @returns {Promise<any>} the parsed JSON, or undefined for 204
   */
  async request(method, path, body) {
    const headers = this.headers();
    if (this.providerKey) headers.Authorization = `Bearer ${this.providerKey}`;
    return call(`${this.server.url}${path}`, method, headers, body);
  }

  /**
   * Adds scenarios after the existing ones (POST /admin-api/scenarios); one
   * named like an existing scenario appends its replies to it. Nothing is
   * added unless all are valid.
   *
   * @param {...object} scenarios each `{name, match?, replies, repeat?, per_conversation?}`;
   *   an array is taken as the list itself
   */
  async script(...scenarios) {
    const list = scenarios.length === 1 && Array.isArray(scenarios[0]) ? scenarios[0] : scenarios;
    await this.request('POST', '/admin-api/scenarios', { scenarios: list });
  }

  /**
   * Drops the replies the scenario called name has left, or those of every
   * scenario without a name (DELETE /admin-api/scenarios).
   *
   * @param {string} [name]
   */
  async clearScenarios(name) {
    const query = name === undefined ? '' : `?name=${encodeURIComponent(name)}`;
    await this.request('DELETE', `/admin-api/scenarios${query}`);
  }

  /**
   * A new session that starts as a copy of this one: its configuration,
   * what each scenario has left, its history and its limits, with an empty
   * journal (POST /admin-api/sessions/{id}/fork). Build a base once, fork
   * it per test.
   *
   * @param {{name?: string}} [options] name seeds the fork's IDs from a
   *   seeded parent's (same name, same IDs)
   * @returns {Promise<Session>}
   */
  async fork(options = {}) {
    const body = options.name === undefined ? undefined : { name: options.name };
    const created = await call(`${this.server.url}/admin-api/sessions/${encodeURIComponent(this.id)}/fork`, 'POST',
      this.headers(), body);
    const fork = new Session(this.server, created, this.providerKey);
    this.server.sessionsAlive.add(fork);
    return fork;
  }

  /**
   * The scenarios with what each has left (GET /admin-api/scenarios).
   *
   * @returns {Promise<Array<object>>} each scenario plus remaining and remaining_by_conversation
   */
  async scenarios() {
    return (await this.request('GET', '/admin-api/scenarios')).scenarios;
  }

  /**
   * The journal's entries, oldest first (GET /admin-api/journal).
   *
   * @param {{provider?: string, endpoint?: string, model?: string, scenario?: string,
   *   conversation?: string, generation?: number, status?: number|string,
   *   error_code?: string, fault?: string}} [filters] keep the entries whose
   *   field equals each value; `status` is a code (429) or a class ("4xx")
   * @returns {Promise<Array<object>>} the entries (seq, path, status, model,
   *   user_text, request {system, messages, tools...}, reply_text, tool_calls,
   *   tool_results, scenario, usage, ...)
   */
  async journal(filters = {}) {
    return (await this.journalPage(filters)).data;
  }

  /**
   * The journal's whole answer: `{object: "list", data, evicted}`, where
   * evicted counts the entries dropped by the journal's bounds.
   *
   * @param {Parameters<Session['journal']>[0]} [filters] as for journal
   */
  async journalPage(filters = {}) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filters)) {
      if (!JOURNAL_FILTERS.has(name)) {
        throw new TypeError(`journal: unknown filter ${JSON.stringify(name)}; known: ${[...JOURNAL_FILTERS].join(', ')}`);
      }
      if (value !== undefined) query.set(name, String(value));
    }
    const q = query.size > 0 ? `?${query}` : '';
    return this.request('GET', `/admin-api/journal${q}`);
  }

  /**
   * What went wrong so far (GET /admin-api/assertions): unmatched requests,
   * schema mismatches, contradictions, unused replies and faults fired.
   *
   * @returns {Promise<{unmatched: object[], unmatched_total: number, schema_mismatches: object[],
   *   schema_mismatch_total: number, contradictions: object[], contradiction_total: number,
   *   unused_replies: Record<string, number>, unused: object[], faults: Record<string, number>}>}
   */
  async assertions() {
    return this.request('GET', '/admin-api/assertions');
  }

  /**
   * Replaces the whole configuration (PUT /admin-api/config); fields left
   * out take the startup's values, so send api_key again to keep it.
   *
   * @param {object} config the same JSON as createSession's
   */
  async configure(config) {
    await this.request('PUT', '/admin-api/config', config);
    this.providerKey = keyOf(config);
  }

  /**
   * Empties the journal and makes every scripted reply available again,
   * keeping the configuration (POST /admin-api/reset).
   */
  async reset() {
    await this.request('POST', '/admin-api/reset');
  }

  /**
   * Deletes the session (DELETE /admin-api/sessions/{id}) and releases its
   * capacity. Its headers then get 404 session_not_found. Deleting it
   * again does nothing.
   */
  async delete() {
    if (this.deleted) return;
    await call(`${this.server.url}/admin-api/sessions/${encodeURIComponent(this.id)}`, 'DELETE', this.headers());
    this.deleted = true;
    this.server.sessionsAlive.delete(this);
  }
}

/**
 * A server already running, such as one started by CI or docker.
 *
 * @param {string} url its root URL, such as "http://127.0.0.1:8080"
 * @param {string} managementKey the key it was started with (-management-key
 *   or $LLMTEST_MANAGEMENT_KEY)
 * @param {object} [options]
 * @param {string} [options.apiKey] the api_key of the server's startup
 *   configuration, if it sets one: sessions created without one of their
 *   own inherit it, and their apiKey is then this
 * @param {string} [options.bearerToken] the former name of options.apiKey
 * @returns {LLMTestServer}
 */
export function connect(url, managementKey, options = {}) {
  return new LLMTestServer({ url, managementKey, apiKey: options.apiKey, bearerToken: options.bearerToken });
}

/**
 * Starts the llmtestserver binary on a free loopback port and waits for it
 * to print its URL (and, when it generated one, its management key). Close
 * the server when done; a process left running is killed when Node exits.
 *
 * @param {object} [options]
 * @param {string} [options.binary] path of the built binary; default $LLMTEST_BINARY
 * @param {string} [options.managementKey] passed as -management-key; default
 *   a -management-key among options.args, else $LLMTEST_MANAGEMENT_KEY (which
 *   the server reads itself), else the key the server generates and prints.
 *   A key set only by a -config file must be given here too.
 * @param {string} [options.apiKey] the api_key of the startup
 *   configuration (a -config file's "startup"), if it sets one; see connect
 * @param {string} [options.bearerToken] the former name of options.apiKey
 * @param {string} [options.addr] listen address, default "127.0.0.1:0"
 * @param {string[]} [options.args] more flags, such as ["-max-sessions", "64"]
 * @param {NodeJS.ProcessEnv} [options.env] the process's environment; default process.env
 * @param {number} [options.startTimeoutMs] how long to wait for the lines, default 10000
 * @returns {Promise<LLMTestServer>} with `process` set
 */
export async function startServer(options = {}) {
  const env = options.env ?? process.env;
  const binary = options.binary ?? env.LLMTEST_BINARY;
  if (!binary) {
    throw new Error('startServer: no binary; set LLMTEST_BINARY or pass {binary} (go build -o DIR ./cmd/llmtestserver)');
  }
  const args = ['-addr', options.addr ?? '127.0.0.1:0', ...(options.args ?? [])];
  // A key from the environment is the child's too: it stays off the
  // command line, where other users of the machine could read it.
  const managementKey = options.managementKey ?? keyFlag(options.args ?? []) ?? (env.LLMTEST_MANAGEMENT_KEY || undefined);
  if (options.managementKey) args.push('-management-key', options.managementKey);

  const child = spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));

  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4096);
  });

  const { url, key } = await new Promise((resolve, reject) => {
    let buffered = '';
    let url;
    let key = managementKey;
    // The server prints its key right after its URL when it generated
    // one; when no key line follows soon, none will.
    let keyTimer;
    const fail = (why) => {
      clearTimeout(timer);
      clearTimeout(keyTimer);
      child.kill('SIGKILL');
      reject(new Error(`startServer: ${binary} ${why}${stderr ? `; stderr: ${stderr.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(url
      ? 'printed its URL but no management key: it was set where the helper cannot see it (a -config file, $LLMTEST_CONFIG); pass {managementKey}'
      : `printed no URL within ${options.startTimeoutMs ?? 10000} ms`),
    options.startTimeoutMs ?? 10000);

    child.once('error', (err) => fail(`could not start: ${err.message}`));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before printing its URL`));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', function onData(chunk) {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        const listening = /^llmtestserver listening on (\S+)$/.exec(line);
        const printedKey = /^management key: (\S+)$/.exec(line);
        if (listening) url = listening[1];
        if (printedKey && !key) key = printedKey[1];
      }
      if (url && !key && !keyTimer) {
        keyTimer = setTimeout(() => fail('printed its URL but no management key: it was set where the helper cannot see it (a -config file, $LLMTEST_CONFIG); pass {managementKey}'), 1000);
      }
      if (url && key) {
        clearTimeout(timer);
        clearTimeout(keyTimer);
        child.removeAllListeners('error');
        child.removeAllListeners('exit');
        child.once('exit', () => process.off('exit', killOnExit));
        // A failed kill is reported as an 'error' event, which would throw
        // without a listener; close waits for 'exit' instead.
        child.on('error', () => {});
        // Later output (a request log) is still read, so the pipe never
        // fills up and blocks the server, but not kept.
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve({ url, key });
      }
    });
  });

  // A forgotten close must not keep the test runner waiting on the child:
  // Node may exit, and killOnExit then stops the server.
  child.unref();
  child.stdout.unref?.();
  child.stderr.unref?.();

  const server = new LLMTestServer({ url, managementKey: key, apiKey: options.apiKey, bearerToken: options.bearerToken });
  server.process = child;
  return server;
}

/**
 * The value of a -management-key flag among args (-management-key K,
 * -management-key=K, with one dash or two), or undefined.
 *
 * @param {string[]} args
 * @returns {string | undefined}
 */
function keyFlag(args) {
  let key;
  for (let i = 0; i < args.length; i++) {
    const m = /^--?management-key(?:=(.*))?$/.exec(args[i]);
    if (!m) continue;
    key = m[1] ?? args[i + 1];
    if (m[1] === undefined) i++;
  }
  return key || undefined;
}

/**
 * Stops a started server: SIGTERM (it deletes every session and shuts down
 * gracefully), then SIGKILL after timeoutMs.
 *
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} timeoutMs
 */
async function stopProcess(child, timeoutMs) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}
