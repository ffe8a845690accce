import { z } from 'zod';
import { Components, EntityId, Text, Title } from './common.ts';

export const IncidentState = z.enum(['investigating', 'identified', 'monitoring', 'resolved']);
export type IncidentState = z.infer<typeof IncidentState>;

export const IncidentOpened = z
  .object({
    incident_id: EntityId,
    title: Title,
    message: Text,
    state: IncidentState.exclude(['resolved']).default('investigating'),
    components: Components.default([]),
    /** false: recorded and shown, but no subscriber is notified (notifications.md). */
    notify: z.boolean().optional(),
  })
  .strict();
export type IncidentOpened = z.infer<typeof IncidentOpened>;

export const IncidentUpdated = z
  .object({
    incident_id: EntityId,
    state: IncidentState,
    message: Text,
    title: Title.optional(),
    components: Components.optional(),
    notify: z.boolean().optional(),
  })
  .strict();
export type IncidentUpdated = z.infer<typeof IncidentUpdated>;
