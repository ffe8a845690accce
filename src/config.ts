// Every setting of operations.md, parsed once at start. A bad value stops the process
// with a message naming the variable, before anything connects anywhere.
import proxyAddr from 'proxy-addr';
import { z } from 'zod';
import { parseEdgeSettings, type EdgeSettings } from './edge/edgeSettings.ts';
import { parseAllowHosts, type AllowHosts } from './notify/delivery/allowHosts.ts';

const port = z.coerce.number().int().min(0).max(65535);
const onOff = z.enum(['on', 'off']);

// Which peers may set X-Forwarded-Host (and -For, -Proto): `off`, `on` (any peer), or a comma list
// of addresses, subnets and the names loopback, linklocal, uniquelocal, as Express takes them.
const trustProxy = z.string().transform((value, ctx): TrustProxy => {
  const text = value.trim();
  if (text === 'off') return false;
  if (text === 'on') return true;
  const list = text.split(',').map((part) => part.trim());
  try {
    proxyAddr.compile(list);
    return list;
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/** A Redis Cluster node to start from: `host:port`, with `[…]` around an IPv6 address. */
export type ClusterNode = Readonly<{ host: string; port: number }>;

// The nodes a cluster client starts from (it learns the others from CLUSTER SLOTS): a comma list
// of `host:port`. One reachable node is enough; naming every master survives one being down.
const clusterNodes = z.string().transform((value, ctx): ClusterNode[] => {
  const nodes: ClusterNode[] = [];
  for (const entry of value.split(',').map((part) => part.trim())) {
    const [, host, portText] = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$/.exec(entry) ?? [];
    const port = Number(portText);
    if (host === undefined || port < 1 || port > 65535) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not host:port` });
      return z.NEVER;
    }
    nodes.push({ host: host.replace(/^\[|\]$/g, ''), port });
  }
  return nodes;
});

const Env = z.object({
  DATABASE_URL: z.string().url().default('postgres://localhost:5432/statuspage'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  REDIS_CLUSTER_NODES: clusterNodes.optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/)
    .default('sp'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  INGEST_PORT: port.default(3001),
  INGEST_HOST: z.string().min(1).default('127.0.0.1'),
  INGEST_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  PAGE_URL_TEMPLATE: z.string().includes('{slug}').default('{base_url}/s/{slug}'),
  TRUST_PROXY: trustProxy.default('off'),
  DEMO: onOff.default('on'),
  WORKER_PROBE_PORT: port.default(3002),
  PROJECTOR_PARTITIONS: z.coerce.number().int().min(1).max(256).default(4),
  PROJECTOR_BATCH_SIZE: z.coerce.number().int().min(1).max(50_000).default(5000),
  PROJECTOR_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  NOTIFY_COALESCE_S: z.coerce.number().int().min(0).max(3600).default(30),
  NOTIFY_ALLOW_HOSTS: z.string().optional(),
});

/** Express's `trust proxy`: false, true, or the trusted addresses and subnets. */
export type TrustProxy = boolean | readonly string[];

export type Config = Readonly<{
  databaseUrl: string;
  redisUrl: string;
  /** Set: every client is a Redis Cluster client starting from these nodes, and redisUrl is unused. */
  redisClusterNodes: readonly ClusterNode[] | null;
  redisPrefix: string;
  port: number;
  host: string;
  ingestPort: number;
  ingestHost: string;
  ingestToken: string | null;
  publicBaseUrl: string;
  pageUrlTemplate: string;
  trustProxy: TrustProxy;
  demo: boolean;
  workerProbePort: number;
  partitions: number;
  batchSize: number;
  concurrency: number;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  /** EDGE_PURGE and the edges' settings (docs/operations.md, "Edge caching"). */
  edge: EdgeSettings;
  /** null: human lines on a terminal, JSON lines otherwise. */
  logFormat: 'json' | 'pretty' | null;
  /** Hosts notifications may reach though they resolve to private or loopback addresses. */
  notifyAllowHosts: AllowHosts;
  /** Subscriber notifications (docs/notifications.md). */
  notify: NotifySettings;
}>;

export type NotifySettings = Readonly<{
  /** NOTIFY_COALESCE_S: updates of one incident this soon after a notification go out together. */
  coalesceSeconds: number;
}>;

// A wildcard bind address is not something to put in a browser; an IPv6 literal needs brackets.
export const browsableHost = (host: string): string =>
  host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

// Without PUBLIC_BASE_URL the base URL is where this process really listens, so links printed
// at start and embedded in snippets answer on a first run with any PORT.
const defaultBaseUrl = (host: string, port: number): string => `http://${browsableHost(host)}:${port}`;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** The variables that are set: an empty one means "not set", as shells and compose files leave them. */
const presentVariables = (env: NodeJS.ProcessEnv): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));

/** The settings `schema` reads from `env`. @throws ConfigError naming every bad variable */
export const parseSettings = <T extends z.ZodTypeAny>(schema: T, env: NodeJS.ProcessEnv): z.output<T> => {
  const parsed = schema.safeParse(presentVariables(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid settings:\n${lines.join('\n')}`);
  }
  return parsed.data as z.output<T>;
};

/** Parses the environment. Throws ConfigError naming every bad variable. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const present = presentVariables(env);
  const e = parseSettings(Env, env);
  const edge = parseEdgeSettings(present);
  if ('issues' in edge)
    throw new ConfigError(`Invalid settings:\n${edge.issues.map((i) => `  ${i}`).join('\n')}`);
  if (e.REDIS_CLUSTER_NODES && present['REDIS_URL'] !== undefined)
    throw new ConfigError(
      'Invalid settings:\n  REDIS_CLUSTER_NODES: set either REDIS_URL (one server) or REDIS_CLUSTER_NODES (a cluster), not both',
    );
  return {
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisClusterNodes: e.REDIS_CLUSTER_NODES ?? null,
    redisPrefix: e.REDIS_PREFIX,
    port: e.PORT,
    host: e.HOST,
    ingestPort: e.INGEST_PORT,
    ingestHost: e.INGEST_HOST,
    ingestToken: e.INGEST_TOKEN ?? null,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? defaultBaseUrl(e.HOST, e.PORT)).replace(/\/+$/, ''),
    pageUrlTemplate: e.PAGE_URL_TEMPLATE,
    trustProxy: e.TRUST_PROXY,
    demo: e.DEMO === 'on',
    workerProbePort: e.WORKER_PROBE_PORT,
    partitions: e.PROJECTOR_PARTITIONS,
    batchSize: e.PROJECTOR_BATCH_SIZE,
    concurrency: e.PROJECTOR_CONCURRENCY,
    logLevel: e.LOG_LEVEL,
    edge: edge.settings,
    logFormat: e.LOG_FORMAT ?? null,
    notifyAllowHosts: parseAllowHosts(e.NOTIFY_ALLOW_HOSTS),
    notify: { coalesceSeconds: e.NOTIFY_COALESCE_S },
  };
};
