// Waiting on real child processes and on what they write: a bounded poll, and a signal that
// resolves once the child has exited.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `done` every 100 ms; throws naming `what` after `timeoutMs`. */
export const waitFor = async (
  what: string,
  done: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
): Promise<void> => {
  for (const started = Date.now(); Date.now() - started < timeoutMs;) {
    if (await done()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** Sends `signal` and resolves once the child has exited (at once if it already has). */
export const killChild = (child: ChildProcess, signal: NodeJS.Signals): Promise<void> =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else {
      child.once('exit', () => resolve());
      child.kill(signal);
    }
  });
