// The openai SDK against the built binary's Batch API with Files: upload
// a JSONL file, create a batch of it, poll it to completed, and read its
// output file, each line's body a chat completion. The binary runs on the
// real clock, so the scenario plans the batch in a few hundred
// milliseconds.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI, { toFile } from 'openai';

import { startServer } from '../llmtestserver.mjs';

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

/** Batches that validate 50 ms and run 300 ms in three steps; every chat line answers by its text. */
const scenarios = [
  { name: 'quick', match: { endpoint: 'batches' }, replies: [{ job: { queued_ms: 50, running_ms: 300, steps: 3 } }], repeat: true },
  { name: 'capital', match: { user_contains: 'capital' }, replies: [{ text: 'Paris' }], repeat: true },
  { name: 'any', replies: [{ text: 'ok' }], repeat: true },
];

/** Polls the batch until it has ended, and returns it with the statuses seen. */
async function untilEnded(openai, id) {
  const seen = [];
  for (let i = 0; i < 200; i++) {
    const b = await openai.batches.retrieve(id);
    if (seen.at(-1) !== b.status) seen.push(b.status);
    if (['completed', 'failed', 'expired', 'cancelled'].includes(b.status)) return { batch: b, seen };
    await sleep(20);
  }
  throw new Error(`batch ${id} did not end`);
}

test('a JSONL file is uploaded, batched, polled to completed, and its output read', async (t) => {
  const session = await newSession(t, { scenarios });
  const openai = new OpenAI(session.openai());

  const lines = ['What is the capital of France?', 'Say hello.'].map((content, i) =>
    JSON.stringify({
      custom_id: `req-${i}`,
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content }] },
    }),
  );
  const file = await openai.files.create({
    file: await toFile(Buffer.from(lines.join('\n') + '\n'), 'batch.jsonl', { type: 'application/jsonl' }),
    purpose: 'batch',
  });
  assert.match(file.id, /^file-[A-Za-z0-9]{22}$/);
  assert.equal(file.purpose, 'batch');
  assert.equal(file.filename, 'batch.jsonl');

  const created = await openai.batches.create({
    input_file_id: file.id,
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
    metadata: { run: 'node' },
  });
  assert.match(created.id, /^batch_[0-9a-f]{32}$/);
  assert.equal(created.status, 'validating');
  assert.deepEqual(created.metadata, { run: 'node' });

  const { batch, seen } = await untilEnded(openai, created.id);
  assert.equal(batch.status, 'completed');
  assert.equal(seen.at(-1), 'completed');
  assert.deepEqual(batch.request_counts, { total: 2, completed: 2, failed: 0 });
  assert.ok(batch.completed_at >= batch.created_at);
  assert.equal(batch.error_file_id, null);

  const content = await openai.files.content(batch.output_file_id);
  const byID = Object.fromEntries(
    (await content.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .map((l) => [l.custom_id, l]),
  );
  assert.deepEqual(Object.keys(byID).sort(), ['req-0', 'req-1']);
  assert.equal(byID['req-0'].response.status_code, 200);
  assert.equal(byID['req-0'].error, null);
  assert.equal(byID['req-0'].response.body.object, 'chat.completion');
  assert.equal(byID['req-0'].response.body.choices[0].message.content, 'Paris');
  assert.equal(byID['req-1'].response.body.choices[0].message.content, 'ok');

  const [entry] = await session.journal({ endpoint: 'batches' });
  assert.equal(entry.job, created.id);
  const list = await openai.batches.list();
  assert.deepEqual(list.data.map((b) => b.id), [created.id]);
});
