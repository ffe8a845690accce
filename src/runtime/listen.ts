import { createServer, type RequestListener, type Server } from 'node:http';

/** Starts listening; resolves once bound, with a closer for shutdown. */
export const listen = (
  handler: RequestListener,
  port: number,
  host: string,
): Promise<{ server: Server; close: () => Promise<void> }> =>
  new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.listen(port, host);
    server.once('error', reject);
    server.once('listening', () =>
      resolve({
        server,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
