// Black-box tests of the embeddable widget: the served file runs in a happy-dom window with a stub fetch,
// and we assert on the DOM it builds, exactly as a host page would see it.
import { Window } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { widgetScriptBytes, widgetScriptEtag } from '../../src/embed/widgetScript.ts';

const source = widgetScriptBytes.toString('utf8'); // as served: with every language's messages
const scriptSrc = 'https://status.example.test/static/embed/v1/status.js';

type Answer = { status: number; body?: unknown; badJson?: true } | { reject: Error };
type Timer = { run: () => void; ms: number };
type Setup = {
  attrs?: Record<string, string>;
  answer?: Answer;
  prefersDark?: boolean;
  noShadow?: true;
  currentScript?: 'none';
  code?: string;
};

const windows: Window[] = [];
afterEach(async () => {
  await Promise.all(windows.splice(0).map((w) => w.happyDOM.close()));
});

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

const load = async (setup: Setup = {}) => {
  const window = new Window({ url: 'https://customer.example.test/blog/' });
  windows.push(window);
  const document = window.document;
  const script = document.createElement('script');
  script.setAttribute('src', scriptSrc);
  for (const [name, value] of Object.entries(setup.attrs ?? { 'data-slug': 'acme' })) {
    script.setAttribute(name, value);
  }
  document.body.appendChild(script);
  document.body.appendChild(document.createElement('footer'));
  Object.defineProperty(document, 'currentScript', {
    configurable: true,
    get: () => (setup.currentScript === 'none' ? null : script),
  });

  const fetched: { url: string; init: unknown }[] = [];
  const answer = setup.answer ?? { status: 200, body: statusBody() };
  const fakeFetch = (url: string, init: unknown): Promise<unknown> => {
    fetched.push({ url, init });
    if ('reject' in answer) return Promise.reject(answer.reject);
    return Promise.resolve({
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      json: () =>
        answer.badJson ? Promise.reject(new SyntaxError('Unexpected token <')) : Promise.resolve(answer.body),
    });
  };
  const timers: Timer[] = [];
  const fakeSetTimeout = (run: () => void, ms: number): number => timers.push({ run, ms });
  const matchMedia = (query: string) => ({
    matches: setup.prefersDark === true && query === '(prefers-color-scheme: dark)',
    media: query,
  });
  Object.assign(window, { fetch: fakeFetch, setTimeout: fakeSetTimeout, matchMedia });
  if (setup.noShadow) {
    // per element, not on HTMLElement.prototype: happy-dom may share that class between windows
    const createElement = document.createElement.bind(document);
    const withoutShadow = (tag: string) => {
      const element = createElement(tag);
      Object.defineProperty(element, 'attachShadow', { value: undefined });
      return element;
    };
    Object.assign(document, { createElement: withoutShadow });
  }

  const keysBefore = new Set(Object.keys(window));
  window.eval(setup.code ?? source);
  await settle();
  const newKeys = Object.keys(window).filter((key) => !keysBefore.has(key));

  const container = script.nextElementSibling;
  const root = setup.noShadow ? container : container?.shadowRoot;
  const card = () => root?.querySelector('.spw-card') ?? null;
  const refreshTimers = () => timers.filter((t) => t.ms >= 30000);
  return { window, document, script, container, root, card, fetched, refreshTimers, newKeys };
};

function statusBody(overrides: Record<string, unknown> = {}) {
  return {
    page: 'acme',
    page_url: 'https://status.acme.test/',
    overall: 'operational',
    updated: '2025-01-01T00:00:00Z',
    incidents: [],
    dns_only: false,
    ...overrides,
  };
}

