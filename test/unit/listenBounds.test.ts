// The listeners' connection bounds (src/runtime/listen.ts): a connection that sends nothing and one
// that trickles its headers are both closed, an idle keep-alive connection is kept for the next
// request, and a connection beyond maxConnections is refused, while ordinary requests are answered.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/runtime/listen.ts';
import { loadListenSettings } from '../../src/runtime/listenSettings.ts';

const settings = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
  keepAliveTimeoutMs: 5000,
  idleSocketTimeoutMs: 5000,
  maxConnections: 4,
};

/** Everything the server sent until it closed the connection. */
const received = (socket: net.Socket): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
  });

const firstAnswer = (socket: net.Socket): Promise<string> =>
  new Promise((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))));

describe('listener connection bounds', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let port: number;
  beforeAll(async () => {
    server = await listen((_req, res) => res.end('ok'), 0, '127.0.0.1', settings);
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());
  const connect = () => net.connect(port, '127.0.0.1');

  it('closes a connection that never sends a byte (silently, or with a 408 when Node times it first)', async () => {
    // Both the socket's timeout and Node's headers timeout fall due at headersTimeoutMs: which
    // closes it first is a race between two timers.
    expect(['', 'HTTP/1.1 408 Request Timeout']).toContain((await received(connect())).split('\r\n')[0]);
  });

  it('answers 408 to headers that trickle in, and closes the connection', async () => {
    const socket = connect();
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 50);
    const text = await received(socket);
    clearInterval(trickle);
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  });

  it('keeps an idle keep-alive connection past the headers timeout for its next request', async () => {
    const socket = connect();
    const closed = received(socket);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await firstAnswer(socket)).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    await new Promise((resolve) => setTimeout(resolve, 2 * settings.requestTimeoutMs));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect((await closed).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });

  it('refuses connections beyond maxConnections', async () => {
    const held = Array.from({ length: settings.maxConnections }, () => connect());
    await Promise.all(held.map((s) => new Promise((resolve) => s.once('connect', resolve))));
    await new Promise((resolve) => setTimeout(resolve, 50)); // accepted on the server side
    const extra = connect();
    extra.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await received(extra)).toBe('');
    for (const s of held) s.destroy();
  });

  it('defaults: 10 s headers, 30 s request, 75 s keep-alive, 120 s idle, 25,000 connections', () => {
    expect(loadListenSettings({})).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 75_000,
      idleSocketTimeoutMs: 120_000,
      maxConnections: 25_000,
    });
  });
});
