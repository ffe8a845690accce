// `npm run repair-restore`: after the database was restored into another PostgreSQL cluster,
// makes the log readable in order again (src/eventLog/logOrigin.ts) and rebuilds every read
// model from it, so nothing in Redis still describes the log as it was before the restore.
import type { Config } from '../config.ts';
import { renumberRestoredLog } from '../eventLog/logOrigin.ts';
import { migrate } from '../eventLog/migrate.ts';
import { createClients } from './clients.ts';
import { rebuildWith } from './rebuildCommand.ts';

export const repairRestoreCommand = async (config: Config): Promise<number> => {
  await migrate(config.databaseUrl);
  const clients = await createClients(config, 'repair-restore');
  try {
    const { renumbered, origin } = await renumberRestoredLog(clients.db);
    console.log(
      renumbered > 0
        ? `renumbered the transaction ids of ${renumbered} events; the log now belongs to cluster ${origin.server}`
        : `the log was written by this cluster (${origin.server}): nothing to renumber`,
    );
    // A rebuild running meanwhile may have read the log before it was renumbered: build anew.
    return await rebuildWith(config, clients, { join: false });
  } finally {
    await clients.close();
  }
};
