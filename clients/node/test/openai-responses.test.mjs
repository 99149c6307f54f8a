// The openai SDK against the built binary's Responses API (a chain with
// previous_response_id, streamed and not) and embeddings.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';

import { startServer } from '../llmtestserver.mjs';

const MODEL = 'gpt-4.1-mini';
const EMBEDDING_MODEL = 'text-embedding-3-small';

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

/** Replies that depend on the turn, so a lost chain answers the wrong one. */
const turnScenarios = [
  { name: 'first', match: { endpoint: 'responses', turn: 1 }, replies: [{ text: 'Paris.' }] },
  { name: 'second', match: { endpoint: 'responses', turn: 2 }, replies: [{ text: 'About two million.' }] },
];

test('previous_response_id continues the stored response', async (t) => {
  const session = await newSession(t, { scenarios: turnScenarios });
  const openai = new OpenAI(session.openai());

  const first = await openai.responses.create({ model: MODEL, instructions: 'Be brief.', input: 'Capital of France?' });
  assert.match(first.id, /^resp_/);
  assert.equal(first.status, 'completed');
  assert.equal(first.output_text, 'Paris.');

  const second = await openai.responses.create({ model: MODEL, previous_response_id: first.id, input: 'How many people live there?' });
  assert.equal(second.output_text, 'About two million.');
  assert.equal(second.previous_response_id, first.id);

  // The stored response can be read back.
  const stored = await openai.responses.retrieve(first.id);
  assert.equal(stored.output_text, 'Paris.');

  const [e1, e2] = await session.journal({ endpoint: 'responses' });
  assert.equal(e1.request.system, 'Be brief.');
  assert.equal(e2.request.previous_response_id, first.id);
  assert.deepEqual(e2.request.messages.map((m) => [m.role, m.text]), [
    ['user', 'Capital of France?'], ['assistant', 'Paris.'], ['user', 'How many people live there?'],
  ]);
  assert.equal(e2.turn, 2);
  assert.equal(e2.conversation, e1.conversation);
  assert.ok(e2.usage.input > e1.usage.input, 'the chain counts the earlier turns as input');
});

test('an unknown previous_response_id is refused with previous_response_not_found', async (t) => {
  const session = await newSession(t, { scenarios: turnScenarios });
  const openai = new OpenAI(session.openai());
  await assert.rejects(
    openai.responses.create({ model: MODEL, previous_response_id: 'resp_nope', input: 'Hi' }),
    (err) => {
      assert.ok(err instanceof OpenAI.BadRequestError, `got ${err}`);
      assert.equal(err.code, 'previous_response_not_found');
      return true;
    },
  );
  const left = Object.fromEntries((await session.scenarios()).map((s) => [s.name, s.remaining]));
  assert.deepEqual(left, { first: 1, second: 1 }, 'a refused request uses no reply');
});

test('a streamed response chain gives the same answers', async (t) => {
  const session = await newSession(t, { scenarios: turnScenarios });
  const openai = new OpenAI(session.openai());

  const events = [];
  let text = '';
  let completed;
  for await (const event of await openai.responses.create({ model: MODEL, input: 'Capital of France?', stream: true })) {
    events.push(event.type);
    if (event.type === 'response.output_text.delta') text += event.delta;
    if (event.type === 'response.completed') completed = event.response;
  }
  assert.equal(text, 'Paris.');
  assert.equal(events[0], 'response.created');
  assert.equal(events.at(-1), 'response.completed');
  assert.ok(events.includes('response.output_text.done'));
  const message = completed.output.find((item) => item.type === 'message');
  assert.equal(message.content[0].text, 'Paris.');

  const stream = openai.responses.stream({ model: MODEL, previous_response_id: completed.id, input: 'How many people?' });
  const final = await stream.finalResponse();
  assert.equal(final.output_text, 'About two million.');
  assert.equal(final.previous_response_id, completed.id);
});

test('a Responses tool loop: function_call, its function_call_output, the final answer', async (t) => {
  const session = await newSession(t, {
    scenarios: [
      { name: 'call', match: { all: [{ tool_offered: 'get_weather' }, { not: { tool_result: 'get_weather' } }] },
        replies: [{ tool_calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] }] },
      { name: 'answer', match: { tool_result: 'get_weather' }, replies: [{ text: 'Sunny in Paris.' }] },
    ],
  });
  const openai = new OpenAI(session.openai());
  const tools = [{
    type: 'function',
    name: 'get_weather',
    strict: true,
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  }];
  const first = await openai.responses.create({ model: MODEL, input: 'Weather in Paris?', tools });
  const call = first.output.find((item) => item.type === 'function_call');
  assert.ok(call, `no function_call in ${JSON.stringify(first.output)}`);
  assert.equal(call.name, 'get_weather');
  assert.deepEqual(JSON.parse(call.arguments), { city: 'Paris' });

  const second = await openai.responses.create({
    model: MODEL,
    previous_response_id: first.id,
    input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }],
    tools,
  });
  assert.equal(second.output_text, 'Sunny in Paris.');

  const entries = await session.journal();
  assert.deepEqual(entries.map((e) => e.scenario), ['call', 'answer']);
  assert.deepEqual(entries[1].tool_results.map((r) => [r.call_id, r.content]), [[call.call_id, 'sunny']]);
});

test('embeddings are deterministic unit vectors of the asked dimensions', async (t) => {
  const session = await newSession(t);
  const openai = new OpenAI(session.openai());
  // The SDK asks for base64 and decodes it itself.
  const res = await openai.embeddings.create({ model: EMBEDDING_MODEL, input: ['alpha', 'beta', 'alpha'], dimensions: 8 });
  assert.equal(res.object, 'list');
  assert.equal(res.model, EMBEDDING_MODEL);
  assert.deepEqual(res.data.map((d) => d.index), [0, 1, 2]);
  const [a, b, again] = res.data.map((d) => d.embedding);
  for (const v of [a, b]) {
    assert.equal(v.length, 8);
    const norm = Math.hypot(...v);
    assert.ok(Math.abs(norm - 1) < 1e-5, `norm ${norm}`);
  }
  assert.deepEqual(again, a, 'the same text gets the same vector');
  assert.notDeepEqual(b, a);
  assert.ok(res.usage.prompt_tokens > 0);

  // As floats, the same numbers.
  const floats = await openai.embeddings.create({ model: EMBEDDING_MODEL, input: 'alpha', dimensions: 8, encoding_format: 'float' });
  assert.deepEqual(floats.data[0].embedding.map((x) => Math.fround(x)), a.map((x) => Math.fround(x)));

  const [entry] = await session.journal({ endpoint: 'embeddings' });
  assert.equal(entry.model, EMBEDDING_MODEL);
  assert.deepEqual(entry.request.messages.map((m) => m.text), ['alpha', 'beta', 'alpha']);
});

test('a scenario scripts the vectors of an embeddings request', async (t) => {
  const session = await newSession(t, {
    scenarios: [{ name: 'fixed', match: { endpoint: 'embeddings', user_contains: 'fixed' }, replies: [{ vectors: [[0.6, 0.8], [1, 0]] }] }],
  });
  const openai = new OpenAI(session.openai());
  const res = await openai.embeddings.create({ model: EMBEDDING_MODEL, input: ['fixed one', 'fixed two'], encoding_format: 'float' });
  assert.deepEqual(res.data.map((d) => d.embedding.map((x) => Math.round(x * 1e6) / 1e6)), [[0.6, 0.8], [1, 0]]);
  const [entry] = await session.journal();
  assert.equal(entry.scenario, 'fixed');
});
