// Projects until `count` events have been applied. The log reader stops below the oldest open
// transaction of the whole PostgreSQL cluster (docs/architecture.md), and the test server is shared:
// one pass can legitimately project nothing yet.
import type { ProjectorEnv } from './projectorEnv.ts';

export const projectAll = async (env: ProjectorEnv, count: number, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  let projected = 0;
  for (;;) {
    projected += await env.project();
    if (projected >= count) return;
    if (Date.now() > deadline) throw new Error(`projected ${projected} of ${count} events`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
