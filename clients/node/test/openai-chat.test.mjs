// The openai SDK against the built binary's Chat Completions: sessions made
// over HTTP, scripted replies, streaming, a tool loop, a retried 429,
// parallel sessions, the journal and deletion.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';

import { LLMTestServerError, startServer } from '../llmtestserver.mjs';

const MODEL = 'gpt-4o-mini';

/** @type {import('../llmtestserver.mjs').LLMTestServer} */
let server;
before(async () => {
  server = await startServer();
});
after(() => server.close());

/** A session for one test, deleted when the test ends. */
async function newSession(t, config) {
  const session = await server.createSession(config);
  t.after(() => session.delete());
  return session;
}

/** The get_weather tool, as Chat Completions takes it. */
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

test('a session created over HTTP answers its scripted replies in order', async (t) => {
  const session = await newSession(t, {
    scenarios: [{ name: 'greeting', match: { user_contains: 'Hello' }, replies: [{ text: 'Hi, first' }, { text: 'Hi, second' }] }],
  });
  assert.match(session.id, /^sess_/);
  assert.ok(session.key.length > 0);
  const listed = await server.sessions();
  assert.ok(listed.some((s) => s.id === session.id), 'the working set lists the new session');

  const openai = new OpenAI(session.openai());
  const ask = () => openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello there' }] });
  const first = await ask();
  assert.equal(first.object, 'chat.completion');
  assert.equal(first.choices[0].message.content, 'Hi, first');
  assert.equal(first.choices[0].finish_reason, 'stop');
  assert.ok(first.usage.completion_tokens > 0);
  assert.equal((await ask()).choices[0].message.content, 'Hi, second');

  // Both replies are used: the third call is no scenario's.
  await assert.rejects(ask(), (err) => {
    assert.ok(err instanceof OpenAI.BadRequestError, `got ${err}`);
    assert.equal(err.code, 'llm_test_server_no_scenario');
    return true;
  });
});

test('replies scripted after creation answer too, and scenarios show what is left', async (t) => {
  const session = await newSession(t);
  await session.script(
    { name: 'french', match: { user_contains: 'French' }, replies: [{ text: 'Bonjour' }] },
    { name: 'fallback', repeat: true, replies: [{ text: 'I do not know' }] },
  );
  const openai = new OpenAI(session.openai());
  const ask = async (content) =>
    (await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content }] })).choices[0].message.content;
  assert.equal(await ask('Say it in French'), 'Bonjour');
  assert.equal(await ask('Say it in French'), 'I do not know');
  assert.equal(await ask('Anything'), 'I do not know');

  const left = Object.fromEntries((await session.scenarios()).map((s) => [s.name, s.remaining]));
  assert.deepEqual(left, { french: 0, fallback: 1 });
});

