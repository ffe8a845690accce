// The key behind the mail links' signatures: MAIL_TOKEN_SECRET when set, otherwise one generated
// on first use and kept in PostgreSQL (mail_keys), which every process of the installation reads.
import { randomBytes } from 'node:crypto';
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';

const NAME = 'tokens';

export const loadMailKey = async (db: CommonQueryMethods, setting: string | null): Promise<Buffer> => {
  if (setting !== null) return Buffer.from(setting, 'utf8');
  // Two processes starting together: the second insert does nothing and both read the first's.
  await db.query(sql.unsafe`
    INSERT INTO mail_keys (name, secret) VALUES (${NAME}, ${randomBytes(32).toString('base64url')})
    ON CONFLICT (name) DO NOTHING`);
  const secret = await db.oneFirst(
    sql.type(z.object({ secret: z.string() }))`SELECT secret FROM mail_keys WHERE name = ${NAME}`,
  );
  return Buffer.from(secret, 'base64url');
};
