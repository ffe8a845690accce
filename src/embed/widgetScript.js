// Status widget v1, served at /static/embed/v1/status.js. Plain ES2017, no build step: the server
// only puts the messages of every language in place of the marker below (src/embed/widgetScript.ts).
// Every error is caught: it must never break, nor leak globals into, the host page.
(() => {
  'use strict';
  const BOUND = 'data-status-widget-bound';
  const GREY = '#9f9f9f';
  // { "<locale>": { "<key>": "<text>" } }, from the catalogues (projections/locale)
  const MESSAGES = /*MESSAGES*/ null;
  const STATES = {
    operational: ['status.operational', '#4c1'],
    degraded_performance: ['status.degraded_performance', '#dfb317'],
    partial_outage: ['status.partial_outage', '#fe7d37'],
    major_outage: ['status.major_outage', '#e05d44'],
    under_maintenance: ['status.under_maintenance', '#007ec6'],
  };
  // data-lang: one of the supported tags, as the snippets write it; anything else is English
  let lang = 'en';
  const say = (key, params) =>
    String(MESSAGES[lang][key]).replace(/\{(\w+)\}/g, (m, name) =>
      params && name in params ? params[name] : m,
    );
  const percent = (v) =>
    new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 3 }).format(v / 100);
  const CSS =
    '.spw-card{all:initial;display:inline-block;min-width:220px;padding:10px 12px;border:1px solid #ddd;' +
    'border-radius:8px;background:#fff;color:#222;font:14px/1.4 system-ui,sans-serif}' +
    '.spw-card[data-theme=dark]{background:#161b22;color:#eee;border-color:#333}' +
    '.spw-status{display:flex;align-items:center;gap:8px;color:inherit;text-decoration:none;font-weight:600}' +
    '.spw-dot{width:10px;height:10px;border-radius:50%}.spw-incidents{margin:8px 0 0;padding-left:16px}' +
    '.spw-meta{display:block;opacity:.75;font-size:12px}' +
    '.spw-rtm{display:block;width:100%;height:28px;margin-top:8px;fill:none;stroke:#0969da}' +
    '.spw-upd{display:flex;gap:2px;height:16px;margin-top:6px}.spw-bar{flex:1}';
  const doc = window.document;

  const el = (tag, cls, text) => {
    const node = doc.createElement(tag);
    node.className = cls;
    if (text != null) node.textContent = String(text);
    return node;
  };

  const svgEl = (tag, attrs) => {
    const node = doc.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const name in attrs) node.setAttribute(name, attrs[name]);
    return node;
  };

  const findScript = () => {
    const current = doc.currentScript;
    if (current && !current.hasAttribute(BOUND)) return current;
    const all = doc.querySelectorAll('script[src*="/static/embed/v1/status.js"]');
    for (let i = all.length - 1; i >= 0; i--) if (!all[i].hasAttribute(BOUND)) return all[i];
    return null;
  };

  const header = (label, colour, pageUrl) => {
    const href = /^https?:\/\//i.test(pageUrl) ? pageUrl : null; // no javascript: links
    const head = el(href ? 'a' : 'span', 'spw-status');
    if (href) {
      head.setAttribute('href', href);
      head.setAttribute('target', '_blank');
      head.setAttribute('rel', 'noopener');
    }
    // via CSSOM, which a strict style-src CSP allows
    head.appendChild(el('span', 'spw-dot')).style.background = colour;
    head.appendChild(el('span', 'spw-label', label));
    return head;
  };

  const incidentList = (incidents) => {
    const list = el('ul', 'spw-incidents');
    incidents.forEach((incident) => {
      const { title, state, component } = incident || {};
      const item = list.appendChild(el('li', 'spw-incident'));
      item.appendChild(el('span', 'spw-title', title));
      const meta = item.appendChild(el('span', 'spw-meta'));
      meta.appendChild(el('span', 'spw-state', state));
      if (component) meta.appendChild(el('span', 'spw-component', ' \u00b7 ' + component));
    });
    return list;
  };

  const sparkline = (values) => {
    const nums = values.map((v) => (isFinite(v) ? Number(v) : 0));
    const min = Math.min.apply(null, nums);
    const max = Math.max.apply(null, nums);
    const step = nums.length > 1 ? 200 / (nums.length - 1) : 0;
    const points = nums.map((v, i) => {
      const y = max === min ? 14 : 26 - ((v - min) / (max - min)) * 24;
      return (i * step).toFixed(1) + ',' + y.toFixed(1);
    });
    const label = say('widget.responseTime', { min: min, max: max });
    const svg = svgEl('svg', { class: 'spw-rtm', viewBox: '0 0 200 28', role: 'img', 'aria-label': label });
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.appendChild(svgEl('polyline', { points: points.join(' ') }));
    return svg;
  };

  const uptimeBars = (values) => {
    const row = el('div', 'spw-upd');
    values.forEach((v) => {
      const ok = typeof v === 'number' && isFinite(v);
      const bar = row.appendChild(el('span', 'spw-bar'));
      bar.setAttribute('title', ok ? say('widget.uptime', { percent: percent(v) }) : say('widget.noData'));
      bar.style.background = !ok ? GREY : v >= 99.9 ? '#4c1' : v >= 99 ? '#dfb317' : '#e05d44';
    });
    return row;
  };

  const accept = (data) => {
    if (!data || !Object.prototype.hasOwnProperty.call(STATES, data.overall)) throw new Error('bad data');
    return data;
  };

  const fetchStatus = (url) => {
    const init = { mode: 'cors', credentials: 'omit' };
    // a hung request must not stall the refresh loop
    if (window.AbortSignal && AbortSignal.timeout) init.signal = AbortSignal.timeout(15000);
    return Promise.resolve()
      .then(() => window.fetch(url, init))
      .then((res) => {
        if (!res.ok) throw new Error('HTTP ' + res.status);
        return res.json();
      })
      .then(accept);
  };

  const start = () => {
    const script = findScript();
    if (!script || !script.parentNode) return;
    script.setAttribute(BOUND, '1');
    const attr = (name) => (script.getAttribute(name) || '').trim();
    const int = (name, max) => {
      const n = Number(attr(name));
      return /^\d+$/.test(attr(name)) && n >= 1 && n <= max ? n : 0;
    };
    const theme = (attr('data-theme').match(/^(light|dark)$/i) || ['auto'])[0].toLowerCase();
    const inc = /^(true|1)$/i.test(attr('data-show-incidents'));
    if (Object.prototype.hasOwnProperty.call(MESSAGES, attr('data-lang'))) lang = attr('data-lang');

    const container = el('div', 'spw-widget');
    container.setAttribute('lang', lang);
    script.parentNode.insertBefore(container, script.nextSibling);
    // a shadow root keeps the host page's CSS out; plain DOM in old browsers
    const root = container.attachShadow ? container.attachShadow({ mode: 'open' }) : container;
    root.appendChild(el('style', '', CSS));
    let card = null;
    const show = (status, parts) => {
      // resolved per render, so auto follows the OS setting
      const dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
      const resolved = theme === 'auto' ? (dark ? 'dark' : 'light') : theme;
      const next = el('div', 'spw-card');
      next.setAttribute('data-status', status);
      next.setAttribute('data-theme', resolved);
      container.setAttribute('data-theme', resolved);
      parts.forEach((part) => next.appendChild(part));
      if (card) root.replaceChild(next, card);
      else root.appendChild(next);
      card = next;
    };
    const plain = (status, label) => show(status, [header(label, GREY, null)]);
    const render = (data) => {
      const state = STATES[data.overall];
      const parts = [header(say(state[0]), state[1], data.page_url)];
      const has = (list) => Array.isArray(list) && list.length > 0;
      if (inc && has(data.incidents)) parts.push(incidentList(data.incidents));
      if (has(data.rtm)) parts.push(sparkline(data.rtm));
      if (has(data.upd)) parts.push(uptimeBars(data.upd));
      show(data.overall, parts);
    };

    const src = String(script.src);
    if (!attr('data-slug') || !/^https?:\/\//i.test(src)) return plain('unknown', say('widget.unknown'));
    const query = ['slug=' + encodeURIComponent(attr('data-slug')), inc && 'inc=1'];
    if (int('data-rtm', 240)) query.push('rtm=' + int('data-rtm', 240)); // invalid values are ignored
    if (int('data-upd', 30)) query.push('upd=' + int('data-upd', 30));
    const api = new URL(src).origin + '/api/embed/';
    const params = query.filter(Boolean).join('&');
    plain('loading', say('widget.loading'));
    const removed = () => !doc.documentElement.contains(container);

    let polls = 0; // the current polling loop
    const tick = (run) => {
      if (removed() || run !== polls) return; // stop polling
      // 45 s plus jitter, so the embeds of one page don't poll in lockstep
      const next = () => window.setTimeout(() => tick(run), 45000 + Math.floor(Math.random() * 10000));
      fetchStatus(api + 'status?' + params)
        .then(render)
        .catch(() => plain('unknown', say('widget.unknown')))
        .then(next, next);
    };

    // Live updates over one EventSource. Anything wrong with it (no EventSource, a CSP, an HTTP
    // error such as 429, a proxy that holds it back) falls back to polling; the stream is tried
    // again after 1-2 min, then 2-4 ... up to 32-64 min (polls += 1 stops polling).
    let giveUps = 0;
    const poll = () => tick((polls += 1));
    const retryLater = () => {
      const wait = 60000 * Math.pow(2, Math.min(giveUps++, 5));
      window.setTimeout(() => removed() || ((polls += 1), stream() || poll()), wait * (1 + Math.random()));
    };
    const stream = () => {
      let source;
      try {
        source = new window.EventSource(api + 'stream?' + params);
      } catch (e) {
        return false;
      }
      let open = true;
      let received = false;
      const stop = () => {
        open = false;
        source.close();
      };
      const fallback = () => {
        if (!open) return;
        stop();
        poll();
        retryLater();
      };
      window.setTimeout(() => received || fallback(), 20000);
      const watch = () => open && (removed() ? stop() : window.setTimeout(watch, 60000));
      window.setTimeout(watch, 60000);
      source.addEventListener('status', (event) => {
        received = true;
        giveUps = 0;
        if (removed()) return stop();
        try {
          render(accept(JSON.parse(event.data)));
        } catch (e) {
          plain('unknown', say('widget.unknown'));
        }
      });
      // CLOSED (2): given up (an error answer, a block); else it reconnects with Last-Event-ID
      source.onerror = () => source.readyState === 2 && fallback();
      return true;
    };

    const live = typeof window.EventSource === 'function' && !/^(false|0)$/i.test(attr('data-live'));
    if (!live || !stream()) poll();
  };

  try {
    start();
  } catch (e) {
    // never throw into the host page
  }
})();
