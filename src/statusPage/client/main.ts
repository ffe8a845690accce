// The status page script, started by its locale's entry (entries/<locale>.ts): find the page, ask
// for a token when it is private, then draw every section from the public API and keep them fresh
// by polling (charts every 30 s, within the API's recommended 15–60 s; lists every minute; 90-day
// uptime every 5 min).
import type { Locale } from '../../../projections/locale/locales.ts';
import type { Catalogue } from '../../../projections/locale/messages/en.ts';
import { ApiFailure, createApi, quietly } from './api.ts';
import { drawAuthForm } from './authForm.ts';
import { h } from './dom.ts';
import { drawFooter } from './footer.ts';
import { timeZone } from './format.ts';
import { createHistory } from './history.ts';
import { t, useLocale } from './i18n.ts';
import { suggestLanguage } from './languageSuggestion.ts';
import { createMaintenanceList } from './maintenanceList.ts';
import { createMonitorList } from './monitorList.ts';
import { every, type Poller } from './poll.ts';
import { serverClock } from './serverClock.ts';
import { drawSlaLinks } from './slaLinks.ts';
import { createSummary } from './summary.ts';
import { createTokenStore } from './token.ts';
import type { Charts } from './types.ts';

const run = (root: HTMLElement, slug: string): void => {
  const tokens = createTokenStore(slug);
  const connection = h('p', { class: 'notice warn', role: 'status', hidden: true });
  let pollers: Poller[] = [];
  let locked = false;
  let redraw = (): void => undefined; // the sections of the current start, drawn again
  timeZone.onChange(() => {
    redraw();
  });

  const show = (...nodes: HTMLElement[]): void => {
    root.removeAttribute('aria-busy');
    root.replaceChildren(...nodes);
  };
  const stop = (): void => {
    for (const poller of pollers) poller.stop();
    pollers = [];
  };
  const lock = (rejected: boolean): void => {
    stop();
    locked = true;
    tokens.clear();
    show(
      drawAuthForm(rejected, (token) => {
        tokens.set(token);
        locked = false;
        void start();
      }),
    );
  };
  const gone = (failure: ApiFailure): void => {
    stop();
    const text = failure.problem === 'blocked' ? t('gone.blocked') : t('gone.missing');
    show(h('section', { class: 'card' }, h('h2', {}, t('gone.title')), h('p', {}, text)));
  };
  const onFailure = (failure: ApiFailure): void => {
    if (failure.problem === 'locked') {
      if (!locked) lock(tokens.get() !== null);
    } else if (failure.problem === 'missing' || failure.problem === 'blocked') {
      gone(failure);
    } else {
      connection.textContent =
        failure.problem === 'offline'
          ? t('connection.offline')
          : t('connection.error', { error: failure.message });
      connection.hidden = false;
    }
  };
  const api = createApi(tokens, onFailure);
  const chartsPath = `/api/status/${slug}/charts`;

  const start = async (): Promise<void> => {
    root.setAttribute('aria-busy', 'true');
    const charts = await api<Charts>(chartsPath).catch((error: unknown) => {
      // Not reachable yet (or read models rebuilding): try again shortly.
      if (error instanceof ApiFailure && (error.problem === 'offline' || error.problem === 'unavailable'))
        window.setTimeout(() => void start(), 10_000);
      return null;
    });
    if (charts === null) return;
    const summary = createSummary(api, slug);
    const monitors = createMonitorList(api, slug);
    const history = createHistory(api, slug);
    const maintenance = createMaintenanceList(api, slug);
    const apply = (data: Charts): void => {
      serverClock.sync(data.timestamp);
      connection.hidden = true;
      summary.setOverall(data.overall, serverClock.now());
      monitors.update(data.monitors);
    };
    show(connection, summary.el, monitors.el, history.el, maintenance.el);
    apply(charts);
    const lists = async (): Promise<void> => {
      await Promise.all([summary.refresh(), history.refresh(), maintenance.refresh()]);
    };
    quietly(lists());
    quietly(
      drawSlaLinks(api, slug).then((links) => {
        document.querySelector('#foot .sla-links')?.remove();
        document.getElementById('foot')?.append(links);
      }),
    );
    pollers = [
      every(30_000, async () => apply(await api<Charts>(chartsPath))),
      every(60_000, lists),
      every(60_000, monitors.refreshMinutes),
      every(300_000, monitors.refreshUptime),
    ];
    redraw = () => {
      monitors.render();
      quietly(lists());
    };
  };

  document.getElementById('foot')?.replaceChildren(drawFooter(slug));
  suggestLanguage();
  if (root.dataset['private'] === 'true' && tokens.get() === null) lock(false);
  else void start();
};

export const startPage = (locale: Locale, catalogue: Catalogue): void => {
  useLocale(locale, catalogue);
  const root = document.getElementById('main');
  const slug = root?.dataset['slug'];
  if (root && slug) run(root, slug);
};
