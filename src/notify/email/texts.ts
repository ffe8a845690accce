// Every sentence a reader sees in the email channel: the mails, the sign-up, confirm and manage
// pages. One module, so the wording can be translated without touching the code around it.
import type { NotificationType } from '../../../projections/notify/message.ts';

const incidentStates: Readonly<Record<string, string>> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

export const mailTexts = {
  /** The headline of a notification, after the page's title in the subject. */
  headline: (type: NotificationType, title: string): string => {
    const lines: Record<NotificationType, string> = {
      'incident.opened': `New incident: ${title}`,
      'incident.updated': `Incident update: ${title}`,
      'maintenance.scheduled': `Maintenance scheduled: ${title}`,
      'maintenance.reminder': `Maintenance soon: ${title}`,
      'maintenance.started': `Maintenance started: ${title}`,
      'maintenance.completed': `Maintenance completed: ${title}`,
      'maintenance.cancelled': `Maintenance cancelled: ${title}`,
      'maintenance.rescheduled': `Maintenance rescheduled: ${title}`,
      'monitor.state': `Status change: ${title}`,
    };
    return lines[type];
  },
  incidentState: (state: string): string => incidentStates[state] ?? state,
  components: (names: readonly string[]): string => `Affected: ${names.join(', ')}`,
  window: (start: string, end: string): string => `Scheduled: ${start} to ${end} (UTC)`,
  coalesced: (count: number): string => `${String(count)} updates in one message.`,
  monitorState: (name: string, state: string): string => `${name} is ${state}.`,
  viewPage: 'View the status page',
  footerReason: (pageTitle: string): string =>
    `You receive this because you subscribed to updates of ${pageTitle}.`,
  manage: 'Manage your subscription',
  unsubscribe: 'Unsubscribe',
  confirmSubject: (pageTitle: string): string => `Confirm your subscription to ${pageTitle}`,
  confirmIntro: (pageTitle: string): string =>
    `Someone, probably you, asked to receive updates of ${pageTitle} at this address.`,
  confirmAction: 'Confirm the subscription',
  confirmExpiry:
    'The link works for 48 hours. If you did not ask for this, ignore this mail: nothing more is sent.',
  knownSubject: (pageTitle: string): string => `Your subscription to ${pageTitle}`,
  knownIntro: (pageTitle: string): string =>
    `Someone, probably you, asked to subscribe this address to ${pageTitle}. It is already subscribed.`,
} as const;

export const pageTexts = {
  subscribeTitle: (pageTitle: string): string => `Subscribe to ${pageTitle}`,
  subscribeIntro: 'Get an email when an incident or a maintenance is posted. We send a confirmation first.',
  emailLabel: 'Email address',
  componentsLegend: 'Components (none selected: all of them)',
  subscribeButton: 'Subscribe',
  sentTitle: 'Check your inbox',
  sentBody: 'If the address can receive mail, a confirmation link is on its way. It works for 48 hours.',
  confirmTitle: (pageTitle: string): string => `Confirm your subscription to ${pageTitle}`,
  confirmBody: 'Press the button to start receiving updates by email.',
  confirmButton: 'Confirm subscription',
  confirmedTitle: 'Subscription confirmed',
  confirmedBody: 'You will receive an email when something is posted on this status page.',
  manageTitle: (pageTitle: string): string => `Your subscription to ${pageTitle}`,
  manageBody: 'Choose the components you want to hear about, or unsubscribe.',
  saveButton: 'Save',
  savedTitle: 'Subscription updated',
  unsubscribeButton: 'Unsubscribe',
  unsubscribedTitle: 'Unsubscribed',
  unsubscribedBody: 'This address receives nothing more from this status page.',
  invalidLinkTitle: 'This link does not work',
  invalidLinkBody: 'It has expired or the subscription no longer exists. You can subscribe again.',
  invalidEmailTitle: 'That address does not look right',
  unknownComponents: 'Some chosen components do not exist on this page.',
  tooManyTitle: 'Too many sign-ups',
  tooManyBody: 'Please try again later.',
  backToPage: 'Back to the status page',
  subscribeAgain: 'Subscribe',
  subscribeLink: 'Subscribe to updates',
} as const;
