import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';

export const isLogEmpty = async (db: DatabasePool): Promise<boolean> =>
  (await db.maybeOne(sql.type(z.object({ one: z.number() }))`SELECT 1 AS one FROM event_log LIMIT 1`)) ===
  null;
