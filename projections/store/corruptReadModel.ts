// A stored value a codec cannot decode: a projector bug or a foreign writer, never user input.
import type { z } from 'zod';

export class CorruptReadModel extends Error {
  override readonly name = 'CorruptReadModel';
}

/**
 * Parses a stored JSON document and validates it against `schema` (which must not transform).
 * Answers the value as JSON.parse built it, so re-encoding it keeps the stored key order.
 * @throws CorruptReadModel naming `what`
 */
export const parseStoredJson = <T>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  text: string,
  what: string,
): T => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new CorruptReadModel(`${what} is not JSON`, { cause });
  }
  const doc = schema.safeParse(json);
  if (!doc.success) throw new CorruptReadModel(`${what} has an unexpected shape`, { cause: doc.error });
  return json as T;
};
