// A Redis Cluster of the tests' own: three masters (no replicas) on free ports, each a
// redis-server with --cluster-enabled in a temporary directory, joined and given the 16384 slots
// by `redis-cli --cluster create`, as an operator would. Stopped (and its files removed) at the end.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import type { ClusterNode } from '../../src/config.ts';
import { freePort } from './redisServer.ts';

const run = promisify(execFile);

export type LocalRedisCluster = Readonly<{
  nodes: readonly ClusterNode[];
  /** `host:port,…` as REDIS_CLUSTER_NODES takes it. */
  nodeList: string;
  stop: () => Promise<void>;
}>;

const HOST = '127.0.0.1';

const clusterState = async (port: number): Promise<string> => {
  const client = new Redis({
    host: HOST,
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const info = String(await client.call('CLUSTER', 'INFO'));
    return /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown';
  } catch {
    return 'down';
  } finally {
    client.disconnect();
  }
};

const waitFor = async (what: string, ok: () => Promise<boolean>): Promise<void> => {
  for (let tries = 0; tries < 300; tries += 1) {
    if (await ok()) return;
    await sleep(100);
  }
  throw new Error(`local Redis Cluster: ${what}`);
};

export const startRedisCluster = async (masters = 3): Promise<LocalRedisCluster> => {
  const dir = await mkdtemp(join(tmpdir(), 'sp-redis-cluster-'));
  const children: ChildProcess[] = [];
  const nodes: ClusterNode[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i += 1) {
      const port = await freePort();
      // The bus port is chosen too: port + 10000, the default, may be taken or past 65535.
      const busPort = await freePort();
      const nodeDir = join(dir, String(port));
      await mkdir(nodeDir);
      const child = spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', HOST, '--dir', nodeDir],
          ...['--cluster-enabled', 'yes', '--cluster-port', String(busPort)],
          ...['--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000'],
          ...['--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
        ],
        { stdio: 'ignore' },
      );
      children.push(child);
      nodes.push({ host: HOST, port });
    }
    for (const node of nodes)
      await waitFor(
        `node ${node.port} did not start`,
        async () => (await clusterState(node.port)) !== 'down',
      );
    const addresses = nodes.map((node) => `${node.host}:${node.port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    for (const node of nodes)
      await waitFor(
        `node ${node.port} did not see the cluster ok`,
        async () => (await clusterState(node.port)) === 'ok',
      );
    return { nodes, nodeList: addresses.join(','), stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
