// Words and tones for every state the API can answer. A tone is a colour family in the
// stylesheet (ok, minor, major, critical, info, neutral), never a colour here.
import type { MessageKey } from '../../../projections/locale/messages/en.ts';
import { t } from './i18n.ts';
import type { MonitorState, Overall } from './types.ts';

type Tone = 'ok' | 'minor' | 'major' | 'critical' | 'info' | 'neutral';

const overallWords: Readonly<Record<Overall, readonly [MessageKey, Tone]>> = {
  operational: ['overall.operational', 'ok'],
  degraded_performance: ['overall.degraded_performance', 'minor'],
  partial_outage: ['overall.partial_outage', 'major'],
  major_outage: ['overall.major_outage', 'critical'],
  under_maintenance: ['overall.under_maintenance', 'info'],
};

export const overallLabel = (overall: Overall): readonly [string, Tone] => {
  const [key, tone] = overallWords[overall];
  return [t(key), tone];
};

const monitorWords: Readonly<Record<MonitorState, readonly [MessageKey, Tone]>> = {
  up: ['monitor.up', 'ok'],
  degraded: ['monitor.degraded', 'minor'],
  down: ['monitor.down', 'critical'],
};

export const monitorLabel = (state: MonitorState): readonly [string, Tone] => {
  const [key, tone] = monitorWords[state];
  return [t(key), tone];
};

const incidentWords: Readonly<Record<string, readonly [MessageKey, Tone]>> = {
  investigating: ['incident.investigating', 'critical'],
  identified: ['incident.identified', 'major'],
  monitoring: ['incident.monitoring', 'minor'],
  resolved: ['incident.resolved', 'ok'],
};

export const incidentTone = (state: string): Tone => incidentWords[state]?.[1] ?? 'neutral';

const maintenanceWords: Readonly<Record<string, readonly [MessageKey, Tone]>> = {
  scheduled: ['maintenance.scheduled', 'info'],
  in_progress: ['maintenance.in_progress', 'info'],
  completed: ['maintenance.completed', 'ok'],
  cancelled: ['maintenance.cancelled', 'neutral'],
};

export const maintenanceTone = (status: string): Tone => maintenanceWords[status]?.[1] ?? 'neutral';

/** A state a newer API may add has no word here yet: it is shown as sent, made readable. */
const readable = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1).replace(/_/g, ' ');

export const incidentWord = (state: string): string => {
  const key = incidentWords[state]?.[0];
  return key === undefined ? readable(state) : t(key);
};

export const maintenanceWord = (status: string): string => {
  const key = maintenanceWords[status]?.[0];
  return key === undefined ? readable(status) : t(key);
};

/** Colour family of a day's uptime in the bars. */
export const uptimeTone = (uptime: number): Tone =>
  uptime >= 99.95 ? 'ok' : uptime >= 99 ? 'minor' : uptime >= 95 ? 'major' : 'critical';
