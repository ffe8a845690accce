// A process of its own that sends PING to Redis every 5 ms and, on SIGTERM, prints the round trips
// it measured as one JSON line. It runs apart from the process it watches, so a busy event loop
// there does not pass for a slow Redis. Usage: tsx bench/latencyProbe.ts <redis url>
import { Redis } from 'ioredis';

const INTERVAL_MS = 5;
const redis = new Redis(process.argv[2] ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
const rtts: number[] = [];
let stopped = false;

const loop = async () => {
  await redis.ping();
  process.stdout.write('ready\n');
  while (!stopped) {
    const started = performance.now();
    await redis.ping();
    const rtt = performance.now() - started;
    rtts.push(rtt);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, INTERVAL_MS - rtt)));
  }
};

process.once('SIGTERM', () => {
  stopped = true;
  const sorted = [...rtts].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  process.stdout.write(
    `${JSON.stringify({ pings: sorted.length, max_ms: sorted.at(-1) ?? 0, p99_ms: at(0.99), p50_ms: at(0.5) })}\n`,
  );
  redis.disconnect();
  process.exit(0);
});

await loop();
