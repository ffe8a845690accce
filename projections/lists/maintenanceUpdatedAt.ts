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
