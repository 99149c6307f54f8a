// The openai SDK against the built binary's videos API: create (multipart,
// with an input_reference file), poll until completed, download each
// variant, list, remix and delete. The binary runs on the real clock, so
// the scenario plans each video in a few hundred milliseconds.

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

/** Videos that queue 50 ms and run 200 ms in two steps. */
const quickVideos = [
  { name: 'quick', match: { endpoint: 'videos' }, replies: [{ job: { queued_ms: 50, running_ms: 200, steps: 2 } }], repeat: true },
];

/** Polls the video until it has ended, and returns it with the statuses seen. */
async function untilEnded(openai, id) {
  const seen = [];
  for (let i = 0; i < 100; i++) {
    const v = await openai.videos.retrieve(id);
    if (seen.at(-1) !== v.status) seen.push(v.status);
    if (v.status === 'completed' || v.status === 'failed') return { video: v, seen };
    await sleep(20);
  }
  throw new Error(`video ${id} did not end`);
}

test('a video is created, polled to completed, and its content downloaded', async (t) => {
  const session = await newSession(t, { scenarios: quickVideos });
  const openai = new OpenAI(session.openai());

  const png = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(1024)]);
  const created = await openai.videos.create({
    prompt: 'A paper boat on a river',
    model: 'sora-2-pro',
    seconds: '8',
    size: '1280x720',
    input_reference: await toFile(png, 'ref.png', { type: 'image/png' }),
  });
  assert.match(created.id, /^video_[0-9a-f]{48}$/);
  assert.equal(created.object, 'video');
  assert.equal(created.status, 'queued');
  assert.equal(created.model, 'sora-2-pro');
  assert.equal(created.seconds, '8');
  assert.equal(created.size, '1280x720');
  assert.equal(created.completed_at, null);

  const { video, seen } = await untilEnded(openai, created.id);
  assert.equal(video.status, 'completed');
  assert.equal(video.progress, 100);
  assert.ok(video.completed_at >= video.created_at);
  assert.ok(video.expires_at > video.completed_at);
  assert.deepEqual(seen.filter((s) => s !== 'queued').at(-1), 'completed');

  const mp4 = await openai.videos.downloadContent(created.id);
  assert.equal(mp4.headers.get('content-type'), 'video/mp4');
  const bytes = Buffer.from(await mp4.arrayBuffer());
  assert.equal(bytes.subarray(4, 8).toString('latin1'), 'ftyp');

  const thumb = await openai.videos.downloadContent(created.id, { variant: 'thumbnail' });
  assert.equal(thumb.headers.get('content-type'), 'image/webp');
  const webp = Buffer.from(await thumb.arrayBuffer());
  assert.equal(webp.subarray(0, 4).toString('latin1'), 'RIFF');
  assert.equal(webp.subarray(8, 16).toString('latin1'), 'WEBPVP8L');

  const sheet = await openai.videos.downloadContent(created.id, { variant: 'spritesheet' });
  assert.equal(sheet.headers.get('content-type'), 'image/jpeg');
  const jpeg = Buffer.from(await sheet.arrayBuffer());
  assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8], 'a JPEG start of image');

  const [entry] = await session.journal({ endpoint: 'videos' });
  assert.equal(entry.model, 'sora-2-pro');
  assert.equal(entry.scenario, 'quick');
});

test('a video is remixed, listed and deleted; bad input names its param', async (t) => {
  const session = await newSession(t, { scenarios: quickVideos });
  const openai = new OpenAI(session.openai());
  const source = await openai.videos.create({ prompt: 'A dog' });
  await untilEnded(openai, source.id);
  const remix = await openai.videos.remix(source.id, { prompt: 'A dog in the rain' });
  assert.equal(remix.remixed_from_video_id, source.id);
  assert.equal(remix.prompt, 'A dog in the rain');

  const ids = [];
  for await (const v of openai.videos.list({ limit: 1 })) ids.push(v.id);
  assert.deepEqual(ids, [remix.id, source.id], 'newest first, paged one by one');

  const deleted = await openai.videos.delete(remix.id);
  assert.deepEqual(deleted, { id: remix.id, object: 'video.deleted', deleted: true });
  await assert.rejects(openai.videos.retrieve(remix.id), (err) => {
    assert.ok(err instanceof OpenAI.NotFoundError, `got ${err}`);
    return true;
  });

  await assert.rejects(openai.videos.create({ prompt: 'x', seconds: '5' }), (err) => {
    assert.ok(err instanceof OpenAI.BadRequestError, `got ${err}`);
    assert.equal(err.code, 'invalid_value');
    assert.equal(err.param, 'seconds');
    return true;
  });
});
