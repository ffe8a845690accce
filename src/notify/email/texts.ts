// Every sentence a reader sees in the email channel, in one locale: the mails and the sign-up,
// confirm and manage pages. The words live in the catalogues (projections/locale, keys `mail.*`
// and `sub.*`); this names them for the code around, and formats the mails' times in UTC.
import type { NotificationType } from '../../../projections/notify/message.ts';
import type { MonitorState } from '../../../projections/notify/message.ts';
import { translate } from '../../../projections/locale/catalogues.ts';
import { formatsFor } from '../../../projections/locale/format.ts';
import type { Locale } from '../../../projections/locale/locales.ts';
import type { MessageKey } from '../../../projections/locale/messages/en.ts';

const HEADLINES: Readonly<Record<NotificationType, MessageKey>> = {
  'incident.opened': 'mail.incident.opened',
  'incident.updated': 'mail.incident.updated',
  'maintenance.scheduled': 'mail.maintenance.scheduled',
  'maintenance.reminder': 'mail.maintenance.reminder',
  'maintenance.started': 'mail.maintenance.started',
  'maintenance.completed': 'mail.maintenance.completed',
  'maintenance.cancelled': 'mail.maintenance.cancelled',
  'maintenance.rescheduled': 'mail.maintenance.rescheduled',
  'monitor.state': 'mail.monitor.state',
};

const INCIDENT_STATES: Readonly<Record<string, MessageKey>> = {
  investigating: 'incident.investigating',
  identified: 'incident.identified',
  monitoring: 'incident.monitoring',
  resolved: 'incident.resolved',
};

const MONITOR_STATES: Readonly<Record<MonitorState['state'], MessageKey>> = {
  up: 'mail.monitor.up',
  degraded: 'mail.monitor.degraded',
  down: 'mail.monitor.down',
};

export type MailTexts = ReturnType<typeof mailTextsOf>;

const mailTextsOf = (locale: Locale) => {
  const { t } = translate(locale);
  const formats = formatsFor(locale);
  // Subscribers live anywhere: every time in a mail is UTC, and says so.
  const utc = (iso: string): string => formats.dateTimePlain(new Date(iso), 'UTC');
  return {
    locale,
    /** The headline of a notification, after the page's title in the subject. */
    headline: (type: NotificationType, title: string): string => t(HEADLINES[type], { title }),
    /** An incident update's state and when it was posted. */
    update: (state: string, at: string): string => {
      const key = INCIDENT_STATES[state];
      return t('mail.update', { state: key === undefined ? state : t(key), time: utc(at) });
    },
    components: (names: readonly string[]): string => t('mail.components', { components: names.join(', ') }),
    window: (start: string, end: string): string => t('mail.window', { start: utc(start), end: utc(end) }),
    coalesced: (count: number): string => t('mail.coalesced', { count }),
    monitorState: (name: string, state: MonitorState['state']): string => t(MONITOR_STATES[state], { name }),
    viewPage: t('mail.viewPage'),
    footerReason: (title: string): string => t('mail.footerReason', { title }),
    manage: t('mail.manage'),
    unsubscribe: t('mail.unsubscribe'),
    confirmSubject: (title: string): string => t('mail.confirmSubject', { title }),
    confirmIntro: (title: string): string => t('mail.confirmIntro', { title }),
    confirmAction: t('mail.confirmAction'),
    confirmExpiry: t('mail.confirmExpiry'),
    knownSubject: (title: string): string => t('mail.knownSubject', { title }),
    knownIntro: (title: string): string => t('mail.knownIntro', { title }),
  };
};

export type PageTexts = ReturnType<typeof pageTextsOf>;

const pageTextsOf = (locale: Locale) => {
  const { t } = translate(locale);
  return {
    locale,
    subscribeTitle: (title: string): string => t('sub.subscribeTitle', { title }),
    subscribeIntro: t('sub.subscribeIntro'),
    emailLabel: t('sub.emailLabel'),
    componentsLegend: t('sub.componentsLegend'),
    subscribeButton: t('sub.subscribeButton'),
    sentTitle: t('sub.sentTitle'),
    sentBody: t('sub.sentBody'),
    confirmTitle: (title: string): string => t('sub.confirmTitle', { title }),
    confirmBody: t('sub.confirmBody'),
    confirmButton: t('sub.confirmButton'),
    confirmedTitle: t('sub.confirmedTitle'),
    confirmedBody: t('sub.confirmedBody'),
    manageTitle: (title: string): string => t('sub.manageTitle', { title }),
    manageBody: t('sub.manageBody'),
    saveButton: t('sub.saveButton'),
    savedTitle: t('sub.savedTitle'),
    unsubscribeButton: t('sub.unsubscribeButton'),
    unsubscribedTitle: t('sub.unsubscribedTitle'),
    unsubscribedBody: t('sub.unsubscribedBody'),
    invalidLinkTitle: t('sub.invalidLinkTitle'),
    invalidLinkBody: t('sub.invalidLinkBody'),
    invalidEmailTitle: t('sub.invalidEmailTitle'),
    unknownComponents: t('sub.unknownComponents'),
    tooManyTitle: t('sub.tooManyTitle'),
    tooManyBody: t('sub.tooManyBody'),
    skipToContent: t('doc.skip'),
    backToPage: t('sub.backToPage'),
    subscribeAgain: t('sub.subscribeAgain'),
  };
};

/** Made once per locale, on first use. */
const once = <T>(make: (locale: Locale) => T): ((locale: Locale) => T) => {
  const made = new Map<Locale, T>();
  return (locale) => {
    let found = made.get(locale);
    if (found === undefined) made.set(locale, (found = make(locale)));
    return found;
  };
};

/** The mails' words in `locale`. */
export const mailTexts = once(mailTextsOf);
/** The subscription pages' words in `locale`. */
export const pageTexts = once(pageTextsOf);
