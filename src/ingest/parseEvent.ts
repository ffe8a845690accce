// Schema validation of one incoming event (the envelope, then its type's data), shared by
// HTTP and CLI ingest. Produces the event exactly as the log will hold it.
import type { z } from 'zod';
import {
  MAX_AT_AHEAD_MS,
  MAX_SCHEDULE_AHEAD_MS,
  tooFarAhead,
  unstorableStringPath,
} from '../events/bounds.ts';
import { Envelope, EventTypeSchema, incomingDataSchemas, type EventType } from '../events/catalogue.ts';
import { hashToken } from '../shared/hashToken.ts';
import { normalizeTimestamp } from '../shared/time.ts';

const TIMESTAMP_FIELDS = ['scheduled_start', 'scheduled_end'] as const;

export type ParsedEvent = Readonly<{
  index: number;
  id: string | null;
  type: EventType;
  page: string;
  atMs: number;
  data: Record<string, unknown>;
}>;
export type EventError = Readonly<{ index: number; message: string }>;

const describe = (error: z.ZodError, prefix: string): string =>
  error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path].filter((part) => part !== '').join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');

// The log never sees a plaintext page token; timestamps inside data are stored in UTC.
const toStoredData = (type: EventType, data: Record<string, unknown>): Record<string, unknown> => {
  const stored = { ...data };
  for (const field of TIMESTAMP_FIELDS) {
    const value = stored[field];
    if (typeof value === 'string') stored[field] = normalizeTimestamp(value);
  }
  if (type === 'page.configured') {
    const token = stored['auth_token'];
    delete stored['auth_token'];
    stored['auth_token_hash'] = typeof token === 'string' ? hashToken(token) : null;
  }
  return stored;
};

const scheduledTooFar = (data: Record<string, unknown>, now: Date): string | null =>
  TIMESTAMP_FIELDS.find((field) => {
    const value = data[field];
    return typeof value === 'string' && tooFarAhead(Date.parse(value), now, MAX_SCHEDULE_AHEAD_MS);
  }) ?? null;

export const parseEvent = (raw: unknown, index: number, now: Date): ParsedEvent | EventError => {
  const envelope = Envelope.safeParse(raw);
  if (!envelope.success) return { index, message: describe(envelope.error, '') };
  const { id, type, page, at, data } = envelope.data;
  const knownType = EventTypeSchema.safeParse(type);
  if (!knownType.success) return { index, message: `type: unknown event type "${type.slice(0, 60)}"` };
  const atMs = Date.parse(at);
  if (tooFarAhead(atMs, now, MAX_AT_AHEAD_MS))
    return { index, message: 'at: more than 5 minutes in the future' };
  const unstorable = unstorableStringPath(raw);
  if (unstorable !== null)
    return { index, message: `${unstorable}: contains a NUL character or an unpaired surrogate` };
  const parsed = incomingDataSchemas[knownType.data].safeParse(data ?? {});
  if (!parsed.success) return { index, message: describe(parsed.error, 'data') };
  const farWindow = scheduledTooFar(parsed.data, now);
  if (farWindow !== null) return { index, message: `data.${farWindow}: more than 10 years in the future` };
  return {
    index,
    id: id ?? null,
    type: knownType.data,
    page,
    atMs,
    data: toStoredData(knownType.data, parsed.data),
  };
};

export const isEventError = (value: ParsedEvent | EventError): value is EventError => 'message' in value;
