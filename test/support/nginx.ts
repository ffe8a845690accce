// A private nginx (Debian's nginx-light or nginx) running the shipped configuration as docs/deploy.md
// has it: the http-level part of deploy/nginx.conf, a server block including
// deploy/statuspage-proxy.conf with the `proxy_cache` snippet (deploy/statuspage-cache.conf) turned
// on. Only addresses and paths differ: its own directory, a plain-HTTP listener on a free port,
// the upstream at a local port. Stopped by the caller.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startProxyProcess, type ProxyProcess } from './proxyProcess.ts';
import { freePort } from './redisServer.ts';

const DEPLOY = path.join(import.meta.dirname, '../../deploy');

/** `text` with `from` replaced by `to`, or an error naming what the shipped file no longer has. */
const replaced = (text: string, from: string, to: string): string => {
  if (!text.includes(from)) throw new Error(`the shipped nginx configuration no longer has ${from}`);
  return text.replaceAll(from, to);
};

/** deploy/nginx.conf's http-level part (before its server blocks), pointed at local paths. */
const httpPart = async (dir: string, backendPort: number): Promise<string> => {
  const shipped = await readFile(path.join(DEPLOY, 'nginx.conf'), 'utf8');
  const head = shipped.slice(0, shipped.indexOf('\nserver {'));
  const cache = replaced(head, 'server 127.0.0.1:3000;', `server 127.0.0.1:${backendPort};`);
  return replaced(cache, '/var/cache/nginx/statuspage', path.join(dir, 'cache'));
};

const proxySnippet = async (dir: string): Promise<string> => {
  const shipped = await readFile(path.join(DEPLOY, 'statuspage-proxy.conf'), 'utf8');
  const logs = replaced(shipped, '/var/log/nginx/', `${dir}/`);
  return replaced(
    logs,
    '# include /etc/nginx/snippets/statuspage-cache.conf;',
    `include ${path.join(dir, 'statuspage-cache.conf')};`,
  );
};

export const startNginx = async (backendPort: number): Promise<ProxyProcess> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sp-nginx-'));
  const port = await freePort();
  await writeFile(path.join(dir, 'statuspage-proxy.conf'), await proxySnippet(dir));
  await writeFile(
    path.join(dir, 'statuspage-cache.conf'),
    await readFile(path.join(DEPLOY, 'statuspage-cache.conf'), 'utf8'),
  );
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `    ${name}_temp_path ${path.join(dir, `${name}-temp`)};`)
    .join('\n');
  const conf = `
${process.getuid?.() === 0 ? 'user root root;' : ''}
daemon off;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} notice;
events { worker_connections 1024; }
http {
${temp}
${await httpPart(dir, backendPort)}
    server {
        listen 127.0.0.1:${port};
        server_name _;
        include ${path.join(dir, 'statuspage-proxy.conf')};
    }
}
`;
  await writeFile(path.join(dir, 'nginx.conf'), conf);
  return startProxyProcess({
    command: 'nginx',
    args: ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')],
    dir,
    url: `http://127.0.0.1:${port}`,
    signal: 'SIGQUIT', // a graceful stop
  });
};
