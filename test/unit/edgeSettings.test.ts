import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

const fails = (env: Record<string, string>, message: string) =>
  expect(() => loadConfig(env)).toThrow(new ConfigError(`Invalid settings:\n  ${message}`));

describe('edge purge settings', () => {
  it('reads every edge at once, with the vendors’ API URLs by default', () => {
    expect(
      loadConfig({
        EDGE_PURGE: 'varnish, fastly,cloudflare',
        EDGE_VARNISH_URLS: 'http://varnish-a:6081/, http://varnish-b:6081',
        FASTLY_SERVICE_ID: 'SU1Z0isxPaozGVKXdv0eY',
        FASTLY_API_TOKEN: 'fastly-token',
        CLOUDFLARE_ZONE_ID: '023e105f4ecef8ad9ca31a8372d0c353',
        CLOUDFLARE_API_TOKEN: 'cloudflare-token',
      }).edge,
    ).toEqual({
      providers: ['varnish', 'fastly', 'cloudflare'],
      varnishUrls: ['http://varnish-a:6081', 'http://varnish-b:6081'],
      fastly: { serviceId: 'SU1Z0isxPaozGVKXdv0eY', token: 'fastly-token', apiUrl: 'https://api.fastly.com' },
      cloudflare: {
        zoneId: '023e105f4ecef8ad9ca31a8372d0c353',
        token: 'cloudflare-token',
        apiUrl: 'https://api.cloudflare.com/client/v4',
      },
    });
  });

  it('is off by default and with EDGE_PURGE=off', () => {
    expect(loadConfig({ EDGE_PURGE: 'off' }).edge.providers).toEqual([]);
  });

  it('stops at start naming the variable that is bad or missing', () => {
    fails({ EDGE_PURGE: 'akamai' }, 'EDGE_PURGE: "akamai" is not off, varnish, fastly or cloudflare');
    fails({ EDGE_PURGE: 'varnish' }, 'EDGE_VARNISH_URLS: required when EDGE_PURGE includes varnish');
    fails(
      { EDGE_PURGE: 'varnish', EDGE_VARNISH_URLS: 'varnish:6081' },
      'EDGE_VARNISH_URLS: "varnish:6081" is not an http(s) URL',
    );
    fails(
      { EDGE_PURGE: 'fastly', FASTLY_SERVICE_ID: 'svc' },
      'FASTLY_API_TOKEN: required when EDGE_PURGE includes fastly',
    );
    fails(
      { EDGE_PURGE: 'cloudflare', CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_API_URL: 'ftp://x' },
      'CLOUDFLARE_ZONE_ID: required when EDGE_PURGE includes cloudflare\n  CLOUDFLARE_API_URL: "ftp://x" is not an http(s) URL',
    );
  });
});
