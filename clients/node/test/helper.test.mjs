// The helper itself: starting and stopping the binary, connecting to a
// running server, the options it gives the SDKs, and its errors.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import OpenAI from 'openai';

import {
  CONVERSATION_HEADER, LLMTestServerError, SESSION_HEADER, SESSION_KEY_HEADER, connect, startServer,
} from '../llmtestserver.mjs';

/** @type {import('../llmtestserver.mjs').LLMTestServer} */
let server;
before(async () => {
  server = await startServer();
});
after(() => server.close());

test('startServer reads the URL and the generated management key the binary prints', async () => {
  // Without a key in the environment the binary generates one and prints it.
  const own = await startServer({ env: { ...process.env, LLMTEST_MANAGEMENT_KEY: '' } });
  try {
    assert.match(own.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(!own.url.endsWith(':0'), 'port 0 became a real port');
    assert.match(own.managementKey, /^llmtest-\S+$/);
    // The key it read is the one that works.
    const res = await fetch(`${own.url}/admin-api/sessions`, { headers: { Authorization: `Bearer ${own.managementKey}` } });
    assert.equal(res.status, 200);
    const wrong = await fetch(`${own.url}/admin-api/sessions`, { headers: { Authorization: 'Bearer not-the-key' } });
    assert.equal(wrong.status, 401);
  } finally {
    await own.close();
  }
});

test('a server left running is killed when Node exits', async () => {
  // A script that starts a server and ends without closing it.
  const script = `import { startServer } from ${JSON.stringify(new URL('../llmtestserver.mjs', import.meta.url).href)};
    const s = await startServer(); console.log(s.url);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, 'the script ended on its own: the server did not hold it up');
  const url = out.trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  // The kill is sent as Node exits; the kernel closes the listener a moment
  // later. (A process ID would not do: the killed process may stay a zombie
  // until init reaps it.)
  const listening = async () => {
    try {
      await fetch(`${url}/healthz`);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 100 && await listening(); i++) await delay(20);
  assert.equal(await listening(), false, `a server still answers at ${url}`);
});

test('startServer finds a key given among the args, or in a -config file with its API key', async (t) => {
  const inArgs = await startServer({ args: ['-management-key=args-key'], env: { ...process.env, LLMTEST_MANAGEMENT_KEY: '' } });
  t.after(() => inArgs.close());
  assert.equal(inArgs.managementKey, 'args-key');
  assert.match((await inArgs.createSession()).id, /^sess_/);

  const dir = await mkdtemp(path.join(tmpdir(), 'llmtest-node-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'config.json');
  await writeFile(file, JSON.stringify({ management_key: 'file-key', startup: { api_key: 'file-provider-key' } }));
  const env = { ...process.env, LLMTEST_MANAGEMENT_KEY: '' };
  // The key the file sets is not printed: the helper says to pass it,
  // at once rather than at its start timeout.
  await assert.rejects(startServer({ args: ['-config', file], env, startTimeoutMs: 60000 }),
    /printed its URL but no management key.*pass \{managementKey\}/);
  const fromFile = await startServer({ args: ['-config', file], env, managementKey: 'file-key', apiKey: 'file-provider-key' });
  t.after(() => fromFile.close());
  const session = await fromFile.createSession({ scenarios: [{ name: 'hi', replies: [{ text: 'from the file' }] }] });
  assert.equal(session.apiKey, 'file-provider-key', 'a session inherits the startup API key');
  const res = await new OpenAI(session.openai({ maxRetries: 0 })).chat.completions.create({
    model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }],
  });
  assert.equal(res.choices[0].message.content, 'from the file');
  assert.equal((await session.scenarios()).length, 1, 'the admin calls carry the inherited key too');
});

test('startServer passes a given management key, and close stops the process', async () => {
  const own = await startServer({ managementKey: 'node-helper-key' });
  try {
    assert.equal(own.managementKey, 'node-helper-key');
    assert.notEqual(own.url, server.url);
    const session = await own.createSession();
    assert.match(session.id, /^sess_/);
  } finally {
    await own.close();
  }
  assert.ok(own.process.exitCode !== null || own.process.signalCode !== null, 'the process has exited');
  await assert.rejects(fetch(`${own.url}/admin-api/sessions`), 'nothing listens there any more');
});

test('startServer fails clearly without a binary or with a bad flag', async () => {
  await assert.rejects(startServer({ env: {} }), /LLMTEST_BINARY/);
  await assert.rejects(startServer({ binary: '/nonexistent/llmtestserver' }), /could not start: .*ENOENT/);
  await assert.rejects(startServer({ args: ['-no-such-flag'] }), /exited \(2\) before printing its URL; stderr: .*no-such-flag/);
});

test('connect reaches a running server, and close deletes the sessions it created', async () => {
  const client = connect(`${server.url}/`, server.managementKey);
  assert.equal(client.url, server.url, 'a trailing slash is dropped');
  const kept = await server.createSession();
  const a = await client.createSession();
  const b = await client.createSession();
  await b.delete();
  await client.close();

  const ids = (await server.sessions()).map((s) => s.id);
  assert.ok(!ids.includes(a.id), 'close deleted the session left alive');
  assert.equal(a.deleted, true);
  assert.ok(ids.includes(kept.id), 'sessions of other handles stay');
  await kept.delete();
});

test('the options for the SDKs carry the base URLs, the session headers and the key', async (t) => {
  const session = await server.createSession();
  t.after(() => session.delete());

  assert.equal(session.baseURL, `${server.url}/v1`);
  assert.equal(session.anthropicBaseURL, server.url);
  assert.deepEqual(session.headers(), { [SESSION_HEADER]: session.id, [SESSION_KEY_HEADER]: session.key });
  assert.ok(session.apiKey.length > 0, 'a placeholder key the SDKs accept');

  const opts = session.openai({ maxRetries: 0, defaultHeaders: { 'X-Extra': '1' }, conversation: 'alice' });
  assert.deepEqual(opts, {
    baseURL: `${server.url}/v1`,
    apiKey: session.apiKey,
    maxRetries: 0,
    defaultHeaders: {
      [SESSION_HEADER]: session.id, [SESSION_KEY_HEADER]: session.key, [CONVERSATION_HEADER]: 'alice', 'X-Extra': '1',
    },
  });
  assert.equal(session.anthropic().baseURL, server.url);

  const keyed = await server.createSession({ api_key: 'provider-key' });
  t.after(() => keyed.delete());
  assert.equal(keyed.openai().apiKey, 'provider-key');
  // The admin calls send the bearer token the session requires.
  assert.deepEqual(await keyed.journal(), []);
});

test('the conversation option gives each conversation its own per-conversation queue', async (t) => {
  const session = await server.createSession({
    scenarios: [{ name: 'story', per_conversation: true, replies: [{ text: 'chapter 1' }, { text: 'chapter 2' }] }],
  });
  t.after(() => session.delete());
  const ask = async (conversation) => {
    const openai = new OpenAI(session.openai({ conversation }));
    const res = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Go on' }] });
    return res.choices[0].message.content;
  };
  assert.deepEqual([await ask('alice'), await ask('bob'), await ask('alice')], ['chapter 1', 'chapter 1', 'chapter 2']);
});

test('an invalid configuration is an LLMTestServerError naming the field, and changes nothing', async (t) => {
  await assert.rejects(server.createSession({ scenarios: [{ name: 'x', replies: [{ delay_ms: -1, text: 'y' }] }] }), (err) => {
    assert.ok(err instanceof LLMTestServerError, `got ${err}`);
    assert.equal(err.status, 400);
    assert.equal(err.code, 'invalid_configuration');
    assert.equal(err.param, 'scenarios[0].replies[0].delay_ms');
    assert.match(err.message, /^POST \/admin-api\/sessions: 400 invalid_configuration: /);
    return true;
  });

  const session = await server.createSession({ scenarios: [{ name: 'kept', replies: [{ text: 'a' }] }] });
  t.after(() => session.delete());
  await assert.rejects(session.script({ name: 'bad', match: { no_such_matcher: true }, replies: [{ text: 'b' }] }),
    (err) => err instanceof LLMTestServerError && err.code === 'invalid_configuration');
  assert.deepEqual((await session.scenarios()).map((s) => s.name), ['kept']);
});

test('configure replaces the configuration and reset makes the replies available again', async (t) => {
  const session = await server.createSession({ scenarios: [{ name: 'old', replies: [{ text: 'old reply' }] }] });
  t.after(() => session.delete());
  await session.configure({ api_key: 'new-key', scenarios: [{ name: 'new', replies: [{ text: 'new reply' }] }] });
  assert.equal(session.apiKey, 'new-key');
  const openai = new OpenAI(session.openai({ maxRetries: 0 }));
  const ask = async () => (await openai.chat.completions.create({
    model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }],
  })).choices[0].message.content;
  assert.equal(await ask(), 'new reply');
  await assert.rejects(ask(), (err) => err.code === 'llm_test_server_no_scenario');
  assert.equal((await session.journal()).length, 2);

  await session.reset();
  assert.deepEqual(await session.journal(), []);
  assert.equal(await ask(), 'new reply');
  assert.equal((await session.request('GET', '/v1/models')).object, 'list', 'request reaches any route as the session');
});

test('fork copies a session with what its scenarios have left, and clearScenarios empties them', async (t) => {
  const base = await server.createSession({
    scenarios: [{ name: 'steps', replies: [{ text: 'first' }, { text: 'second' }] }],
  });
  t.after(() => base.delete());
  const ask = (session) => new OpenAI(session.openai({ maxRetries: 0 })).chat.completions.create({
    model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Next?' }],
  });
  assert.equal((await ask(base)).choices[0].message.content, 'first');

  const fork = await base.fork();
  t.after(() => fork.delete());
  assert.notEqual(fork.id, base.id);
  assert.deepEqual(await fork.journal(), [], 'a fork starts with an empty journal');
  assert.equal((await ask(fork)).choices[0].message.content, 'second', 'the fork goes on where its parent was');
  assert.equal((await ask(base)).choices[0].message.content, 'second', 'and the parent goes on alone');

  const other = await base.fork();
  t.after(() => other.delete());
  await other.clearScenarios('steps');
  await assert.rejects(ask(other), (err) => {
    assert.equal(err.code, 'llm_test_server_no_scenario');
    return true;
  });
  await assert.rejects(other.clearScenarios('nope'), (err) => {
    assert.ok(err instanceof LLMTestServerError);
    assert.equal(err.status, 400);
    return true;
  });
});

test('the clock reads and moves a fake clock, and refuses to move the real one', async (t) => {
  const faked = await startServer({ args: ['-fake-clock', '2026-01-01T00:00:00Z'] });
  t.after(() => faked.close());
  assert.deepEqual(await faked.clock(), { now: '2026-01-01T00:00:00Z', fake: true });
  assert.deepEqual(await faked.advanceClock('1m30s'), { now: '2026-01-01T00:01:30Z', fake: true });

  assert.equal((await server.clock()).fake, false);
  await assert.rejects(server.advanceClock('1s'), (err) => {
    assert.equal(err.status, 409);
    assert.equal(err.code, 'clock_not_fake');
    return true;
  });
});
