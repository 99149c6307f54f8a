// @anthropic-ai/sdk against the built binary's /v1/messages: a plain
// message, a streamed one, a tool loop, the beta tool runner and a retried
// 429.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';

import { startServer } from '../llmtestserver.mjs';

const MODEL = 'claude-sonnet-5-5';

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

const weatherTool = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

test('a plain message gets the scripted reply, and the journal shows the request', async (t) => {
  const session = await newSession(t, {
    api_key: 'anthropic-test-key',
    scenarios: [{ name: 'hello', match: { endpoint: 'messages', user_contains: 'Hello' }, replies: [{ text: 'Hello from Claude' }] }],
  });
  assert.equal(session.apiKey, 'anthropic-test-key');
  const anthropic = new Anthropic(session.anthropic());
  const msg = await anthropic.messages.create({
    model: MODEL,
    max_tokens: 256,
    system: 'You are a test.',
    messages: [{ role: 'user', content: 'Hello, Claude' }],
  });
  assert.equal(msg.type, 'message');
  assert.equal(msg.role, 'assistant');
  assert.equal(msg.model, MODEL);
  assert.equal(msg.stop_reason, 'end_turn');
  assert.deepEqual(msg.content.map((b) => [b.type, b.text]), [['text', 'Hello from Claude']]);
  assert.ok(msg.usage.output_tokens > 0);

  const [entry] = await session.journal({ provider: 'anthropic' });
  assert.equal(entry.endpoint, 'messages');
  assert.equal(entry.path, '/v1/messages');
  assert.equal(entry.model, MODEL);
  assert.equal(entry.request.system, 'You are a test.');
  assert.deepEqual(entry.request.messages.map((m) => [m.role, m.text]), [['user', 'Hello, Claude']]);
  assert.equal(entry.request.max_output_tokens, 256);
  assert.match(entry.client.user_agent, /^Anthropic\/JS /);
  assert.ok(entry.api_version, 'the anthropic-version header is recorded');
});

test('a wrong API key is refused with authentication_error', async (t) => {
  const session = await newSession(t, { api_key: 'right-key', scenarios: [{ name: 'x', replies: [{ text: 'unused' }] }] });
  const anthropic = new Anthropic(session.anthropic({ apiKey: 'wrong-key', maxRetries: 0 }));
  await assert.rejects(
    anthropic.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }),
    (err) => {
      assert.ok(err instanceof Anthropic.AuthenticationError, `got ${err}`);
      assert.equal(err.error?.error?.type, 'authentication_error');
      return true;
    },
  );
});

test('a streamed message arrives as text deltas in the real event order', async (t) => {
  const session = await newSession(t, { scenarios: [{ name: 'story', replies: [{ text: 'Once upon a time in a test.' }] }] });
  const anthropic = new Anthropic(session.anthropic());
  const stream = await anthropic.messages.create({
    model: MODEL,
    max_tokens: 256,
    messages: [{ role: 'user', content: 'Tell me a story' }],
    stream: true,
  });
  const types = [];
  let text = '';
  let deltas = 0;
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
      text += event.delta.text;
      deltas++;
    }
  }
  assert.equal(text, 'Once upon a time in a test.');
  assert.ok(deltas > 1, `${deltas} delta(s)`);
  assert.deepEqual(
    types.filter((type, i) => type !== types[i - 1]),
    ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
  );

  // The SDK's stream helper assembles the same message.
  await session.script({ name: 'again', replies: [{ text: 'Twice upon a time.' }] });
  const final = await anthropic.messages.stream({
    model: MODEL,
    max_tokens: 256,
    messages: [{ role: 'user', content: 'Another one' }],
  }).finalMessage();
  assert.deepEqual(final.content.map((b) => b.text), ['Twice upon a time.']);
  assert.equal(final.stop_reason, 'end_turn');
  assert.ok(final.usage.output_tokens > 0);

  const entries = await session.journal();
  assert.deepEqual(entries.map((e) => [e.stream, e.scenario]), [[true, 'story'], [true, 'again']]);
});

