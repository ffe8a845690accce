// A raw Server-Sent Events reader for tests: every event and comment line in arrival order, so a
// test can assert exactly what a stream sent (EventSource clients hide comments and reconnect).
import http from 'node:http';

type SseMessage =
  { kind: 'event'; id: string | null; event: string; data: string } | { kind: 'comment'; text: string };

type SseStream = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The next message; rejects when the stream ends first. */
  next: () => Promise<SseMessage>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close: () => void;
  /** The body of a non-200 answer. */
  body: () => Promise<string>;
};

const parseBlock = (block: string): SseMessage[] => {
  const comments: SseMessage[] = [];
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comments.push({ kind: 'comment', text: line.slice(1).trim() });
    else if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  return data.length > 0 ? [...comments, { kind: 'event', id, event, data: data.join('\n') }] : comments;
};

export const openStream = (url: string, headers: Record<string, string> = {}): Promise<SseStream> =>
  new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      const queue: SseMessage[] = [];
      const waiters: { resolve: (m: SseMessage) => void; reject: (e: Error) => void }[] = [];
      let buffer = '';
      let text = '';
      let done = false;
      const ended = new Promise<void>((resolveEnded) => {
        res.on('close', () => {
          done = true;
          for (const waiter of waiters.splice(0)) waiter.reject(new Error('stream ended'));
          resolveEnded();
        });
      });
      res.on('data', (chunk: string) => {
        text += chunk;
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const message of parseBlock(block)) {
            const waiter = waiters.shift();
            if (waiter) waiter.resolve(message);
            else queue.push(message);
          }
        }
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        next: () =>
          queue.length > 0
            ? Promise.resolve(queue.shift()!)
            : done
              ? Promise.reject(new Error('stream ended'))
              : new Promise((resolveNext, rejectNext) =>
                  waiters.push({ resolve: resolveNext, reject: rejectNext }),
                ),
        ended,
        close: () => req.destroy(),
        body: async () => {
          await ended;
          return text;
        },
      });
    });
    req.on('error', reject);
  });

/** The next `status` event, skipping heartbeats. */
export const nextStatus = async (stream: SseStream): Promise<{ id: number; body: unknown }> => {
  for (;;) {
    const message = await stream.next();
    if (message.kind === 'event' && message.event === 'status')
      return { id: Number(message.id), body: JSON.parse(message.data) as unknown };
  }
};
