// Loads the dashboard in headless Chromium (Debian's, never a downloaded
// build) against a running server with real traffic, checks the session
// selector, a conversation view and the jobs panel, and saves a full-page
// screenshot to out/dashboard.png.
//
// The server is the standalone binary $LLMTEST_BINARY names, which serves
// its dashboard by default.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import * as traffic from './traffic.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const managementKey = 'browser-test-management-key';
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

let server;
let baseURL;
let userDataDir;
let agent;
let hello;
let agentJobs;

/** Starts the server and resolves with its URL, read from its first line. */
function startServer() {
  const command = process.env.LLMTEST_BINARY;
  if (!command) throw new Error('LLMTEST_BINARY names no llmtestserver binary: run bash .ci/browser');
  const args = ['-addr', '127.0.0.1:0', '-management-key', managementKey];
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    // A binary that never prints its URL fails the run instead of holding it.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} printed no URL within 30 s: ${out}`));
    }, 30000);
    child.on('exit', () => clearTimeout(timer));
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code} before listening: ${out}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
  });
}

before(async () => {
  const started = await startServer();
  server = started.child;
  baseURL = started.url;
  agent = await traffic.createSession(baseURL, managementKey, traffic.agentConfig);
  hello = await traffic.createSession(baseURL, managementKey, traffic.helloConfig);
  agentJobs = (await traffic.agentTraffic(baseURL, agent)).background;
  await traffic.helloTraffic(baseURL, hello);
  await traffic.defaultTraffic(baseURL, managementKey);

});

after(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
});

test('the dashboard asks a browser without the management key to log in', async () => {
  const res = await fetch(baseURL + '/');
  assert.equal(res.status, 401);
  assert.equal(res.headers.get('www-authenticate'), 'Basic realm="llmtestserver"');
  const wrong = await fetch(baseURL + '/', { headers: { authorization: 'Basic ' + btoa('me:wrong-key') } });
  assert.equal(wrong.status, 401);
});

test('the dashboard shows the sessions and a conversation with real data', async () => {
  // A fresh profile of Debian's Chromium; nothing is downloaded.
  userDataDir = await mkdtemp(path.join(tmpdir(), 'llmtest-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    httpCredentials: { username: 'tester', password: managementKey },
    viewport: { width: 1440, height: 900 },
  });
  const page = context.pages()[0] ?? await context.newPage();
  try {
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));

    await page.goto(baseURL + '/');
    // The default runtime first: its one request missed (it has no scenarios).
    await page.locator('#conversations').getByText('Is anyone on the default runtime?').first().waitFor();

    // The selector lists both sessions, by ID, and never a key.
    const select = page.locator('#runtime');
    await page.waitForFunction((ids) => ids.every((id) => [...document.querySelectorAll('#runtime option')].some((o) => o.value === id)),
      [agent.id, hello.id]);
    const options = await select.locator('option').allTextContents();
    assert.ok(options.some((o) => o.startsWith(agent.id)), options.join('\n'));
    assert.ok(options.some((o) => o.startsWith(hello.id)), options.join('\n'));
    const html = await page.content();
    assert.ok(!html.includes(agent.headers['x-llm-test-server-session-key']), 'the page shows a session key');
    assert.ok(!html.includes(hello.headers['x-llm-test-server-session-key']), 'the page shows a session key');

    await select.selectOption(agent.id);
    const conv = page.locator('#conversations');
    // The request as sent: the system prompt and the user's question.
    await conv.getByText(traffic.weatherQuestion).first().waitFor();
    await conv.getByText(traffic.agentSystem).first().waitFor();
    // The tool loop: the call the server answered with, and its result.
    await conv.locator('.toolcall', { hasText: 'get_weather' }).first().waitFor();
    await conv.getByText('It is 18°C and sunny in Paris.').waitFor();
    // Usage with cached tokens, and stream timing.
    const toolAnswer = conv.locator('article.step', { hasText: 'It is 18°C and sunny in Paris.' });
    assert.match(await toolAnswer.locator('.facts').innerText(), /tokens in\s+180[\s\S]*cached\s+128[\s\S]*out\s+11/);
    const story = conv.locator('article.step', { hasText: 'Once upon a time' });
    assert.match(await story.locator('.facts').innerText(), /first byte[\s\S]*chunks\s+\d+/);
    // The fault fired, and the miss with its explanation.
    await conv.locator('article.step.is-fault', { hasText: 'fault: cut' }).waitFor();
    const miss = conv.locator('article.step.is-miss', { hasText: traffic.missQuestion });
    await miss.waitFor();
    assert.match(await miss.locator('ol.tried').innerText(), /weather-tool: does not match user message containing "weather"/);
    // The structured output, with where it fails the schema.
    const extract = conv.locator('article.step', { hasText: 'Extract the city' });
    await extract.getByText('schema errors').waitFor();
    assert.match(await extract.locator('ul.problems').innerText(), /population/);
    // The side panels: what remains of each scenario, and the assertions.
    assert.match(await page.locator('#scenarios').innerText(), /flaky[\s\S]*1 of 2 left/);
    assert.match(await page.locator('#assertions').innerText(), /Unmatched requests\s+1/);
    // The jobs panel: the session's two background responses, by the IDs
    // the API answered, oldest first: the one that ended as it was made,
    // completed at 100 %, and the one that runs for an hour; under the
    // bounds of the standalone server's defaults.
    const jobs = page.locator('#jobs');
    const [done, running] = agentJobs;
    await jobs.locator('.job.state-completed', { hasText: done }).waitFor();
    await jobs.locator('.job.state-in_progress', { hasText: running }).waitFor();
    assert.deepEqual(await jobs.locator('.job').evaluateAll((cards) => cards.map((c) => c.dataset.id)), agentJobs);
    const doneCard = jobs.locator('.job', { hasText: done });
    assert.match(await doneCard.innerText(), /response[\s\S]*completed[\s\S]*100%[\s\S]*created [\d:.]+ · ended [\d:.]+/);
    assert.equal(await doneCard.getByRole('progressbar').getAttribute('aria-valuenow'), '100');
    const runningCard = jobs.locator('.job', { hasText: running });
    assert.match(await runningCard.innerText(), /in progress/);
    assert.doesNotMatch(await runningCard.innerText(), /ended/);
    assert.match(await jobs.innerText(), /videos 0 of 4[\s\S]*jobs 2 of 32/);

    // The selection survives live refreshes, and the page keeps up: a
    // request sent now shows without a reload.
    await traffic.helloTraffic(baseURL, hello).catch(() => {}); // the second one misses: its reply is used
    await select.selectOption(hello.id);
    await conv.getByText('Hello from the second session').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#conversations article.step').length === 2);
    // Two polls later, still the same session.
    const polls = Number(await page.locator('body').getAttribute('data-polls'));
    await page.waitForFunction((n) => Number(document.body.dataset.polls) >= n + 2, polls);
    assert.equal(await select.inputValue(), hello.id);

    await select.selectOption(agent.id);
    await miss.waitFor();
    assert.deepEqual(errors, []);
    await mkdir(path.join(here, 'out'), { recursive: true });
    await page.screenshot({ path: path.join(here, 'out', 'dashboard.png'), fullPage: true });
  } catch (err) {
    // What the page showed when the check failed, beside the screenshot.
    await mkdir(path.join(here, 'out'), { recursive: true });
    await page.screenshot({ path: path.join(here, 'out', 'failure.png'), fullPage: true }).catch(() => {});
    throw err;
  } finally {
    await context.close();
  }
});