test('a streamed chat arrives in several chunks that add up to the reply', async (t) => {
  const session = await newSession(t, {
    scenarios: [{ name: 'story', replies: [{ text: 'Once upon a time there was a test.' }] }],
  });
  const openai = new OpenAI(session.openai());
  const stream = await openai.chat.completions.create({
    model: MODEL,
    messages: [{ role: 'user', content: 'Tell me a story' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let contentChunks = 0;
  let finish = null;
  let usage = null;
  const ids = new Set();
  for await (const chunk of stream) {
    ids.add(chunk.id);
    assert.equal(chunk.object, 'chat.completion.chunk');
    const choice = chunk.choices[0];
    if (choice?.delta?.content) {
      text += choice.delta.content;
      contentChunks++;
    }
    if (choice?.finish_reason) finish = choice.finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  assert.equal(text, 'Once upon a time there was a test.');
  assert.ok(contentChunks > 1, `content came in ${contentChunks} chunk(s)`);
  assert.equal(finish, 'stop');
  assert.equal(ids.size, 1, 'every chunk carries the same id');
  assert.ok(usage && usage.completion_tokens > 0, 'the usage chunk came last');

  const [entry] = await session.journal();
  assert.equal(entry.stream, true);
  assert.equal(entry.reply_text, 'Once upon a time there was a test.');
});

test("the SDK's stream helper assembles a streamed tool call", async (t) => {
  const session = await newSession(t, {
    scenarios: [{ name: 'weather', replies: [{ tool_calls: [{ name: 'get_weather', arguments: '{"city":"Oslo"}' }] }] }],
  });
  const openai = new OpenAI(session.openai());
  const stream = openai.chat.completions.stream({
    model: MODEL,
    messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    tools: [weatherTool],
  });
  const done = await stream.finalChatCompletion();
  const choice = done.choices[0];
  assert.equal(choice.finish_reason, 'tool_calls');
  assert.equal(choice.message.tool_calls.length, 1);
  assert.equal(choice.message.tool_calls[0].function.name, 'get_weather');
  assert.deepEqual(JSON.parse(choice.message.tool_calls[0].function.arguments), { city: 'Oslo' });
});

test('a structured output conforms to the json_schema the request gave', async (t) => {
  const session = await newSession(t, {
    scenarios: [{ name: 'json', match: { user_contains: 'as JSON' }, replies: [{ json: { city: 'Paris', temp: 21.5 } }] }],
  });
  const openai = new OpenAI(session.openai());
  const res = await openai.chat.completions.create({
    model: MODEL,
    messages: [{ role: 'user', content: 'The weather as JSON' }],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'weather',
        strict: true,
        schema: {
          type: 'object',
          properties: { city: { type: 'string' }, temp: { type: 'number' } },
          required: ['city', 'temp'],
          additionalProperties: false,
        },
      },
    },
  });
  assert.deepEqual(JSON.parse(res.choices[0].message.content), { city: 'Paris', temp: 21.5 });
  const [entry] = await session.journal();
  assert.equal(entry.json, true);
  assert.equal(entry.schema_errors, undefined, 'the reply fits the schema');
  assert.equal((await session.assertions()).schema_mismatch_total, 0);
});

test('an error inside a stream ends the iteration with an APIError after the first chunks', async (t) => {
  const session = await newSession(t, {
    scenarios: [{ name: 'broken', replies: [{ text: 'half of it and more', error: { kind: 'server', in_stream: true, after_events: 2 } }] }],
  });
  const openai = new OpenAI(session.openai({ maxRetries: 0 }));
  const stream = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Go' }], stream: true });
  let chunks = 0;
  await assert.rejects(async () => {
    for await (const chunk of stream) {
      assert.equal(chunk.object, 'chat.completion.chunk');
      chunks++;
    }
  }, (err) => err instanceof OpenAI.APIError);
  assert.equal(chunks, 2);
  const [entry] = await session.journal();
  assert.equal(entry.status, 200, 'the stream had started');
  assert.equal(entry.fault, 'error_event');
});

test('a tool loop: the tool call, its result sent back, the final answer', async (t) => {
  const session = await newSession(t, {
    scenarios: [
      {
        name: 'call',
        match: { all: [{ tool_offered: 'get_weather' }, { not: { tool_result: 'get_weather' } }] },
        replies: [{ tool_calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] }],
      },
      { name: 'answer', match: { tool_result: 'get_weather' }, replies: [{ text: 'It is sunny in Paris.' }] },
    ],
  });
  const openai = new OpenAI(session.openai());
  const messages = [{ role: 'user', content: 'What is the weather in Paris?' }];

  const first = await openai.chat.completions.create({ model: MODEL, messages, tools: [weatherTool] });
  assert.equal(first.choices[0].finish_reason, 'tool_calls');
  const [call] = first.choices[0].message.tool_calls;
  assert.equal(call.function.name, 'get_weather');
  const args = JSON.parse(call.function.arguments);
  assert.deepEqual(args, { city: 'Paris' });

  // The assistant turn goes back as the response gave it, annotations and
  // refusal included, as the real API takes it.
  assert.ok('annotations' in first.choices[0].message);
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: `sunny in ${args.city}` });
  const second = await openai.chat.completions.create({ model: MODEL, messages, tools: [weatherTool] });
  assert.equal(second.choices[0].message.content, 'It is sunny in Paris.');

  const entries = await session.journal();
  assert.deepEqual(entries.map((e) => e.scenario), ['call', 'answer']);
  assert.deepEqual(entries[0].tool_calls.map((c) => [c.id, c.name]), [[call.id, 'get_weather']]);
  assert.equal(entries[1].tool_results.length, 1);
  assert.equal(entries[1].tool_results[0].call_id, call.id);
  assert.equal(entries[1].tool_results[0].content, 'sunny in Paris');
  assert.equal(entries[1].turn, 1, 'a tool result is no new user turn');
  assert.equal(entries[1].conversation, entries[0].conversation);
});

