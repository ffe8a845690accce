// The embed status body joined from the stored fragments of the embed hash (field order of
// read-api.md), taking incidents, rtm and upd only when asked for. Shared by GET /api/embed/status
// and the live stream.
import { rtmWindow } from '../../projections/render/embed.ts';
import { ApiError } from './errors.ts';
import type { EmbedParts } from '../models/embed/codec.ts';
import type { EmbedStatusQuery as Query } from './schemas.ts';

/** @throws ApiError service_unavailable when a needed fragment was not rendered */
export const embedBody = (parts: Partial<EmbedParts>, query: Query): string => {
  const field = (name: keyof EmbedParts): string => {
    const value = parts[name];
    if (value === undefined) throw new ApiError('service_unavailable');
    return value;
  };
  const rtm =
    query.rtm === undefined
      ? ''
      : `,"rtm":${JSON.stringify(rtmWindow(JSON.parse(field('rtm')) as (number | null)[], query.rtm))}`;
  const upd =
    query.upd === undefined
      ? ''
      : `,"upd":${JSON.stringify((JSON.parse(field('upd')) as number[]).slice(-query.upd))}`;
  const incidents = query.inc === '1' ? field('incidents') : '[]';
  return `{${field('head')},"incidents":${incidents}${rtm}${upd},${field('tail')}}`;
};