describe('widget script', () => {
  it('fetches the embed status from the origin of its own src, with the requested extras', async () => {
    const { fetched } = await load({
      attrs: { 'data-slug': 'acme', 'data-show-incidents': 'true', 'data-rtm': '60', 'data-upd': '7' },
    });
    expect(fetched.map((f) => f.url)).toEqual([
      'https://status.example.test/api/embed/status?slug=acme&inc=1&rtm=60&upd=7',
    ]);
    expect(fetched[0]?.init).toMatchObject({ mode: 'cors', credentials: 'omit' });
  });

  it('ignores invalid attribute values and encodes the slug', async () => {
    const { fetched } = await load({
      attrs: { 'data-slug': 'a&b c', 'data-show-incidents': 'yes', 'data-rtm': '241', 'data-upd': '1.5' },
    });
    expect(fetched.map((f) => f.url)).toEqual([
      'https://status.example.test/api/embed/status?slug=a%26b%20c',
    ]);
    const zeros = await load({
      attrs: { 'data-slug': 'acme', 'data-show-incidents': '1', 'data-rtm': '0', 'data-upd': 'x' },
    });
    expect(zeros.fetched[0]?.url).toBe('https://status.example.test/api/embed/status?slug=acme&inc=1');
  });

  it('inserts a spw-widget container right after the script, rendered in a shadow root', async () => {
    const { script, container, card } = await load();
    expect(container?.tagName).toBe('DIV');
    expect(container?.className).toBe('spw-widget');
    expect(container?.shadowRoot).toBeTruthy();
    expect(script.getAttribute('data-status-widget-bound')).toBe('1');
    expect(card()?.getAttribute('data-status')).toBe('operational');
  });

  it('falls back to plain DOM without attachShadow', async () => {
    const { container } = await load({ noShadow: true });
    expect(container?.shadowRoot).toBeNull();
    expect(container?.querySelector('.spw-label')?.textContent).toBe('Operational');
  });

  it.each([
    ['operational', 'Operational'],
    ['degraded_performance', 'Degraded Performance'],
    ['partial_outage', 'Partial Outage'],
    ['major_outage', 'Major Outage'],
    ['under_maintenance', 'Under Maintenance'],
  ])('shows %s as "%s", linked to the status page in a new tab', async (overall, label) => {
    const { card } = await load({ answer: { status: 200, body: statusBody({ overall }) } });
    expect(card()?.getAttribute('data-status')).toBe(overall);
    expect(card()?.querySelector('.spw-label')?.textContent).toBe(label);
    const link = card()?.querySelector('a.spw-status');
    expect(link?.getAttribute('href')).toBe('https://status.acme.test/');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toBe('noopener');
  });

  it('does not link a page_url that is not http(s)', async () => {
    const { card } = await load({
      answer: { status: 200, body: statusBody({ page_url: 'javascript:alert(1)' }) },
    });
    expect(card()?.querySelector('a')).toBeNull();
    expect(card()?.querySelector('.spw-label')?.textContent).toBe('Operational');
  });

  it.each([
    [{ 'data-theme': 'light' }, false, 'light'],
    [{ 'data-theme': 'dark' }, false, 'dark'],
    [{ 'data-theme': 'auto' }, true, 'dark'],
    [{ 'data-theme': 'auto' }, false, 'light'],
    [{}, true, 'dark'],
    [{ 'data-theme': 'purple' }, false, 'light'],
  ])('theme %o with prefers-dark=%s resolves to %s', async (attrs, prefersDark, theme) => {
    const { container, card } = await load({ attrs: { 'data-slug': 'acme', ...attrs }, prefersDark });
    expect(container?.getAttribute('data-theme')).toBe(theme);
    expect(card()?.getAttribute('data-theme')).toBe(theme);
  });

  it('lists active incidents as text, so a hostile title creates no element', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const incidents = [
      {
        id: 'i1',
        title: hostile,
        state: 'investigating',
        started: '2025-01-01T00:00:00Z',
        component: 'API, Web',
      },
      { id: 'i2', title: 'Slow logins', state: 'monitoring', started: '2025-01-01T00:00:00Z', component: '' },
    ];
    const { document, root, card } = await load({
      attrs: { 'data-slug': 'acme', 'data-show-incidents': 'true' },
      answer: { status: 200, body: statusBody({ overall: 'partial_outage', incidents }) },
    });
    const items = card()?.querySelectorAll('.spw-incident') ?? [];
    expect(items.length).toBe(2);
    expect(items[0]?.querySelector('.spw-title')?.textContent).toBe(hostile);
    expect(items[0]?.querySelector('.spw-state')?.textContent).toBe('investigating');
    expect(items[0]?.querySelector('.spw-component')?.textContent).toContain('API, Web');
    expect(items[1]?.querySelector('.spw-component')).toBeNull();
    expect(root?.querySelectorAll('img').length).toBe(0);
    expect(document.querySelectorAll('img').length).toBe(0);
  });

  it('does not list incidents it did not ask for', async () => {
    const incidents = [{ id: 'i1', title: 'Down', state: 'identified', started: '', component: '' }];
    const { card } = await load({ answer: { status: 200, body: statusBody({ incidents }) } });
    expect(card()?.querySelector('.spw-incidents')).toBeNull();
  });

  it('draws the response times as a polyline with one point per value', async () => {
    const rtm = Array.from({ length: 60 }, (_, i) => 100 + (i % 7) * 10);
    const { card } = await load({
      attrs: { 'data-slug': 'acme', 'data-rtm': '60' },
      answer: { status: 200, body: statusBody({ rtm }) },
    });
    const points = card()?.querySelector('svg.spw-rtm polyline')?.getAttribute('points') ?? '';
    expect(points.split(' ')).toHaveLength(60);
    expect(points.split(' ').every((p) => /^\d+(\.\d)?,\d+(\.\d)?$/.test(p))).toBe(true);
  });

  it('draws one uptime bar per day with the percentage as title', async () => {
    const upd = [100, 99.95, 99.5, 97.25, 100, 100, 99.999];
    const { card } = await load({
      attrs: { 'data-slug': 'acme', 'data-upd': '7' },
      answer: { status: 200, body: statusBody({ upd }) },
    });
    const bars = card()?.querySelectorAll('.spw-upd .spw-bar') ?? [];
    expect(bars.length).toBe(7);
    expect(bars[2]?.getAttribute('title')).toBe('99.5% uptime');
  });

  it.each<[string, Answer]>([
    ['a 403 answer', { status: 403, body: { error: 'embeds not available in your plan' } }],
    ['a 404 answer', { status: 404, body: { error: 'not found' } }],
    ['a network error', { reject: new TypeError('Failed to fetch') }],
    ['invalid JSON', { status: 200, badJson: true }],
    ['an unknown overall value', { status: 200, body: statusBody({ overall: 'constructor' }) }],
  ])('shows a grey "Status unknown" on %s', async (_name, answer) => {
    const { card, refreshTimers } = await load({ answer });
    expect(card()?.getAttribute('data-status')).toBe('unknown');
    expect(card()?.querySelector('.spw-label')?.textContent).toBe('Status unknown');
    expect(card()?.querySelector('a')).toBeNull();
    expect(refreshTimers()).toHaveLength(1); // keeps trying
  });

  it('shows "Status unknown" without fetching when data-slug is missing', async () => {
    const { fetched, card } = await load({ attrs: {} });
    expect(fetched).toHaveLength(0);
    expect(card()?.getAttribute('data-status')).toBe('unknown');
  });

  it('finds its script element without document.currentScript', async () => {
    const { fetched, container } = await load({ currentScript: 'none' });
    expect(fetched).toHaveLength(1);
    expect(container?.className).toBe('spw-widget');
  });

  it('refreshes every 45-55 s and stops once the widget is removed', async () => {
    const { fetched, refreshTimers, container, card } = await load();
    const [first] = refreshTimers();
    expect(first?.ms).toBeGreaterThanOrEqual(45000);
    expect(first?.ms).toBeLessThan(55000);

    first?.run();
    await settle();
    expect(fetched).toHaveLength(2);
    expect(card()?.getAttribute('data-status')).toBe('operational');
    expect(refreshTimers()).toHaveLength(2);

    container?.remove();
    refreshTimers()[1]?.run();
    await settle();
    expect(fetched).toHaveLength(2);
    expect(refreshTimers()).toHaveLength(2);
  });

  it('adds no global to the window', async () => {
    const baseline = await load({ code: '' });
    const run = await load();
    expect(run.fetched).toHaveLength(1);
    expect(run.newKeys).toEqual(baseline.newKeys);
  });

  it('never throws into the host page, even without fetch', async () => {
    const window = new Window({ url: 'https://customer.example.test/' });
    windows.push(window);
    const script = window.document.createElement('script');
    script.setAttribute('src', scriptSrc);
    script.setAttribute('data-slug', 'acme');
    window.document.body.appendChild(script);
    Object.defineProperty(window.document, 'currentScript', { configurable: true, get: () => script });
    Object.assign(window, { fetch: undefined, setTimeout: () => 0 });
    expect(() => window.eval(source)).not.toThrow();
    await settle();
    const card = script.nextElementSibling?.shadowRoot?.querySelector('.spw-card');
    expect(card?.getAttribute('data-status')).toBe('unknown');
  });
});