test("the SDK's runTools drives the tool loop on its own", async (t) => {
  const session = await newSession(t, {
    scenarios: [
      { name: 'call', match: { not: { tool_result: 'get_weather' } },
        replies: [{ tool_calls: [{ name: 'get_weather', arguments: '{"city":"Rome"}' }] }] },
      { name: 'answer', match: { tool_result: 'get_weather' }, replies: [{ text: 'Rome is warm.' }] },
    ],
  });
  const openai = new OpenAI(session.openai());
  const seen = [];
  const runner = openai.chat.completions.runTools({
    model: MODEL,
    messages: [{ role: 'user', content: 'Weather in Rome?' }],
    tools: [{
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: weatherTool.function.parameters,
        parse: JSON.parse,
        function: async ({ city }) => {
          seen.push(city);
          return `warm in ${city}`;
        },
      },
    }],
  });
  assert.equal(await runner.finalContent(), 'Rome is warm.');
  assert.deepEqual(seen, ['Rome']);
  const entries = await session.journal();
  assert.equal(entries.length, 2);
  assert.deepEqual(entries[1].tool_results.map((r) => r.content), ['warm in Rome']);
});

test('a scripted 429 is retried by the SDK, and the retry succeeds', async (t) => {
  const session = await newSession(t, {
    scenarios: [{
      name: 'flaky',
      replies: [
        { error: { status: 429, code: 'rate_limit_exceeded', message: 'Slow down', headers: { 'retry-after-ms': '10', 'Retry-After': '0' } } },
        { text: 'recovered' },
      ],
    }],
  });
  const openai = new OpenAI(session.openai({ maxRetries: 2 }));
  const res = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Are you there?' }] });
  assert.equal(res.choices[0].message.content, 'recovered');

  const entries = await session.journal();
  assert.deepEqual(entries.map((e) => e.status), [429, 200]);
  assert.equal(entries[0].error_code, 'rate_limit_exceeded');
  assert.equal(entries[0].fault, 'http_error');
  assert.equal(entries[1].headers['x-stainless-retry-count'], '1', 'the second request is the SDK\'s retry');
  assert.deepEqual((await session.journal({ status: '4xx' })).map((e) => e.seq), [entries[0].seq]);
});

test('without retries the scripted 429 reaches the caller as a RateLimitError', async (t) => {
  const session = await newSession(t, {
    scenarios: [{ name: 'limited', replies: [{ error: { kind: 'rate_limit', message: 'Too many requests' } }] }],
  });
  const openai = new OpenAI(session.openai({ maxRetries: 0 }));
  await assert.rejects(
    openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }),
    (err) => {
      assert.ok(err instanceof OpenAI.RateLimitError, `got ${err}`);
      assert.equal(err.status, 429);
      assert.match(err.message, /Too many requests/);
      return true;
    },
  );
});

