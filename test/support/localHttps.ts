// A local HTTPS receiver for delivery tests: a CA made for the run with openssl, a certificate it
// signs for localhost, hooks.test and 127.0.0.1, and a server that records what it was sent.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type TestCertificates = Readonly<{ ca: string; key: string; cert: string }>;

/** A CA and a server certificate it signed, valid for a day. */
export const makeTestCertificates = (): TestCertificates => {
  const dir = mkdtempSync(join(tmpdir(), 'hooks-ca-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=Notification test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    );
    openssl('req', ...ec, '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', '/CN=localhost');
    writeFileSync(at('leaf.ext'), 'subjectAltName=DNS:localhost,DNS:hooks.test,IP:127.0.0.1\n');
    openssl(
      'x509',
      '-req',
      '-in',
      at('leaf.csr'),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at('leaf.pem'),
      '-days',
      '1',
      '-extfile',
      at('leaf.ext'),
    );
    const read = (name: string) => readFileSync(at(name), 'utf8');
    return { ca: read('ca.pem'), key: read('leaf.key'), cert: read('leaf.pem') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export type ReceivedRequest = Readonly<{
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}>;
export type Handler = (req: ReceivedRequest, res: ServerResponse) => void;

export type LocalReceiver = Readonly<{
  port: number;
  /** `https://<host>:<port><path>` */
  url: (path: string, host?: string) => string;
  requests: ReceivedRequest[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: () => number;
  close: () => Promise<void>;
}>;

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** An HTTPS server on 127.0.0.1 that records each request, then lets `handler` answer it. */
export const startLocalReceiver = async (
  certs: TestCertificates,
  handler: Handler,
): Promise<LocalReceiver> => {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    void readBody(req).then((body) => {
      const received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(received);
      handler(received, res);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path, host = 'localhost') => `https://${host}:${port}${path}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
