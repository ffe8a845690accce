// Words and tones for every state the API can answer. A tone is a colour family in the
// stylesheet (ok, minor, major, critical, info, neutral), never a colour here.
import type { MonitorState, Overall } from './types.ts';

type Tone = 'ok' | 'minor' | 'major' | 'critical' | 'info' | 'neutral';

export const overallLabels: Readonly<Record<Overall, readonly [string, Tone]>> = {
  operational: ['All systems operational', 'ok'],
  degraded_performance: ['Degraded performance', 'minor'],
  partial_outage: ['Partial outage', 'major'],
  major_outage: ['Major outage', 'critical'],
  under_maintenance: ['Under maintenance', 'info'],
};

export const monitorLabels: Readonly<Record<MonitorState, readonly [string, Tone]>> = {
  up: ['Operational', 'ok'],
  degraded: ['Degraded', 'minor'],
  down: ['Down', 'critical'],
};

const incidentTones: Readonly<Record<string, Tone>> = {
  investigating: 'critical',
  identified: 'major',
  monitoring: 'minor',
  resolved: 'ok',
};

export const incidentTone = (state: string): Tone => incidentTones[state] ?? 'neutral';

const maintenanceTones: Readonly<Record<string, Tone>> = {
  scheduled: 'info',
  in_progress: 'info',
  completed: 'ok',
  cancelled: 'neutral',
};

export const maintenanceTone = (status: string): Tone => maintenanceTones[status] ?? 'neutral';

/** Colour family of a day's uptime in the bars. */
export const uptimeTone = (uptime: number): Tone =>
  uptime >= 99.95 ? 'ok' : uptime >= 99 ? 'minor' : uptime >= 95 ? 'major' : 'critical';
