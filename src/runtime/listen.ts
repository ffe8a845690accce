import { createServer, type RequestListener, type Server } from 'node:http';
import { loadListenSettings, type ListenSettings } from './listenSettings.ts';

/**
 * Applies the connection bounds: headers and whole requests within their timeouts (408 after),
 * a connection that sends nothing closed after the headers timeout (by its socket's timeout, or
 * by Node's check with a 408, whichever comes first), one without traffic after the idle
 * timeout, and at most `maxConnections`.
 */
const bound = (server: Server, settings: ListenSettings): void => {
  server.headersTimeout = settings.headersTimeoutMs;
  server.requestTimeout = settings.requestTimeoutMs;
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  server.timeout = settings.idleSocketTimeoutMs;
  server.maxConnections = settings.maxConnections;
  server.on('connection', (socket) => socket.setTimeout(settings.headersTimeoutMs));
  server.on('request', (req) => req.socket.setTimeout(settings.idleSocketTimeoutMs));
};

/** Starts listening; resolves once bound, with a closer for shutdown. */
export const listen = (
  handler: RequestListener,
  port: number,
  host: string,
  settings: ListenSettings = loadListenSettings(),
): Promise<{ server: Server; close: () => Promise<void> }> =>
  new Promise((resolve, reject) => {
    const server = createServer(
      // Checked this often: how late past its timeout a slow request is answered 408.
      { connectionsCheckingInterval: Math.min(1000, settings.headersTimeoutMs / 2) },
      handler,
    );
    bound(server, settings);
    server.listen(port, host);
    server.once('error', reject);
    server.once('listening', () =>
      resolve({
        server,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