describe('the widget in the languages of the catalogue', () => {
  it.each([
    ['de', 'Betriebsbereit', '99,5 % Verfügbarkeit'],
    ['ja', '正常', '稼働率 99.5%'],
    ['pt-BR', 'Operacional', '99,5% de disponibilidade'],
    ['xx', 'Operational', '99.5% uptime'],
  ])('data-lang="%s" shows "%s"', async (lang, label, uptime) => {
    const body = { ...statusBody(), upd: [99.5] };
    const { script } = await load({
      attrs: { 'data-slug': 'acme', 'data-lang': lang },
      answer: { status: 200, body },
    });
    const container = script.nextElementSibling;
    expect(container?.getAttribute('lang')).toBe(lang === 'xx' ? 'en' : lang);
    const card = container?.shadowRoot?.querySelector('.spw-card');
    expect(card?.querySelector('.spw-label')?.textContent).toBe(label);
    expect(
      card
        ?.querySelector('.spw-bar')
        ?.getAttribute('title')
        ?.replace(/[\u00a0\u202f]/g, ' '),
    ).toBe(uptime);
  });
});

describe('widgetScript module', () => {
  // 8 KB for drawing and polling, up to 2 KB more for the live stream and its fallbacks, and the
  // messages of every language (about 3 KB).
  it('serves the file with every language in place of its marker, with a strong ETag, under 14 KB', () => {
    expect(source).not.toContain('/*MESSAGES*/');
    expect(JSON.parse(/const MESSAGES = (\{.*?\});/.exec(source)?.[1] ?? '{}')).toHaveProperty(
      ['fr', 'widget.unknown'],
      'État inconnu',
    );
    expect(widgetScriptBytes.length).toBeLessThan(14_000);
    expect(widgetScriptEtag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });
});
