// A private Varnish 7 (Debian's varnish + varnish-modules) running the shipped VCL
// (deploy/varnish/default.vcl) in front of a backend on a local port: its own work directory,
// listener and admin port, stopped by the caller. Used by the edge tests and `npm run bench`.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SHIPPED_VCL = path.join(import.meta.dirname, '../../deploy/varnish/default.vcl');

/** A port nobody listens on right now (Varnish needs a number before it starts). */
const freePort = async (): Promise<number> => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
};

/** The shipped VCL with its backend pointed at 127.0.0.1:`port` (only the address differs). */
const vclFor = async (port: number): Promise<string> => {
  const vcl = await readFile(SHIPPED_VCL, 'utf8');
  const local = vcl
    .replace('.host = "api";', '.host = "127.0.0.1";')
    .replace('.port = "3000";', `.port = "${port}";`);
  if (local === vcl) throw new Error('the shipped VCL no longer names its backend as api:3000');
  return local;
};

export type Varnish = Readonly<{
  url: string;
  /** `healthy` or `sick`: the probe's verdict on the backend. */
  backendHealth: () => Promise<string>;
  stop: () => Promise<void>;
}>;

export const startVarnish = async (backendPort: number): Promise<Varnish> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sp-varnish-'));
  const [port, adminPort] = [await freePort(), await freePort()];
  await writeFile(path.join(dir, 'default.vcl'), await vclFor(backendPort));
  await writeFile(path.join(dir, 'secret'), randomBytes(16).toString('hex'));
  const child: ChildProcess = spawn(
    'varnishd',
    [
      ...['-F', '-j', 'none', '-n', path.join(dir, 'n'), '-f', path.join(dir, 'default.vcl')],
      ...['-a', `127.0.0.1:${port}`, '-T', `127.0.0.1:${adminPort}`, '-S', path.join(dir, 'secret')],
      ...[
        '-s',
        'malloc,64m',
        '-p',
        'thread_pools=1',
        '-p',
        'thread_pool_min=20',
        '-p',
        'thread_pool_max=300',
      ],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const admin = async (...args: string[]) =>
    (await run('varnishadm', ['-T', `127.0.0.1:${adminPort}`, '-S', path.join(dir, 'secret'), ...args]))
      .stdout;
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`varnishd exited: ${stderr}`);
    const up = await fetch(`${url}/healthz`).then(
      (res) => res.text().then(() => true),
      () => false,
    );
    if (up) break;
    if (tries > 200) {
      await stop();
      throw new Error(`varnishd did not answer: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const backendHealth = async () => {
    const list = await admin('backend.list');
    return /\bsick\b/i.test(list) ? 'sick' : /\bhealthy\b/i.test(list) ? 'healthy' : list;
  };
  return { url, backendHealth, stop };
};
