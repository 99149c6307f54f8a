// The openai SDK against the built binary's videos API: a video scripted
// to queue and run briefly, polled to completed on the server's real
// clock, its content downloaded, listed, and deleted.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';

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

/** A video that queues 50 ms and runs 200 ms in two steps. */
const quickVideo = [
  { name: 'quick', match: { endpoint: 'videos' }, replies: [{ job: { queued_ms: 50, running_ms: 200, steps: 2 } }] },
];

test('a video is polled to completed and its content downloaded', async (t) => {
  const session = await newSession(t, { scenarios: quickVideo });
  const openai = new OpenAI(session.openai());

  const created = await openai.videos.create({ model: 'sora-2', prompt: 'A lighthouse at dusk', seconds: '4', size: '720x1280' });
  assert.match(created.id, /^video_/);
  assert.equal(created.status, 'queued');
  assert.equal(created.model, 'sora-2');
  assert.equal(created.seconds, '4');
  assert.equal(created.size, '720x1280');

  let video = created;
  const seen = new Set([video.status]);
  for (let i = 0; i < 100 && video.status !== 'completed'; i++) {
    await sleep(20);
    video = await openai.videos.retrieve(created.id);
    seen.add(video.status);
  }
  assert.equal(video.status, 'completed');
  assert.equal(video.progress, 100);
  assert.ok(seen.has('in_progress'), `statuses seen: ${[...seen]}`);

  const mp4 = Buffer.from(await (await openai.videos.downloadContent(created.id)).arrayBuffer());
  assert.equal(mp4.subarray(4, 8).toString('latin1'), 'ftyp');
  const thumb = Buffer.from(await (await openai.videos.downloadContent(created.id, { variant: 'thumbnail' })).arrayBuffer());
  assert.equal(thumb.subarray(0, 4).toString('latin1'), 'RIFF');
  assert.equal(thumb.subarray(8, 12).toString('latin1'), 'WEBP');
  const sheet = Buffer.from(await (await openai.videos.downloadContent(created.id, { variant: 'spritesheet' })).arrayBuffer());
  assert.deepEqual([...sheet.subarray(0, 2)], [0xff, 0xd8]);

  const page = await openai.videos.list();
  assert.deepEqual(page.data.map((v) => v.id), [created.id]);

  const deleted = await openai.videos.delete(created.id);
  assert.equal(deleted.deleted, true);
  await assert.rejects(openai.videos.retrieve(created.id), (err) => err.status === 404);
});

test('an unknown video model is refused with its param', async (t) => {
  const session = await newSession(t, { scenarios: quickVideo });
  const openai = new OpenAI({ ...session.openai(), maxRetries: 0 });
  await assert.rejects(
    openai.videos.create({ model: 'sora-0', prompt: 'x' }),
    (err) => err.status === 400 && err.param === 'model',
  );
});
