// The one write protocol of the read models: the closed union of operations commitWrites.lua
// applies (docs/read-models.md, "How writes reach Redis").
export type WriteOp =
  | Readonly<{ op: 'set'; key: string; value: string | number }>
  | Readonly<{ op: 'del'; keys: readonly string[] }>
  | Readonly<{
      op: 'hset';
      key: string;
      fields: readonly (readonly [field: string, value: string | number])[];
    }>
  | Readonly<{ op: 'hdel'; key: string; field: string }>
  | Readonly<{ op: 'hincrby'; key: string; field: string; by: number }>
  | Readonly<{ op: 'expire'; key: string; seconds: number }>
  /** `onlyLower`: only move an existing score down (ZADD LT). */
  | Readonly<{ op: 'zadd'; key: string; score: number; member: string; onlyLower?: boolean }>
  | Readonly<{ op: 'zrem'; key: string; member: string }>
  /** Removes the members scored from `min` up (−Infinity: all of them). */
  | Readonly<{ op: 'zremFrom'; key: string; min: number }>
  /** Removes the members scored from `min` (included) to `below` (excluded). */
  | Readonly<{ op: 'zremBetween'; key: string; min: number; below: number }>
  /**
   * Removes the members scored below `cutoff` from `key` and from every set of `from`, except the
   * newest of them all (every member at that score): an anchor to keep, which stays in or moves
   * into `key`.
   */
  | Readonly<{ op: 'zkeepFrom'; key: string; cutoff: number; from?: readonly string[] }>
  /**
   * Recomputes the day summaries (`summary`: member `<day>:<down ms>:<starts>:<first start>`,
   * score the day) of UTC days `fromDay`…`toDay` from the failures in `key` as they stand.
   */
  | Readonly<{ op: 'summarizeDown'; key: string; summary: string; fromDay: number; toDay: number }>
  | Readonly<{ op: 'sadd'; key: string; member: string }>
  | Readonly<{ op: 'srem'; key: string; member: string }>
  /**
   * HSET of only the fields whose value changed, each stamped `<field>:rev` with a new revision
   * (the hash's previous `rev` + 1, at least `atLeast`); when any changed, `rev` moves and
   * `message` is published on `channel`; otherwise `unchangedMessage`, when given, is.
   */
  | Readonly<{
      op: 'hsetVersioned';
      key: string;
      fields: readonly (readonly [field: string, value: string])[];
      atLeast: number;
      channel: string;
      message: string;
      unchangedMessage?: string;
    }>
  | Readonly<{ op: 'publish'; channel: string; message: string }>;

export const setOp = (key: string, value: string | number): WriteOp => ({ op: 'set', key, value });
