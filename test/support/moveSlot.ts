// Moves one hash slot of a Redis Cluster to another master the way `redis-cli --cluster reshard`
// does: the target IMPORTING, the source MIGRATING, MIGRATE the slot's keys a few at a time, then
// SETSLOT NODE on every master, in `batches` batches. `between` runs after each batch, while the slot is split between
// the two masters (clients get ASK redirections, and TRYAGAIN for multi-key commands and scripts).
import { Redis } from 'ioredis';
import type { ClusterNode } from '../../src/config.ts';

type SlotMove = Readonly<{
  slot: number;
  from: string;
  to: string;
  keysMoved: number;
  batches: number;
}>;

const address = (node: ClusterNode) => `${node.host}:${node.port}`;

export const moveSlot = async (
  nodes: readonly ClusterNode[],
  slot: number,
  options: Readonly<{ batches: number; between: () => Promise<void> }>,
): Promise<SlotMove> => {
  const admins = nodes.map(
    (node) => new Redis({ host: node.host, port: node.port, maxRetriesPerRequest: null }),
  );
  try {
    const ids = await Promise.all(admins.map(async (admin) => String(await admin.call('CLUSTER', 'MYID'))));
    const ranges = (await admins[0]!.call('CLUSTER', 'SLOTS')) as [
      number,
      number,
      [string, number, string],
    ][];
    const owner = ranges.find(([first, last]) => first <= slot && slot <= last);
    if (!owner) throw new Error(`slot ${slot} has no owner`);
    const from = ids.indexOf(owner[2][2]);
    const to = (from + 1) % admins.length;
    const [source, target] = [admins[from]!, admins[to]!];
    await target.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', ids[from]!);
    await source.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', ids[to]!);
    const keysPerBatch = Math.max(
      1,
      Math.ceil(Number(await source.call('CLUSTER', 'COUNTKEYSINSLOT', slot)) / options.batches),
    );
    let keysMoved = 0;
    let batches = 0;
    for (;;) {
      const keys = (await source.call('CLUSTER', 'GETKEYSINSLOT', slot, keysPerBatch)) as string[];
      if (keys.length === 0) break;
      const { host, port } = nodes[to]!;
      await source.call('MIGRATE', host, port, '', 0, 5000, 'KEYS', ...keys);
      keysMoved += keys.length;
      batches += 1;
      await options.between();
    }
    // The target first: once it owns the slot, the source's redirections lead somewhere valid.
    await target.call('CLUSTER', 'SETSLOT', slot, 'NODE', ids[to]!);
    await source.call('CLUSTER', 'SETSLOT', slot, 'NODE', ids[to]!);
    for (const [i, admin] of admins.entries())
      if (i !== from && i !== to) await admin.call('CLUSTER', 'SETSLOT', slot, 'NODE', ids[to]!);
    return { slot, from: address(nodes[from]!), to: address(nodes[to]!), keysMoved, batches };
  } finally {
    for (const admin of admins) admin.disconnect();
  }
};
