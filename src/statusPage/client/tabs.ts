// WAI-ARIA tabs with automatic activation: arrows, Home and End move between tabs and select.
import { h, uid } from './dom.ts';

type TabOption = Readonly<{ value: string; text: string }>;
type Tabs = Readonly<{ el: HTMLElement; panel: HTMLElement; selected: () => string }>;

export const createTabs = (
  label: string,
  options: readonly TabOption[],
  onSelect: (value: string) => void,
): Tabs => {
  const panel = h('div', { class: 'tab-panel', role: 'tabpanel', id: uid('panel'), tabindex: 0 });
  let selected = options[0]?.value ?? '';
  const buttons = options.map((option) =>
    h(
      'button',
      { type: 'button', role: 'tab', id: uid('tab'), 'aria-controls': panel.id, 'data-value': option.value },
      option.text,
    ),
  );
  const select = (index: number, focus: boolean): void => {
    const button = buttons[index];
    if (!button) return;
    for (const other of buttons) {
      other.setAttribute('aria-selected', String(other === button));
      other.tabIndex = other === button ? 0 : -1;
    }
    panel.setAttribute('aria-labelledby', button.id);
    if (focus) button.focus();
    selected = button.dataset['value'] ?? '';
    onSelect(selected);
  };
  const list = h('div', { class: 'tabs', role: 'tablist', 'aria-label': label }, ...buttons);
  list.addEventListener('click', (event) => {
    const index = buttons.indexOf((event.target as Element).closest('button') as HTMLButtonElement);
    if (index >= 0) select(index, false);
  });
  list.addEventListener('keydown', (event) => {
    const current = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const last = buttons.length - 1;
    const moves: Readonly<Record<string, number>> = {
      ArrowRight: current === last ? 0 : current + 1,
      ArrowLeft: current === 0 ? last : current - 1,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next === undefined || current < 0) return;
    event.preventDefault();
    select(next, true);
  });
  // Mark the first tab selected without triggering a load: the owner loads its first view.
  buttons.forEach((button, i) => {
    button.setAttribute('aria-selected', String(i === 0));
    button.tabIndex = i === 0 ? 0 : -1;
  });
  if (buttons[0]) panel.setAttribute('aria-labelledby', buttons[0].id);
  return { el: list, panel, selected: () => selected };
};
