// Many live streams from one process: each is a plain HTTP connection whose `id:` lines are
// reported as they arrive. No EventSource: at 10,000 connections its per-stream cost would be
// measured instead of the server's.
import http from 'node:http';

export type OpenStreams = Readonly<{ count: () => number; close: () => void }>;

const ID_LINE = /^id: (\d+)$/gm;

/** Opens `count` streams (`batch` handshakes at a time); `onId(index, id)` for every event id. */
export const openStreams = async (
  url: string,
  count: number,
  onId: (index: number, id: number) => void,
  batch = 250,
): Promise<OpenStreams> => {
  const requests: http.ClientRequest[] = [];
  const openOne = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(url, { agent: false, headers: { Accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream ${index}: HTTP ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          for (const match of chunk.matchAll(ID_LINE)) onId(index, Number(match[1]));
        });
        resolve();
      });
      req.on('error', reject);
      requests.push(req);
    });
  for (let start = 0; start < count; start += batch)
    await Promise.all(Array.from({ length: Math.min(batch, count - start) }, (_, i) => openOne(start + i)));
  return {
    count: () => requests.length,
    close: () => {
      for (const req of requests) req.destroy();
    },
  };
};
