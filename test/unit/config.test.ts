import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('applies the defaults of operations.md', () => {
    expect(loadConfig({})).toEqual({
      databaseUrl: 'postgres://localhost:5432/statuspage',
      redisUrl: 'redis://127.0.0.1:6379',
      redisClusterNodes: null,
      redisPrefix: 'sp',
      port: 3000,
      host: '0.0.0.0',
      ingestPort: 3001,
      ingestHost: '127.0.0.1',
      ingestToken: null,
      publicBaseUrl: 'http://localhost:3000',
      pageUrlTemplate: '{base_url}/s/{slug}',
      trustProxy: false,
      demo: true,
      workerProbePort: 3002,
      partitions: 4,
      batchSize: 5000,
      concurrency: 4,
      logLevel: 'info',
      edge: { providers: [], varnishUrls: [], fastly: null, cloudflare: null },
      logFormat: null,
      notifyAllowHosts: new Set(),
      notify: { coalesceSeconds: 30 },
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      INGEST_TOKEN: 'a-token-of-16-chars',
      PUBLIC_BASE_URL: 'https://status.example.com/',
      DEMO: 'off',
      PROJECTOR_PARTITIONS: '8',
      NOTIFY_ALLOW_HOSTS: 'hooks.internal,10.0.0.7',
    });
    expect(config).toMatchObject({
      port: 8080,
      ingestToken: 'a-token-of-16-chars',
      publicBaseUrl: 'https://status.example.com',
      demo: false,
      partitions: 8,
      notifyAllowHosts: new Set(['hooks.internal', '10.0.0.7']),
    });
  });

  it('reads REDIS_CLUSTER_NODES as host:port pairs, instead of REDIS_URL', () => {
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: 'redis-1:7001, 10.0.0.2:7002,[::1]:7003' }).redisClusterNodes,
    ).toEqual([
      { host: 'redis-1', port: 7001 },
      { host: '10.0.0.2', port: 7002 },
      { host: '::1', port: 7003 },
    ]);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis-1' })).toThrow(
      'REDIS_CLUSTER_NODES: "redis-1" is not host:port',
    );
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis-1:7001,redis-2:70000' })).toThrow(
      'REDIS_CLUSTER_NODES: "redis-2:70000" is not host:port',
    );
    expect(() =>
      loadConfig({ REDIS_CLUSTER_NODES: 'redis-1:7001', REDIS_URL: 'redis://127.0.0.1:6379' }),
    ).toThrow(
      'REDIS_CLUSTER_NODES: set either REDIS_URL (one server) or REDIS_CLUSTER_NODES (a cluster), not both',
    );
  });

  it('reads TRUST_PROXY as off, on, or the trusted addresses and subnets', () => {
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'on' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'the proxy' })).toThrow(
      'TRUST_PROXY: invalid IP address: the proxy',
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow('TRUST_PROXY: invalid range');
  });

  it('follows PORT and HOST in the base URL when PUBLIC_BASE_URL is unset', () => {
    expect(loadConfig({ PORT: '4000' }).publicBaseUrl).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '4000', HOST: '::' }).publicBaseUrl).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '8081', HOST: '127.0.0.1' }).publicBaseUrl).toBe('http://127.0.0.1:8081');
    expect(loadConfig({ PORT: '8081', HOST: '::1' }).publicBaseUrl).toBe('http://[::1]:8081');
    expect(loadConfig({ PORT: '4000', PUBLIC_BASE_URL: '' }).publicBaseUrl).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '4000', PUBLIC_BASE_URL: 'https://status.example.com' }).publicBaseUrl).toBe(
      'https://status.example.com',
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', INGEST_TOKEN: '' })).toMatchObject({ port: 3000, ingestToken: null });
  });

  it('stops with a message naming every bad variable', () => {
    const load = () =>
      loadConfig({ PORT: 'eighty', DEMO: 'maybe', INGEST_TOKEN: 'short', PAGE_URL_TEMPLATE: '{base_url}/x' });
    expect(load).toThrow(ConfigError);
    const message = (() => {
      try {
        load();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of ['PORT', 'DEMO', 'INGEST_TOKEN', 'PAGE_URL_TEMPLATE'])
      expect(message).toContain(`  ${name}: `);
  });
});
