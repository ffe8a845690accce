import { describe, expect, it } from 'vitest';
import { pageSuffixOf } from '../../src/http/hostRouting.ts';
import { hostOfUrl, normalizeHost } from '../../src/shared/hostName.ts';

describe('normalizeHost', () => {
  it.each([
    ['status.acme.test', 'status.acme.test'],
    ['Status.ACME.Test', 'status.acme.test'],
    ['status.acme.test:8443', 'status.acme.test'],
    ['status.acme.test:', 'status.acme.test'],
    ['status.acme.test.', 'status.acme.test'],
    ['STATUS.acme.test.:443', 'status.acme.test'],
    ['  status.acme.test ', 'status.acme.test'],
    ['status.bücher.test', 'status.xn--bcher-kva.test'],
    ['STATUS.BÜCHER.TEST', 'status.xn--bcher-kva.test'],
    ['status.xn--bcher-kva.test', 'status.xn--bcher-kva.test'],
    ['127.0.0.1:3000', '127.0.0.1'],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeHost(raw)).toBe(expected);
  });

  it.each(['', ':80', '.', '[::1]:3000', '[::1]', 'a b.test', 'one:two:three'])('%j names no host', (raw) => {
    expect(normalizeHost(raw)).toBeNull();
  });

  it('takes the host of a base URL', () => {
    expect(hostOfUrl('https://Status.Example.com:8443/base')).toBe('status.example.com');
    expect(hostOfUrl('http://localhost:3000')).toBe('localhost');
  });
});

describe('pageSuffixOf', () => {
  it.each([
    ['/', ''],
    ['/feed.atom', '/feed.atom'],
    ['/feed.rss', '/feed.rss'],
    ['/api/v2/summary.json', '/api/v2/summary.json'],
    ['/api/v2/incidents/unresolved.json', '/api/v2/incidents/unresolved.json'],
  ])('%j is served as /s/{slug}%s', (path, suffix) => {
    expect(pageSuffixOf(path)).toBe(suffix);
  });

  it.each([
    '/api/status/acme/charts',
    '/api/embed/status',
    '/badge/acme.svg',
    '/static/embed/v1/status.js',
    '/s/acme',
    '/healthz',
    '/feed.xml',
    '/api/v2/summary',
    '/api/v2/../x.json',
  ])('%j is left to the normal routes', (path) => {
    expect(pageSuffixOf(path)).toBeNull();
  });
});
