// One bar per day, coloured by uptime. The strip is a single keyboard stop (a slider over the
// days: arrows, Home, End), so 90 bars per monitor never flood the tab order; hover and focus
// show the same tooltip, and screen readers hear the day through aria-valuetext.
import { h } from './dom.ts';
import { day, duration, percent } from './format.ts';
import { t } from './i18n.ts';
import { uptimeTone } from './labels.ts';

type BarDay = Readonly<{ date: string; uptime: number; downtime: number }>;
type UptimeBars = Readonly<{ el: HTMLElement; update: (days: readonly BarDay[]) => void }>;

const describe = (bar: BarDay): string =>
  t('bars.day', {
    day: day(bar.date),
    percent: percent(bar.uptime),
    downtime: bar.downtime > 0 ? t('bars.down', { duration: duration(bar.downtime) }) : t('bars.noDowntime'),
  });

const KEYS: Readonly<Record<string, (index: number, last: number) => number>> = {
  ArrowLeft: (i) => i - 1,
  ArrowDown: (i) => i - 1,
  ArrowRight: (i) => i + 1,
  ArrowUp: (i) => i + 1,
  Home: () => 0,
  End: (_i, last) => last,
};

/** `label` names the strip, e.g. "API, daily uptime, last 90 days". Days oldest first. */
export const createUptimeBars = (label: string): UptimeBars => {
  const strip = h('div', { class: 'bar-strip', 'aria-hidden': 'true' });
  const tip = h('div', { class: 'tip', hidden: true });
  const el = h('div', { class: 'bars', role: 'slider', tabindex: 0, 'aria-label': label }, strip, tip);
  let days: readonly BarDay[] = [];
  let active = -1;

  const show = (index: number, visible: boolean): void => {
    const bar = days[index];
    strip.querySelector('.on')?.classList.remove('on');
    if (!bar) {
      tip.hidden = true;
      return;
    }
    active = index;
    el.setAttribute('aria-valuenow', String(index + 1));
    el.setAttribute('aria-valuetext', describe(bar));
    if (visible) strip.children[index]?.classList.add('on');
    tip.hidden = !visible;
    tip.textContent = describe(bar);
    // Keep the tooltip inside the strip: anchor it to the bar, clamped at both ends.
    const x = ((index + 0.5) / days.length) * 100;
    tip.style.left = `clamp(0px, calc(${x}% - 7.5rem), calc(100% - 15rem))`;
  };

  const indexAt = (clientX: number): number => {
    const box = strip.getBoundingClientRect();
    return Math.min(
      days.length - 1,
      Math.max(0, Math.floor(((clientX - box.left) / box.width) * days.length)),
    );
  };

  el.addEventListener('pointermove', (event) => show(indexAt(event.clientX), true));
  el.addEventListener('pointerleave', () => show(active, el === document.activeElement));
  el.addEventListener('focus', () => show(active < 0 ? days.length - 1 : active, true));
  el.addEventListener('blur', () => show(active, false));
  el.addEventListener('keydown', (event) => {
    const move = KEYS[event.key];
    if (!move || days.length === 0) return;
    event.preventDefault();
    show(Math.min(days.length - 1, Math.max(0, move(active, days.length - 1))), true);
  });

  const update = (next: readonly BarDay[]): void => {
    days = next;
    strip.classList.toggle('dense', next.length > 120);
    strip.replaceChildren(...next.map((bar) => h('span', { class: `bar tone-${uptimeTone(bar.uptime)}` })));
    el.setAttribute('aria-valuemin', '1');
    el.setAttribute('aria-valuemax', String(Math.max(1, next.length)));
    show(active >= 0 && active < next.length ? active : next.length - 1, el === document.activeElement);
  };
  return { el, update };
};