test('a tool loop: tool_use, the tool_result sent back, the final answer', async (t) => {
  const session = await newSession(t, {
    scenarios: [
      {
        name: 'call',
        match: { all: [{ tool_offered: 'get_weather' }, { not: { tool_result: 'get_weather' } }] },
        replies: [{ text: 'Let me check.', tool_calls: [{ name: 'get_weather', arguments: '{"city":"Lima"}' }] }],
      },
      { name: 'answer', match: { tool_result: 'get_weather' }, replies: [{ text: 'It is foggy in Lima.' }] },
    ],
  });
  const anthropic = new Anthropic(session.anthropic());
  const messages = [{ role: 'user', content: 'Weather in Lima?' }];

  const first = await anthropic.messages.create({ model: MODEL, max_tokens: 256, messages, tools: [weatherTool] });
  assert.equal(first.stop_reason, 'tool_use');
  assert.deepEqual(first.content.map((b) => b.type), ['text', 'tool_use']);
  const use = first.content[1];
  assert.match(use.id, /^toolu_/);
  assert.equal(use.name, 'get_weather');
  assert.deepEqual(use.input, { city: 'Lima' });

  messages.push(
    { role: 'assistant', content: first.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: `foggy in ${use.input.city}` }] },
  );
  const second = await anthropic.messages.create({ model: MODEL, max_tokens: 256, messages, tools: [weatherTool] });
  assert.equal(second.stop_reason, 'end_turn');
  assert.deepEqual(second.content.map((b) => b.text), ['It is foggy in Lima.']);

  const entries = await session.journal();
  assert.deepEqual(entries.map((e) => e.scenario), ['call', 'answer']);
  assert.deepEqual(entries[0].tool_calls.map((c) => [c.id, c.name]), [[use.id, 'get_weather']]);
  assert.deepEqual(entries[1].tool_results.map((r) => [r.call_id, r.content]), [[use.id, 'foggy in Lima']]);
});

test("a streamed tool_use arrives as input_json deltas the SDK's helper parses", async (t) => {
  const session = await newSession(t, {
    scenarios: [{ name: 'call', replies: [{ tool_calls: [{ name: 'get_weather', arguments: '{"city":"Quito"}' }] }] }],
  });
  const anthropic = new Anthropic(session.anthropic());
  const stream = anthropic.messages.stream({
    model: MODEL,
    max_tokens: 256,
    messages: [{ role: 'user', content: 'Weather in Quito?' }],
    tools: [weatherTool],
  });
  let json = '';
  stream.on('inputJson', (delta) => {
    json += delta;
  });
  const final = await stream.finalMessage();
  assert.equal(final.stop_reason, 'tool_use');
  const use = final.content.find((b) => b.type === 'tool_use');
  assert.equal(use.name, 'get_weather');
  assert.deepEqual(use.input, { city: 'Quito' });
  assert.deepEqual(JSON.parse(json), { city: 'Quito' });
});

test('a scripted 429 is retried by the SDK, and the retry succeeds', async (t) => {
  const session = await newSession(t, {
    scenarios: [{
      name: 'flaky',
      replies: [
        { error: { kind: 'rate_limit', message: 'Slow down', headers: { 'retry-after-ms': '10', 'Retry-After': '0' } } },
        { text: 'recovered' },
      ],
    }],
  });
  const anthropic = new Anthropic(session.anthropic({ maxRetries: 2 }));
  const msg = await anthropic.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Are you there?' }] });
  assert.deepEqual(msg.content.map((b) => b.text), ['recovered']);

  const entries = await session.journal();
  assert.deepEqual(entries.map((e) => e.status), [429, 200]);
  assert.equal(entries[0].fault, 'http_error');
  assert.equal(entries[1].headers['x-stainless-retry-count'], '1', "the second request is the SDK's retry");

  // Without retries the caller sees Anthropic's rate_limit_error.
  await session.script({ name: 'limited', replies: [{ error: { kind: 'rate_limit', message: 'Still too fast' } }] });
  const strict = new Anthropic(session.anthropic({ maxRetries: 0 }));
  await assert.rejects(
    strict.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Again?' }] }),
    (err) => {
      assert.ok(err instanceof Anthropic.RateLimitError, `got ${err}`);
      assert.equal(err.status, 429);
      assert.equal(err.error?.error?.type, 'rate_limit_error');
      assert.match(err.message, /Still too fast/);
      return true;
    },
  );
});

