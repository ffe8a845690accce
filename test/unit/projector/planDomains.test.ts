// Planning custom-domain claims: a page whose settings the batch touches gets its claim as the
// batch leaves it, stamped with the position of its latest settings event.
import { describe, expect, it } from 'vitest';
import { anEvent, aPage, TAG, when, writesTo } from './given.ts';

const KEY = `${TAG}:domains`;
const configured = (customDomain: string | null, page = 'acme') =>
  anEvent(
    'page.configured',
    '2026-11-22T10:00:00Z',
    { title: 'Acme', plan: 'growth', custom_domain: customDomain, auth_token_hash: null, blocked: false },
    page,
  );
const claim = (slug: string, domain: string, since: string) => ({
  op: 'hset',
  key: KEY,
  fields: [[slug, JSON.stringify({ domain, since })]],
});

describe('planBatch: custom domains', () => {
  it('given nothing, when a page is configured with a domain, then it claims it in compared form', () => {
    const event = configured('Status.Bücher.TEST');
    const plan = when({ states: { acme: null } }, [event]);
    expect(writesTo(plan.writes, KEY)).toEqual([claim('acme', 'status.xn--bcher-kva.test', event.position)]);
    expect(plan.domainsChanged).toBe(true);
  });

  it('given a page, when it is configured twice, then the later settings and position count', () => {
    const first = configured('status.one.test');
    const second = configured('status.two.test');
    const plan = when({ states: { acme: aPage() } }, [first, second]);
    expect(writesTo(plan.writes, KEY)).toEqual([claim('acme', 'status.two.test', second.position)]);
  });

  it('given a page with a domain, when it is configured without one, then its claim goes', () => {
    const page = { ...aPage(), settings: { ...aPage().settings, customDomain: 'status.acme.test' } };
    const plan = when({ states: { acme: page } }, [configured(null)]);
    expect(writesTo(plan.writes, KEY)).toEqual([{ op: 'hdel', key: KEY, field: 'acme' }]);
  });

  it('given a page with a domain, when it is deleted, then it keeps its claim (it answers as /s/{slug})', () => {
    const page = { ...aPage(), settings: { ...aPage().settings, customDomain: 'status.acme.test' } };
    const deleted = anEvent('page.deleted', '2026-11-22T11:00:00Z');
    const plan = when({ states: { acme: page } }, [deleted]);
    expect(writesTo(plan.writes, KEY)).toEqual([claim('acme', 'status.acme.test', deleted.position)]);
  });

  it('given a page, when only its checks and incidents arrive, then no claim is written', () => {
    const plan = when({ states: { acme: aPage() } }, [
      anEvent('check.recorded', '2026-11-22T10:00:00Z', { monitor_id: 1, status: 'up', response_time_ms: 5 }),
      anEvent('incident.opened', '2026-11-22T10:00:00Z', {
        incident_id: 'i1',
        title: 'Down',
        message: 'Looking',
        components: [],
      }),
    ]);
    expect(writesTo(plan.writes, KEY)).toEqual([]);
    expect(plan.domainsChanged).toBe(false);
  });
});
