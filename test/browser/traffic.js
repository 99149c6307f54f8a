// Real traffic for the dashboard to show: two sessions created over the
// admin API, then a conversation with a tool loop, a streamed answer, a
// fault, a miss and two background responses (jobs of the session), sent
// with plain fetch as any client of the standalone server would send them.

/** Sends one request and returns the response with its body read. */
async function call(base, path, { method = 'POST', headers = {}, body } = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let text = '';
  let error = null;
  try {
    text = await res.text();
  } catch (err) {
    error = err; // a fault cut the body short
  }
  return { status: res.status, text, error, json: () => JSON.parse(text) };
}

/** Creates a session configured by config; returns its id and headers. */
export async function createSession(base, managementKey, config) {
  const res = await call(base, '/admin-api/sessions', {
    headers: { authorization: `Bearer ${managementKey}` },
    body: config,
  });
  if (res.status !== 201) throw new Error(`create session: ${res.status} ${res.text}`);
  const { id, key } = res.json();
  return {
    id,
    headers: {
      'x-llm-test-server-session': id,
      'x-llm-test-server-session-key': key,
      authorization: 'Bearer provider-key',
    },
  };
}

export const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The current weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

export const agentSystem = 'You are a travel assistant. Use the tools you are given.';
export const weatherQuestion = 'What is the weather in Paris today?';
export const missQuestion = 'Tell me a joke about tests';

/** The agent session: its scenarios, then its traffic. */
export const agentConfig = {
  api_key: 'provider-key',
  scenarios: [
    {
      name: 'weather-answer',
      match: { endpoint: 'chat.completions', tool_result: 'get_weather' },
      replies: [{ text: 'It is 18°C and sunny in Paris.', usage: { prompt_tokens: 180, completion_tokens: 11, cached_tokens: 128 } }],
    },
    {
      name: 'weather-tool',
      match: { endpoint: 'chat.completions', user_contains: 'weather', tool_offered: 'get_weather' },
      replies: [{ tool_calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] }],
    },
    {
      name: 'story',
      match: { endpoint: 'responses', user_contains: 'story' },
      replies: [{ text: 'Once upon a time, a test server answered every request it was sent, one token at a time.' }],
    },
    {
      name: 'flaky',
      match: { user_contains: 'flaky' },
      replies: [{ text: 'this answer is cut short by the network', fault: { kind: 'cut', after_events: 3 } }, { text: 'recovered' }],
    },
    {
      name: 'extract',
      match: { user_contains: 'Extract' },
      replies: [{ json: { city: 'Paris', population: 'about two million' } }],
    },
    {
      // Background responses: one whose job ends as it is made, one that
      // runs for an hour, so that the jobs panel shows both states.
      name: 'report',
      match: { endpoint: 'responses', user_contains: 'report' },
      replies: [
        { text: 'The weekly report is ready.', job: { queued_ms: -1, running_ms: -1 } },
        { text: 'The yearly report, at last.', job: { queued_ms: -1, running_ms: 3600000, steps: 4 } },
      ],
    },
    {
      name: 'unused-later',
      match: { user_equals: 'never sent' },
      replies: [{ text: 'nobody asks for this' }],
    },
  ],
};

/**
 * Runs the agent's conversation on session s, and returns the IDs of its
 * background responses, the finished one first.
 */
export async function agentTraffic(base, s) {
  const chat = (body) => call(base, '/v1/chat/completions', { headers: s.headers, body });
  const model = 'gpt-4.1-mini';
  const first = [{ role: 'system', content: agentSystem }, { role: 'user', content: weatherQuestion }];
  // The tool loop: the model asks for get_weather, the agent answers it.
  const turn1 = await chat({ model, messages: first, tools: [weatherTool] });
  if (turn1.status !== 200) throw new Error(`tool call: ${turn1.status} ${turn1.text}`);
  const call1 = turn1.json().choices[0].message.tool_calls[0];
  const turn2 = await chat({
    model,
    tools: [weatherTool],
    messages: [
      ...first,
      { role: 'assistant', content: null, tool_calls: [call1] },
      { role: 'tool', tool_call_id: call1.id, content: '{"temperature_c":18,"sky":"sunny"}' },
    ],
  });
  if (turn2.status !== 200) throw new Error(`tool result: ${turn2.status} ${turn2.text}`);
  // A streamed answer over the Responses API.
  const story = await call(base, '/v1/responses', {
    headers: s.headers,
    body: { model, input: 'Tell me a short story about a test server', stream: true },
  });
  if (story.status !== 200 || !story.text.includes('response.completed')) {
    throw new Error(`stream: ${story.status} ${story.text}`);
  }
  // A fault: the stream is cut after three events.
  const cut = await chat({ model, stream: true, messages: [{ role: 'user', content: 'Are you flaky?' }] });
  if (cut.error === null && cut.text.includes('[DONE]')) throw new Error('the cut stream completed');
  // A structured output that fails the request's schema.
  const extract = await chat({
    model,
    messages: [{ role: 'user', content: 'Extract the city from: I live in Paris.' }],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'place',
        strict: true,
        schema: {
          type: 'object',
          properties: { city: { type: 'string' }, population: { type: 'integer' } },
          required: ['city', 'population'],
          additionalProperties: false,
        },
      },
    },
  });
  if (extract.status !== 200) throw new Error(`structured output: ${extract.status} ${extract.text}`);
  // A miss: no scenario answers a joke.
  const miss = await chat({ model, messages: [{ role: 'user', content: missQuestion }] });
  if (miss.status !== 400) throw new Error(`miss: ${miss.status} ${miss.text}`);
  // Two background responses: each answers queued, and is a job.
  const background = [];
  for (const input of ['Write the weekly report', 'Write the yearly report']) {
    const res = await call(base, '/v1/responses', { headers: s.headers, body: { model, input, background: true } });
    if (res.status !== 200 || res.json().status !== 'queued') throw new Error(`background: ${res.status} ${res.text}`);
    background.push(res.json().id);
  }
  return { background };
}

/** The second session: one plain question. */
export const helloConfig = {
  scenarios: [{ name: 'greeting', match: { user_contains: 'Hello' }, replies: [{ text: 'Hello from the second session' }] }],
};

export async function helloTraffic(base, s) {
  const res = await call(base, '/v1/chat/completions', {
    headers: s.headers,
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there' }] },
  });
  if (res.status !== 200) throw new Error(`hello: ${res.status} ${res.text}`);
}

/** One request to the default runtime, which has no scenario: a miss. */
export async function defaultTraffic(base, managementKey) {
  await call(base, '/v1/chat/completions', {
    headers: { authorization: `Bearer ${managementKey}` },
    body: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Is anyone on the default runtime?' }] },
  });
}
