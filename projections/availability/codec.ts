// How an availability response is stored: its ETag, then its JSON deflated (base64, since writes
// travel as text). A year of daily breakdown repeats itself, so a quiet monitor's five periods
// shrink from about 40 KB to a few hundred bytes; the API inflates a body when it first reads it.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { etagOf, fromBuffer, type StoredBytes } from '../store/bytes.ts';

const PLAIN_JSON = 0x7b; // '{': a body stored before bodies were deflated

export const encodeAvailability = (body: string): string =>
  `${etagOf(body)}\n${deflateRawSync(Buffer.from(body, 'utf8')).toString('base64')}`;

export const decodeAvailability = (stored: Buffer | null | undefined): StoredBytes | null => {
  const bytes = fromBuffer(stored);
  if (bytes === null || bytes.body[0] === PLAIN_JSON) return bytes;
  return { etag: bytes.etag, body: inflateRawSync(Buffer.from(bytes.body.toString('latin1'), 'base64')) };
};
