// A page as the notifier sees it: its incidents and maintenances folded from the log by the same
// evolve the read models use, plus the notification settings of its latest page.configured.
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { ownedPut } from '../pageState/foldPageState.ts';
import { evolvePageState, evolvePageStateWith, type PageEvolve } from '../pageState/pageState.ts';
import type { PageState } from '../types.ts';
import { DEFAULT_NOTIFY_SETTINGS, type NotifyPageSettings } from './planTypes.ts';

export type NotifyPage = Readonly<{ state: PageState | null; settings: NotifyPageSettings }>;

export const EMPTY_NOTIFY_PAGE: NotifyPage = { state: null, settings: DEFAULT_NOTIFY_SETTINGS };

export const evolveNotifyPage = (
  page: NotifyPage,
  event: ProjectedEvent,
  evolve: PageEvolve = evolvePageState,
): NotifyPage => {
  const state = evolve(page.state, event);
  if (event.type !== 'page.configured') return { ...page, state };
  const { maintenance_reminder_minutes, state_hold_seconds } = event.data;
  return {
    state,
    settings: {
      maintenanceReminderMinutes:
        maintenance_reminder_minutes ?? DEFAULT_NOTIFY_SETTINGS.maintenanceReminderMinutes,
      stateHoldSeconds: state_hold_seconds ?? DEFAULT_NOTIFY_SETTINGS.stateHoldSeconds,
    },
  };
};

/** A page's history at once: linear, like foldPageState. */
export const foldNotifyPage = (events: readonly ProjectedEvent[], from = EMPTY_NOTIFY_PAGE): NotifyPage => {
  const evolve = evolvePageStateWith(ownedPut());
  return events.reduce((page, event) => evolveNotifyPage(page, event, evolve), from);
};
