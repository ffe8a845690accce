// Schema validation of one incoming event (the envelope, then its type's data), shared by every
// way in: HTTP, the CLI and in-process producers. Produces the event exactly as the log will
// hold it, typed by the same union the projector reads it back with (StoredEvent).
import type { z } from 'zod';
import { parseLocale } from '../../projections/locale/locales.ts';
import { hashToken } from '../shared/hashToken.ts';
import { normalizeTimestamp } from '../shared/time.ts';
import { MIN_TOKEN_BITS, tokenBits } from './tokenStrength.ts';
import {
  MAX_AT_AHEAD_MS,
  MAX_NESTING,
  MAX_SCHEDULE_AHEAD_MS,
  nestsDeeperThan,
  tooFarAhead,
  unstorableStringPath,
} from './bounds.ts';
import { Envelope, EventTypeSchema, IncomingEvent } from './catalogue.ts';
import type { StoredEventBody } from './storedEvent.ts';

const TIMESTAMP_FIELDS = ['scheduled_start', 'scheduled_end'] as const;

/** An event that passed the schemas, ready to append; `index` is its place in its batch. */
export type ParsedEvent = StoredEventBody &
  Readonly<{
    index: number;
    id: string | null;
    page: string;
    atMs: number;
    /** A page.configured whose token looks weaker than MIN_TOKEN_BITS: the bits it can carry (accepted, warned about). */
    weakTokenBits?: number;
  }>;
export type EventError = Readonly<{ index: number; message: string }>;

const describe = (error: z.ZodError): string =>
  error.issues
    .map((issue) => {
      const path = issue.path.filter((part) => part !== '').join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');

type Window = { scheduled_start?: string | undefined; scheduled_end?: string | undefined };
const inUtc = <W extends Window>(window: W): W => ({
  ...window,
  ...(window.scheduled_start === undefined
    ? {}
    : { scheduled_start: normalizeTimestamp(window.scheduled_start) }),
  ...(window.scheduled_end === undefined ? {} : { scheduled_end: normalizeTimestamp(window.scheduled_end) }),
});

// The log never sees a plaintext page token; timestamps inside data are stored in UTC.
const toStored = (event: IncomingEvent): StoredEventBody => {
  if (event.type === 'page.configured') {
    const { auth_token, locale, ...rest } = event.data;
    const canonical = locale === undefined ? null : parseLocale(locale);
    return {
      type: event.type,
      data: {
        ...rest,
        auth_token_hash: auth_token === null ? null : hashToken(auth_token),
        ...(canonical === null ? {} : { locale: canonical }),
      },
    };
  }
  if (event.type === 'maintenance.scheduled') return { type: event.type, data: inUtc(event.data) };
  if (event.type === 'maintenance.updated') return { type: event.type, data: inUtc(event.data) };
  return event; // every other type is stored as it came
};

// The spec accepts any token of 16–200 characters: a weak one is accepted, and said so.
const weakToken = (event: IncomingEvent): { weakTokenBits?: number } => {
  if (event.type !== 'page.configured' || event.data.auth_token === null) return {};
  const bits = tokenBits(event.data.auth_token);
  return bits < MIN_TOKEN_BITS ? { weakTokenBits: bits } : {};
};

const scheduledTooFar = (data: Window, now: Date): string | null =>
  TIMESTAMP_FIELDS.find((field) => {
    const value = data[field];
    return typeof value === 'string' && tooFarAhead(Date.parse(value), now, MAX_SCHEDULE_AHEAD_MS);
  }) ?? null;

export const parseEvent = (raw: unknown, index: number, now: Date): ParsedEvent | EventError => {
  if (nestsDeeperThan(raw, MAX_NESTING))
    return { index, message: `event: nested more than ${MAX_NESTING} levels deep` };
  const envelope = Envelope.safeParse(raw);
  if (!envelope.success) return { index, message: describe(envelope.error) };
  const { id, type, page, at, data } = envelope.data;
  const knownType = EventTypeSchema.safeParse(type);
  if (!knownType.success) return { index, message: `type: unknown event type "${type.slice(0, 60)}"` };
  const atMs = Date.parse(at);
  if (tooFarAhead(atMs, now, MAX_AT_AHEAD_MS))
    return { index, message: 'at: more than 5 minutes in the future' };
  const unstorable = unstorableStringPath(raw);
  if (unstorable !== null)
    return { index, message: `${unstorable}: contains a NUL character or an unpaired surrogate` };
  const parsed = IncomingEvent.safeParse({ type: knownType.data, data: data ?? {} });
  if (!parsed.success) return { index, message: describe(parsed.error) };
  const event = parsed.data;
  const farWindow =
    event.type === 'maintenance.scheduled' || event.type === 'maintenance.updated'
      ? scheduledTooFar(event.data, now)
      : null;
  if (farWindow !== null) return { index, message: `data.${farWindow}: more than 10 years in the future` };
  return { index, id: id ?? null, page, atMs, ...toStored(parsed.data), ...weakToken(parsed.data) };
};

export const isEventError = (value: ParsedEvent | EventError): value is EventError => 'message' in value;
