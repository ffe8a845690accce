import type { Express } from 'express';
import type { Server } from 'node:http';

/** Starts listening; resolves once bound, with a closer for shutdown. */
export const listen = (
  app: Express,
  port: number,
  host: string,
): Promise<{ server: Server; close: () => Promise<void> }> =>
  new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('error', reject);
    server.once('listening', () =>
      resolve({
        server,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
