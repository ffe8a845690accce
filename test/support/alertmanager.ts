// A private Alertmanager (Debian's prometheus-alertmanager) on a random loopback port, with its
// own storage directory and no cluster listener, whose one receiver is a webhook to `webhookUrl`
// sending `token` as http_config.authorization; and amtool to raise and resolve alerts on it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './redisServer.ts';

const run = promisify(execFile);

export type Alertmanager = Readonly<{
  url: string;
  /** `amtool alert add` with these labels (name=value) and flags (--start=…, --end=…). */
  addAlert: (labels: Record<string, string>, flags?: { start?: string; end?: string }) => Promise<void>;
  /** Stops the process; with `keepStorage` its storage directory stays for a restart. */
  stop: (options?: { keepStorage?: boolean }) => Promise<void>;
  dir: string;
}>;

/** The receiver a user copies (docs/integrations.md), with this test's URL and token. */
export const alertmanagerConfig = (webhookUrl: string, token: string, repeatInterval = '1h'): string => `
route:
  receiver: statuspage
  group_by: [alertname]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: ${repeatInterval}
receivers:
  - name: statuspage
    webhook_configs:
      - url: ${webhookUrl}
        send_resolved: true
        http_config:
          authorization:
            credentials: ${token}
`;

export const startAlertmanager = async (
  config: string,
  options: { dir?: string } = {},
): Promise<Alertmanager> => {
  const dir = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'sp-alertmanager-')));
  const port = await freePort();
  await writeFile(path.join(dir, 'alertmanager.yml'), config);
  const child: ChildProcess = spawn(
    'prometheus-alertmanager',
    [
      `--config.file=${path.join(dir, 'alertmanager.yml')}`,
      `--storage.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`alertmanager exited: ${stderr}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (tries > 200) throw new Error(`alertmanager did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    dir,
    addAlert: async (labels, flags = {}) => {
      await run('amtool', [
        'alert',
        'add',
        ...Object.entries(labels).map(([name, value]) => `${name}=${value}`),
        ...(flags.start === undefined ? [] : [`--start=${flags.start}`]),
        ...(flags.end === undefined ? [] : [`--end=${flags.end}`]),
        `--alertmanager.url=${url}`,
      ]);
    },
    stop: async ({ keepStorage = false } = {}) => {
      child.kill('SIGTERM');
      await exited;
      if (!keepStorage) await rm(dir, { recursive: true, force: true });
    },
  };
};