test('an overloaded error inside a stream reaches the caller, and thinking comes before the text', async (t) => {
  const session = await newSession(t, {
    scenarios: [{
      name: 'moody',
      replies: [
        { text: 'half of it and more', error: { kind: 'overloaded', in_stream: true, after_events: 2 } },
        { thinking: 'Let me think.', text: 'Done thinking.' },
      ],
    }],
  });
  const anthropic = new Anthropic(session.anthropic({ maxRetries: 0 }));
  await assert.rejects(
    anthropic.messages.stream({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'Go' }] }).finalMessage(),
    (err) => {
      assert.ok(err instanceof Anthropic.APIError, `got ${err}`);
      assert.match(err.message, /overloaded_error/);
      return true;
    },
  );

  const msg = await anthropic.messages.create({
    model: MODEL,
    max_tokens: 2048,
    thinking: { type: 'adaptive', display: 'summarized' },
    messages: [{ role: 'user', content: 'Think first' }],
  });
  assert.deepEqual(msg.content.map((b) => b.type), ['thinking', 'text']);
  assert.equal(msg.content[0].thinking, 'Let me think.');
  assert.ok(msg.content[0].signature, 'a thinking block carries a signature');
  assert.equal(msg.content[1].text, 'Done thinking.');

  const entries = await session.journal();
  assert.deepEqual(entries.map((e) => [e.status, e.fault]), [[200, 'error_event'], [200, undefined]]);
});

test('count_tokens counts the prompt a message would send', async (t) => {
  const session = await newSession(t, { scenarios: [{ name: 'x', replies: [{ text: 'ok' }] }] });
  const anthropic = new Anthropic(session.anthropic());
  const params = { model: MODEL, messages: [{ role: 'user', content: 'Count these words, please.' }] };
  const counted = await anthropic.messages.countTokens(params);
  assert.ok(counted.input_tokens > 0);
  const msg = await anthropic.messages.create({ ...params, max_tokens: 16 });
  assert.equal(msg.usage.input_tokens, counted.input_tokens);
});

// The SDK's tool runner runs on a message thread unless told otherwise:
// its second turn sends only the tool result, with thread.type continue,
// and the server answers it over the whole conversation.
for (const thread of [undefined, false]) {
  const name = thread === false ? 'without a thread' : 'on a message thread';
  test(`the beta tool runner completes its loop ${name}`, async (t) => {
    const session = await newSession(t, {
      scenarios: [
        {
          name: 'call',
          match: { not: { tool_result: 'get_weather' } },
          replies: [{ tool_calls: [{ name: 'get_weather', arguments: '{"city":"Lima"}' }] }],
        },
        { name: 'answer', match: { tool_result: 'get_weather' }, replies: [{ text: 'It is foggy in Lima.' }] },
      ],
    });
    const anthropic = new Anthropic(session.anthropic({ maxRetries: 0 }));
    const getWeather = betaTool({
      name: 'get_weather',
      description: 'The weather in a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      run: ({ city }) => `foggy in ${city}`,
    });
    const final = await anthropic.beta.messages.toolRunner({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Weather in Lima?' }],
      tools: [getWeather],
      ...(thread === false ? { thread: false } : {}),
    });
    assert.deepEqual(final.content.map((b) => b.text), ['It is foggy in Lima.']);

    const entries = await session.journal();
    assert.deepEqual(entries.map((e) => [e.status, e.scenario]), [[200, 'call'], [200, 'answer']]);
    assert.deepEqual(entries[1].request.messages.map((m) => m.role), ['user', 'assistant', 'tool']);
    assert.deepEqual(entries[1].tool_results.map((r) => r.content), ['foggy in Lima']);
    const sent = JSON.parse(entries[1].body);
    if (thread === false) {
      assert.equal(sent.thread, undefined);
      assert.equal(sent.messages.length, 3);
    } else {
      assert.equal(sent.thread.type, 'continue');
      assert.equal(sent.messages.length, 1, 'the tool result only');
    }
  });
}
