// When a maintenance last changed as readers see it: its latest event, or the window boundary at
// which the clock alone moved its status (feeds and the Statuspage-compatible documents).
import type { MaintenanceDoc } from '../types.ts';
import { maintenanceStatus } from './maintenanceJson.ts';

export const maintenanceUpdatedAt = (doc: MaintenanceDoc, nowMs: number): number => {
  const base = doc.updatedAt ?? doc.createdAt;
  const status = maintenanceStatus(doc, nowMs);
  if (status === 'in_progress' && !doc.started) return Math.max(base, doc.scheduledStart);
  if (status === 'completed' && !doc.completed) return Math.max(base, doc.scheduledEnd);
  return base;
};

/**
 * The latest change the maintenance will show once the clock no longer moves its status: its
 * latest event, or its scheduled end if it completes by the clock. Never before
 * maintenanceUpdatedAt at any instant, and equal to it once the status is completed or cancelled.
 */
export const maintenanceSettledAt = (doc: MaintenanceDoc): number => {
  const base = doc.updatedAt ?? doc.createdAt;
  return doc.cancelled || doc.completed ? base : Math.max(base, doc.scheduledEnd);
};
