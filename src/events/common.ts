import { z } from 'zod';
import { BoundedTimestamp, MAX_MONITOR_ID } from './bounds.ts';

export const PageSlug = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'invalid page slug');
export const MonitorId = z.number().int().min(1).max(MAX_MONITOR_ID);
export const EntityId = z.string().min(1).max(200);
export const Timestamp = BoundedTimestamp;
export const Components = z.array(z.string().max(200)).max(100);
export const Text = z.string().max(10_000);
export const Title = z.string().min(1).max(500);
