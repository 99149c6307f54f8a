// @google/genai against the built binary's Gemini Developer API (v1 and v1beta):
// a plain generateContent, a stream, a function-call loop and a scripted
// error, retried and not.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, FinishReason, GoogleGenAI } from '@google/genai';

import { startServer } from '../llmtestserver.mjs';

const MODEL = 'gemini-2.5-flash';

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

/**
 * Options for `new GoogleGenAI(...)`: the session's API key, and the
 * server's root as baseUrl (the SDK appends its apiVersion, v1beta by default,
 * and "/models/...") with the session's headers; `httpOptions` is spread
 * over them (its headers are merged).
 */
function genaiOptions(session, httpOptions = {}) {
  return {
    apiKey: session.apiKey,
    httpOptions: { baseUrl: server.url, ...httpOptions, headers: { ...session.headers(), ...httpOptions.headers } },
  };
}

const weatherFunction = {
  name: 'get_weather',
  description: 'The weather in a city',
  parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

test('generateContent gets the scripted reply, and the journal shows the request', async (t) => {
  const session = await newSession(t, {
    api_key: 'gemini-test-key',
    scenarios: [{ name: 'hello', match: { endpoint: 'generate_content', user_contains: 'Hello' }, replies: [{ text: 'Hello from Gemini' }] }],
  });
  assert.equal(session.apiKey, 'gemini-test-key');
  const ai = new GoogleGenAI(genaiOptions(session));
  const res = await ai.models.generateContent({
    model: MODEL,
    contents: 'Hello, Gemini',
    config: { systemInstruction: 'You are a test.', maxOutputTokens: 256 },
  });
  assert.equal(res.text, 'Hello from Gemini');
  assert.equal(res.candidates.length, 1);
  assert.equal(res.candidates[0].content.role, 'model');
  assert.equal(res.candidates[0].finishReason, FinishReason.STOP);
  assert.ok(res.usageMetadata.candidatesTokenCount > 0);
  assert.ok(res.usageMetadata.promptTokenCount > 0);
  assert.ok(res.responseId, 'a responseId');
  assert.ok(res.modelVersion.startsWith(MODEL), `modelVersion ${res.modelVersion}`);

  const [entry] = await session.journal({ provider: 'gemini' });
  assert.equal(entry.status, 200);
  assert.equal(entry.endpoint, 'generate_content');
  // @google/genai 2.x calls the Gemini API's v1beta unless told otherwise
  // (3.x calls v1, and needs Node 22, where this folder supports Node 20).
  assert.equal(entry.path, `/v1beta/models/${MODEL}:generateContent`);
  assert.equal(entry.model, MODEL);
  assert.equal(entry.scenario, 'hello');
  assert.equal(entry.request.system, 'You are a test.');
  assert.deepEqual(entry.request.messages.map((m) => [m.role, m.text]), [['user', 'Hello, Gemini']]);
  assert.equal(entry.request.max_output_tokens, 256);
  assert.match(entry.client.user_agent, /google-genai-sdk\//);
});

test('a wrong API key is refused as the API does: 400 INVALID_ARGUMENT, reason API_KEY_INVALID', async (t) => {
  const session = await newSession(t, { api_key: 'right-key', scenarios: [{ name: 'x', replies: [{ text: 'unused' }] }] });
  const ai = new GoogleGenAI({ ...genaiOptions(session), apiKey: 'wrong-key' });
  await assert.rejects(ai.models.generateContent({ model: MODEL, contents: 'Hi' }), (err) => {
    assert.ok(err instanceof ApiError, `got ${err}`);
    assert.equal(err.status, 400);
    // ApiError's message is the error body, as JSON.
    const { error } = JSON.parse(err.message);
    assert.equal(error.code, 400);
    assert.equal(error.status, 'INVALID_ARGUMENT');
    assert.equal(error.message, 'API key not valid. Please pass a valid API key.');
    assert.equal(error.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo')?.reason, 'API_KEY_INVALID');
    return true;
  });
  const entries = await session.journal();
  assert.deepEqual(entries.map((e) => [e.status, e.error_code, e.scenario]), [[400, 'API_KEY_INVALID', undefined]]);
});

test('generateContentStream joins to the scripted text, with STOP on the last chunk', async (t) => {
  const session = await newSession(t, { scenarios: [{ name: 'story', replies: [{ text: 'Once upon a time in a test.' }] }] });
  // v1, the API's other version, which the codec serves as v1beta.
  const ai = new GoogleGenAI(genaiOptions(session, { apiVersion: 'v1' }));
  const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'Tell me a story' });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  assert.ok(chunks.length > 1, `${chunks.length} chunk(s)`);
  assert.equal(chunks.map((c) => c.text ?? '').join(''), 'Once upon a time in a test.');
  const last = chunks.at(-1);
  assert.equal(last.candidates[0].finishReason, FinishReason.STOP);
  for (const c of chunks.slice(0, -1)) {
    assert.equal(c.candidates?.[0]?.finishReason, undefined, 'only the last chunk finishes');
  }
  assert.ok(last.usageMetadata.candidatesTokenCount > 0);

  const [entry] = await session.journal();
  assert.equal(entry.stream, true);
  assert.equal(entry.reply_text, 'Once upon a time in a test.');
  assert.equal(entry.chunks, chunks.length, 'every chunk the server sent reached the caller');
  assert.equal(entry.scenario, 'story');
  assert.equal(entry.path, `/v1/models/${MODEL}:streamGenerateContent`);
});

test('a function-call loop: functionCall, the functionResponse sent back, the final answer', async (t) => {
  const session = await newSession(t, {
    scenarios: [
      {
        name: 'call',
        match: { all: [{ tool_offered: 'get_weather' }, { not: { tool_result: 'get_weather' } }] },
        replies: [{ tool_calls: [{ name: 'get_weather', arguments: '{"city":"Lima"}' }] }],
      },
      { name: 'answer', match: { tool_result: 'get_weather' }, replies: [{ text: 'It is foggy in Lima.' }] },
    ],
  });
  const ai = new GoogleGenAI(genaiOptions(session));
  const config = { tools: [{ functionDeclarations: [weatherFunction] }] };
  const contents = [{ role: 'user', parts: [{ text: 'Weather in Lima?' }] }];

  const first = await ai.models.generateContent({ model: MODEL, contents, config });
  assert.equal(first.functionCalls?.length, 1, `candidates ${JSON.stringify(first.candidates)}`);
  const [call] = first.functionCalls;
  assert.equal(call.name, 'get_weather');
  assert.deepEqual(call.args, { city: 'Lima' });
  assert.ok(call.id, 'the functionCall carries an id');
  assert.equal(first.candidates[0].finishReason, FinishReason.STOP);

  contents.push(
    first.candidates[0].content,
    {
      role: 'user',
      parts: [{ functionResponse: { id: call.id, name: call.name, response: { result: `foggy in ${call.args.city}` } } }],
    },
  );
  const second = await ai.models.generateContent({ model: MODEL, contents, config });
  assert.equal(second.text, 'It is foggy in Lima.');
  assert.equal(second.functionCalls, undefined);

  const entries = await session.journal();
  assert.deepEqual(entries.map((e) => [e.status, e.scenario]), [[200, 'call'], [200, 'answer']]);
  assert.deepEqual(entries[0].tool_calls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]), [[call.id, 'get_weather', { city: 'Lima' }]]);
  assert.deepEqual(entries[1].tool_results.map((r) => [r.call_id, r.name, JSON.parse(r.content)]),
    [[call.id, 'get_weather', { result: 'foggy in Lima' }]]);
});

