// The widget's live mode: with EventSource it follows /api/embed/stream, and it falls back to
// polling /api/embed/status when the stream cannot be used. The served file runs in a happy-dom
// window with a fake EventSource, fetch and timers.
import { widgetScriptBytes } from '../../src/embed/widgetScript.ts';
import { Window } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';

const source = widgetScriptBytes.toString('utf8'); // as served: with every language's messages
const ORIGIN = 'https://status.example.test';

class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly url: string;
  readyState = 0;
  onerror: (() => void) | null = null;
  private readonly listeners: ((event: { data: string }) => void)[] = [];
  constructor(url: string) {
    this.url = url;
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: { data: string }) => void) {
    if (type === 'status') this.listeners.push(listener);
  }
  close() {
    this.readyState = 2;
  }
  emit(data: unknown) {
    for (const listener of this.listeners)
      listener({ data: typeof data === 'string' ? data : JSON.stringify(data) });
  }
  fail(readyState: 0 | 2) {
    this.readyState = readyState;
    this.onerror?.();
  }
}

const windows: Window[] = [];
afterEach(async () => {
  FakeEventSource.opened = [];
  await Promise.all(windows.splice(0).map((w) => w.happyDOM.close()));
});
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};
const body = (overall: string) => ({ page: 'acme', page_url: 'https://s.test/', overall, incidents: [] });

const load = async (attrs: Record<string, string> = {}, withEventSource = true) => {
  const window = new Window({ url: 'https://customer.example.test/' });
  windows.push(window);
  const document = window.document;
  const script = document.createElement('script');
  script.setAttribute('src', `${ORIGIN}/static/embed/v1/status.js`);
  for (const [name, value] of Object.entries({ 'data-slug': 'acme', ...attrs }))
    script.setAttribute(name, value);
  document.body.appendChild(script);
  Object.defineProperty(document, 'currentScript', { configurable: true, get: () => script });
  const fetched: string[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  Object.assign(window, {
    fetch: (url: string) => {
      fetched.push(url);
      return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(body('major_outage')) });
    },
    setTimeout: (run: () => void, ms: number) => timers.push({ run, ms }),
    ...(withEventSource ? { EventSource: FakeEventSource } : {}),
  });
  window.eval(source);
  await settle();
  const status = () =>
    script.nextElementSibling?.shadowRoot?.querySelector('.spw-card')?.getAttribute('data-status');
  return { window, script, fetched, timers, status };
};

describe('widget live updates', () => {
  it('follows the stream with the same parameters, and never polls while it works', async () => {
    const widget = await load({ 'data-show-incidents': 'true', 'data-rtm': '60', 'data-upd': '7' });
    expect(FakeEventSource.opened.map((s) => s.url)).toEqual([
      `${ORIGIN}/api/embed/stream?slug=acme&inc=1&rtm=60&upd=7`,
    ]);
    expect(widget.status()).toBe('loading');
    FakeEventSource.opened[0]!.emit(body('operational'));
    expect(widget.status()).toBe('operational');
    FakeEventSource.opened[0]!.emit(body('partial_outage'));
    expect(widget.status()).toBe('partial_outage');
    FakeEventSource.opened[0]!.fail(0); // a dropped connection: EventSource reconnects by itself
    widget.timers.find((t) => t.ms === 20000)!.run(); // the no-data guard, after data came
    await settle();
    expect([widget.fetched, FakeEventSource.opened[0]!.readyState]).toEqual([[], 0]);
  });

  it('shows "unknown" for a bad event and keeps listening', async () => {
    const widget = await load();
    FakeEventSource.opened[0]!.emit('{"overall":"<script>"}');
    expect(widget.status()).toBe('unknown');
    FakeEventSource.opened[0]!.emit('not json');
    expect(widget.status()).toBe('unknown');
    FakeEventSource.opened[0]!.emit(body('operational'));
    expect(widget.status()).toBe('operational');
  });

  it('falls back to polling when the browser gives the stream up (an error answer, a CSP)', async () => {
    const widget = await load();
    FakeEventSource.opened[0]!.fail(2);
    await settle();
    expect(widget.fetched).toEqual([`${ORIGIN}/api/embed/status?slug=acme`]);
    expect(widget.status()).toBe('major_outage');
    expect(widget.timers.filter((t) => t.ms >= 45000 && t.ms < 55000)).toHaveLength(1); // the next poll
  });

  it('backs off after a refused stream (429, 503): polls, then tries the stream again ever later', async () => {
    const widget = await load();
    const added = (from: number) => widget.timers.slice(from);
    let mark = widget.timers.length;
    FakeEventSource.opened[0]!.fail(2); // the browser gives up on an error answer
    await settle();
    expect(widget.fetched).toEqual([`${ORIGIN}/api/embed/status?slug=acme`]);
    const firstRetry = added(mark).find((t) => t.ms >= 60000 && t.ms < 120000)!;
    const poll = added(mark).find((t) => t.ms >= 45000 && t.ms < 55000)!;
    expect([firstRetry, poll].every(Boolean)).toBe(true);
    mark = widget.timers.length;
    firstRetry.run(); // the stream again; polling stops
    expect(FakeEventSource.opened.map((s) => s.url)).toEqual(
      Array(2).fill(`${ORIGIN}/api/embed/stream?slug=acme`),
    );
    poll.run();
    await settle();
    expect(widget.fetched).toHaveLength(1);
    FakeEventSource.opened[1]!.fail(2); // refused again: the next try comes later still
    await settle();
    expect(widget.fetched).toHaveLength(2);
    expect(added(mark).filter((t) => t.ms >= 120000 && t.ms < 240000)).toHaveLength(1);
  });

  it('falls back to polling when nothing arrives within 20 s (a buffering proxy)', async () => {
    const widget = await load();
    widget.timers.find((t) => t.ms === 20000)!.run();
    await settle();
    expect([FakeEventSource.opened[0]!.readyState, widget.fetched]).toEqual([
      2,
      [`${ORIGIN}/api/embed/status?slug=acme`],
    ]);
  });

  it('polls without EventSource or with data-live="false"', async () => {
    for (const widget of [await load({}, false), await load({ 'data-live': 'false' })]) {
      expect(widget.fetched).toEqual([`${ORIGIN}/api/embed/status?slug=acme`]);
      expect(widget.status()).toBe('major_outage');
    }
    expect(FakeEventSource.opened).toEqual([]);
  });

  it('closes the stream once the widget is removed from the page', async () => {
    const widget = await load();
    widget.script.nextElementSibling.remove();
    widget.timers.find((t) => t.ms === 60000)!.run();
    expect(FakeEventSource.opened[0]!.readyState).toBe(2);
  });
});