test('parallel sessions with identical prompts each get their own answer', async (t) => {
  const n = 5;
  const sessions = await Promise.all(Array.from({ length: n }, (_, i) =>
    newSession(t, { scenarios: [{ name: 'mine', replies: [{ text: `answer of session ${i}` }] }] })));
  assert.equal(new Set(sessions.map((s) => s.id)).size, n);

  const answers = await Promise.all(sessions.map(async (session) => {
    const openai = new OpenAI(session.openai());
    const res = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Same question' }] });
    return res.choices[0].message.content;
  }));
  assert.deepEqual(answers, sessions.map((_, i) => `answer of session ${i}`));

  // Each journal holds its own request only.
  const journals = await Promise.all(sessions.map((s) => s.journal()));
  assert.deepEqual(journals.map((j) => j.length), Array(n).fill(1));
  assert.deepEqual(journals.map((j) => j[0].reply_text), answers);
});

test('the journal shows what was sent: model, system prompt, messages, tools', async (t) => {
  const session = await newSession(t, { scenarios: [{ name: 'any', repeat: true, replies: [{ text: 'noted' }] }] });
  const openai = new OpenAI(session.openai());
  await openai.chat.completions.create({
    model: MODEL,
    messages: [
      { role: 'system', content: 'You are a terse assistant.' },
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'Second question' },
    ],
    tools: [weatherTool],
    temperature: 0.2,
  });
  await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Other model' }] });

  const [entry, other] = await session.journal();
  assert.equal(entry.provider, 'openai');
  assert.equal(entry.endpoint, 'chat.completions');
  assert.equal(entry.path, '/v1/chat/completions');
  assert.equal(entry.model, MODEL);
  assert.equal(entry.status, 200);
  assert.equal(entry.user_text, 'Second question');
  assert.equal(entry.request.system, 'You are a terse assistant.');
  assert.deepEqual(entry.request.messages.map((m) => [m.role, m.text]), [
    ['user', 'First question'], ['assistant', 'First answer'], ['user', 'Second question'],
  ]);
  assert.deepEqual(entry.request.tools, ['get_weather']);
  assert.equal(entry.request.temperature, 0.2);
  assert.equal(entry.turn, 2);
  assert.equal(entry.reply_text, 'noted');
  assert.match(entry.client.user_agent, /^OpenAI\/JS /);
  assert.equal(entry.headers.authorization, '[redacted]', 'credentials never reach the journal');
  assert.equal(other.model, 'gpt-4.1-mini');

  // Filters keep the entries whose field equals the value.
  assert.deepEqual((await session.journal({ model: 'gpt-4.1-mini' })).map((e) => e.seq), [other.seq]);
  assert.deepEqual(await session.journal({ status: 404 }), []);
  await assert.rejects(session.journal({ modle: MODEL }), /unknown filter "modle"/);

  const report = await session.assertions();
  assert.equal(report.unmatched_total, 0);
  assert.deepEqual(report.unused, []);
  assert.deepEqual(report.faults, {});
});

test('after deletion the session is gone: 404 session_not_found', async () => {
  const session = await server.createSession({ scenarios: [{ name: 'x', replies: [{ text: 'never sent' }] }] });
  const openai = new OpenAI(session.openai({ maxRetries: 0 }));
  await session.delete();
  assert.equal(session.deleted, true);
  assert.ok(!(await server.sessions()).some((s) => s.id === session.id), 'the working set no longer lists it');

  await assert.rejects(
    openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }),
    (err) => {
      assert.ok(err instanceof OpenAI.NotFoundError, `got ${err}`);
      assert.equal(err.code, 'session_not_found');
      return true;
    },
  );
  await assert.rejects(session.journal(), (err) => {
    assert.ok(err instanceof LLMTestServerError, `got ${err}`);
    assert.equal(err.status, 404);
    assert.equal(err.code, 'session_not_found');
    return true;
  });
  // Deleting it again over HTTP is 404 too.
  const again = await fetch(`${server.url}/admin-api/sessions/${session.id}`, { method: 'DELETE', headers: session.headers() });
  assert.equal(again.status, 404);
  assert.equal((await again.json()).error.code, 'session_not_found');
});
