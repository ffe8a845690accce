// A private Caddy (Debian's caddy) running the shipped deploy/Caddyfile: the service's own address
// in plain HTTP on a free port through PUBLIC_HOST, as the file reads it, and the upstream through
// STATUSPAGE_API. The test adds only what keeps it private to the test to the global options: no
// admin endpoint, and the HTTP and HTTPS ports of the on-demand block on free ports. Stopped by the
// caller.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startProxyProcess, type ProxyProcess } from './proxyProcess.ts';
import { freePort } from './redisServer.ts';

const SHIPPED = path.join(import.meta.dirname, '../../deploy/Caddyfile');

export const startCaddy = async (backendPort: number): Promise<ProxyProcess> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sp-caddy-'));
  const [port, httpPort, httpsPort] = [await freePort(), await freePort(), await freePort()];
  const shipped = await readFile(SHIPPED, 'utf8');
  // Private ports and no admin endpoint, as the first lines of the global options block.
  const local = shipped.replace(
    /^\{\n/m,
    `{\n\tadmin off\n\thttp_port ${String(httpPort)}\n\thttps_port ${String(httpsPort)}\n`,
  );
  if (local === shipped) throw new Error('the shipped Caddyfile no longer has a global options block');
  const file = path.join(dir, 'Caddyfile');
  await writeFile(file, local);
  return startProxyProcess({
    command: 'caddy',
    args: ['run', '--adapter', 'caddyfile', '--config', file],
    env: {
      ...process.env,
      HOME: dir,
      XDG_DATA_HOME: dir,
      XDG_CONFIG_HOME: dir,
      PUBLIC_HOST: `http://127.0.0.1:${port}`,
      STATUSPAGE_API: `127.0.0.1:${backendPort}`,
      STATUSPAGE_OPERATOR: '127.0.0.1:1',
    },
    dir,
    url: `http://127.0.0.1:${port}`,
    signal: 'SIGTERM',
  });
};
