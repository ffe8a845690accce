import { z } from 'zod';

export const PageSlug = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'invalid page slug');
export const MonitorId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
export const EntityId = z.string().min(1).max(200);
export const Timestamp = z.string().datetime({ offset: true });
export const Components = z.array(z.string().max(200)).max(100);
export const Text = z.string().max(10_000);
export const Title = z.string().min(1).max(500);