test('a scripted 503 surfaces as ApiError with its status; a 429 is retried when retryOptions ask', async (t) => {
  const session = await newSession(t, {
    scenarios: [{ name: 'busy', replies: [{ error: { kind: 'overloaded', message: 'Too busy right now' } }] }],
  });
  const ai = new GoogleGenAI(genaiOptions(session));
  await assert.rejects(ai.models.generateContent({ model: MODEL, contents: 'Are you there?' }), (err) => {
    assert.ok(err instanceof ApiError, `got ${err}`);
    assert.equal(err.status, 503);
    const body = JSON.parse(err.message);
    assert.equal(body.error.code, 503);
    assert.equal(body.error.status, 'UNAVAILABLE');
    assert.match(body.error.message, /Too busy right now/);
    return true;
  });
  assert.deepEqual((await session.journal()).map((e) => [e.status, e.fault]), [[503, 'http_error']], 'no retry without retryOptions');

  // With retryOptions the SDK retries a 429, and the retry succeeds.
  await session.script({
    name: 'flaky',
    replies: [{ error: { kind: 'rate_limit', message: 'Slow down' } }, { text: 'recovered' }],
  });
  const retrying = new GoogleGenAI(genaiOptions(session, { retryOptions: { attempts: 2, initialDelay: 0.01, maxDelay: 0.01 } }));
  const res = await retrying.models.generateContent({ model: MODEL, contents: 'Again?' });
  assert.equal(res.text, 'recovered');
  const entries = await session.journal({ scenario: 'flaky' });
  assert.deepEqual(entries.map((e) => e.status), [429, 200]);
});
