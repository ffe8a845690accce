// The consumer code docs/notifications.md prints, run as printed: it must accept what the webhook
// sender signs and refuse a body changed on the way.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../src/notify/senders/webhookSignature.ts';

const root = join(import.meta.dirname, '../..');
const docs = readFileSync(join(root, 'docs/notifications.md'), 'utf8');
const sample = /\*\*Verifying a delivery\.\*\*[\s\S]*?```js\n([\s\S]*?)```/.exec(docs)?.[1];

const secret = generateWebhookSecret();
let child: ChildProcess;
let dir: string;
let port: number;
const handled: unknown[] = [];

beforeAll(async () => {
  if (sample === undefined) throw new Error('no verification sample in docs/notifications.md');
  // Under node_modules, so the sample's imports resolve as they would in a consumer's project.
  dir = mkdtempSync(join(root, 'node_modules', '.notify-docs-'));
  const file = join(dir, 'consumer.mjs');
  const harness =
    'const handle = (id, event) => console.log(JSON.stringify({ id, event }));\n' +
    sample +
    "const server = app.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));\n";
  writeFileSync(file, harness);
  child = spawn(process.execPath, [file], {
    env: { ...process.env, STATUS_WEBHOOK_SECRET: secret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  port = await new Promise<number>((resolve) => {
    lines.on('line', (line) => {
      const parsed = JSON.parse(line) as { port?: number };
      if (parsed.port !== undefined) resolve(parsed.port);
      else handled.push(parsed);
    });
  });
});
afterAll(() => {
  child.kill();
  rmSync(dir, { recursive: true, force: true });
});

const deliver = (body: string, headers: Record<string, string>) =>
  fetch(`http://127.0.0.1:${port}/status-events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

describe('docs/notifications.md: verifying a delivery', () => {
  it('accepts a signed delivery and hands its id and event on', async () => {
    const body = '{"type":"incident.opened","data":{}}';
    const headers = signWebhook({ id: 'msg_docs_1', body, atMs: Date.now() }, [
      generateWebhookSecret(),
      secret,
    ]);
    expect((await deliver(body, headers)).status).toBe(204);
    await expect.poll(() => handled).toEqual([{ id: 'msg_docs_1', event: JSON.parse(body) }]);
  });

  it('refuses a body changed after signing, a signature by another secret and an old timestamp', async () => {
    const body = '{"type":"incident.opened","data":{}}';
    const headers = signWebhook({ id: 'msg_docs_2', body, atMs: Date.now() }, [secret]);
    expect((await deliver(body.replace('opened', 'updated'), headers)).status).toBe(400);
    const other = signWebhook({ id: 'msg_docs_3', body, atMs: Date.now() }, [generateWebhookSecret()]);
    expect((await deliver(body, other)).status).toBe(400);
    const old = signWebhook({ id: 'msg_docs_4', body, atMs: Date.now() - 10 * 60_000 }, [secret]);
    expect((await deliver(body, old)).status).toBe(400);
    expect(handled).toHaveLength(1);
  });
});
