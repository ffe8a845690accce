import { z } from 'zod';
import { Components, EntityId, Text, Timestamp, Title } from './common.ts';

const endAfterStart = (w: { scheduled_start?: string | undefined; scheduled_end?: string | undefined }) =>
  w.scheduled_start === undefined ||
  w.scheduled_end === undefined ||
  Date.parse(w.scheduled_end) > Date.parse(w.scheduled_start);
const endAfterStartIssue = {
  message: 'scheduled_end must be after scheduled_start',
  path: ['scheduled_end'],
};

export const MaintenanceScheduled = z
  .object({
    maintenance_id: EntityId,
    title: Title,
    description: Text.default(''),
    scheduled_start: Timestamp,
    scheduled_end: Timestamp,
    components: Components.default([]),
  })
  .strict()
  .refine(endAfterStart, endAfterStartIssue);
export type MaintenanceScheduled = z.infer<typeof MaintenanceScheduled>;

export const MaintenanceUpdated = z
  .object({
    maintenance_id: EntityId,
    title: Title.optional(),
    description: Text.optional(),
    scheduled_start: Timestamp.optional(),
    scheduled_end: Timestamp.optional(),
    components: Components.optional(),
  })
  .strict()
  .refine(endAfterStart, endAfterStartIssue);
export type MaintenanceUpdated = z.infer<typeof MaintenanceUpdated>;

export const MaintenanceTransition = z.object({ maintenance_id: EntityId }).strict();
