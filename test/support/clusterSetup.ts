// The `cluster` project's Redis: TEST_REDIS_CLUSTER_NODES when set, otherwise a local 3-master
// Redis Cluster started here and stopped when the run ends (test/support/redisCluster.ts).
import type { TestProject } from 'vitest/node';
import { startRedisCluster } from './redisCluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `host:port,…` of the cluster's nodes; empty outside the `cluster` project. */
    redisClusterNodes: string;
  }
}

export default async function setup(project: TestProject) {
  const given = process.env['TEST_REDIS_CLUSTER_NODES'];
  if (given) {
    project.provide('redisClusterNodes', given);
    return undefined;
  }
  const cluster = await startRedisCluster();
  project.provide('redisClusterNodes', cluster.nodeList);
  return () => cluster.stop();
}
