// A proxy of the test's own as a child process: started in its directory, ready once it answers
// /healthz (the API's, through it), stopped with `signal` and its directory removed.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';

export type ProxyProcess = Readonly<{ url: string; stop: () => Promise<void> }>;

type Launch = Readonly<{
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Its own directory, removed when it stops. */
  dir: string;
  /** Where readers reach it. */
  url: string;
  signal: NodeJS.Signals;
}>;

export const startProxyProcess = async (launch: Launch): Promise<ProxyProcess> => {
  const child = spawn(launch.command, launch.args, {
    env: launch.env ?? process.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill(launch.signal);
    await exited;
    await rm(launch.dir, { recursive: true, force: true });
  };
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`${launch.command} exited: ${stderr}`);
    }
    const up = await fetch(`${launch.url}/healthz`).then(
      (res) => res.text().then(() => true),
      () => false,
    );
    if (up) return { url: launch.url, stop };
    if (tries > 300) {
      await stop();
      throw new Error(`${launch.command} did not answer: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
