import { describe, expect, it } from 'vitest';
import { edgeHeaders, edgeSeconds } from '../../src/edge/edgeHeaders.ts';
import { checksKey, pageKey, pageKeys } from '../../src/edge/surrogateKeys.ts';
import { purgeKeysOf } from '../../src/projector/renderPurgeKeys.ts';
import type { PageRender } from '../../src/projector/renderPages.ts';

const at = (iso: string) => Date.parse(iso);

describe('edge lifetimes', () => {
  it('end a few seconds after the next minute for what the clock changes every minute', () => {
    expect(edgeSeconds('minute', at('2026-11-22T12:00:00.000Z'))).toBe(66);
    expect(edgeSeconds('minute', at('2026-11-22T12:00:59.500Z'))).toBe(7);
    expect(edgeSeconds('minute', at('2026-11-22T12:00:30.200Z'))).toBe(36);
  });

  it('last a day for what only events change', () => {
    expect(edgeSeconds('day', at('2026-11-22T12:00:30Z'))).toBe(86_400);
  });

  it('give the keys to Fastly, Varnish and Cloudflare, and the same directives to both lifetime headers', () => {
    expect(
      edgeHeaders(
        { keys: ['page-acme', 'page-acme.checks'], lifetime: 'minute' },
        at('2026-11-22T12:00:50Z'),
        true,
      ),
    ).toEqual({
      'Surrogate-Key': 'page-acme page-acme.checks',
      'Cache-Tag': 'page-acme,page-acme.checks',
      'Surrogate-Control': 'max-age=16, stale-while-revalidate=30, stale-if-error=86400',
      'CDN-Cache-Control': 'max-age=16, stale-while-revalidate=30, stale-if-error=86400',
    });
  });

  it('keep an answer that may predate a change only until the next request refetches it', () => {
    expect(edgeHeaders({ keys: ['page-acme'], lifetime: 'day' }, 0, false)['Surrogate-Control']).toBe(
      'max-age=0, stale-while-revalidate=30, stale-if-error=86400',
    );
  });
});

describe('surrogate keys', () => {
  it("never give one page a key that is another page's key or finer key", () => {
    const slugs = ['a', 'a-checks', 'checks', 'a-checks-checks', 'page-a', 'static', '0', 'a-b'];
    const owners = new Map<string, string>();
    for (const slug of slugs)
      for (const key of pageKeys(slug, true)) {
        expect({ key, owner: owners.get(key) ?? slug }).toEqual({ key, owner: slug });
        owners.set(key, slug);
      }
    expect(checksKey('a')).not.toBe(pageKey('a-checks'));
    expect([...owners.keys()]).not.toContain('static');
  });
});

describe('the keys a render purges', () => {
  const render = (slug: string, ...sets: string[]): PageRender =>
    ({
      slug,
      scope: { incidents: false, maintenances: false, availability: 'all' },
      clear: sets.map((s) => [s, slug]),
    }) as PageRender;

  it('purge the checks key for checks, the page key for incidents and maintenances, hard for page events', () => {
    expect(
      purgeKeysOf([
        render('checks', 'dirty'),
        render('status', 'dirty', 'dirtyAvailability'),
        render('incident', 'dirty', 'dirtyIncidents'),
        render('incident-doc', 'dirty', 'dirtyIncidentDocs'),
        render('maintenance', 'dirty', 'dirtyMaintenances'),
        render('settings', 'dirty', 'dirtyIncidents', 'dirtyMaintenances'),
        render('clock'),
      ]),
    ).toEqual({
      soft: [
        'page-checks.checks',
        'page-status.checks',
        'page-incident',
        'page-incident-doc',
        'page-maintenance',
      ],
      hard: ['page-settings'],
    });
  });
});
