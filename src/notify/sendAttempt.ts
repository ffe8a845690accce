// One send through the recipient's channel, timed; whatever happens becomes an Outcome.
import type { Outcome } from './channel.ts';
import type { Claimed } from './claimDue.ts';
import type { Attempt } from './recordOutcomes.ts';
import type { Senders } from './senders.ts';

export const sendAttempt = async (senders: Senders, claimed: Claimed, random: number): Promise<Attempt> => {
  const sender = senders[claimed.recipient.channel];
  const started = performance.now();
  let outcome: Outcome;
  try {
    if (sender === undefined) throw new Error('no sender for the channel');
    outcome = await sender(claimed.recipient, claimed.message);
  } catch (error) {
    // A sender that throws is a bug or an outage of its own: try again later, like a 5xx.
    outcome = { kind: 'retry', status: null, retryAfterMs: null, reason: (error as Error).message };
  }
  return { claimed, outcome, latencyMs: performance.now() - started, random };
};
