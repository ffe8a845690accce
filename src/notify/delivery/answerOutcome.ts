// What an HTTP answer means for the subscriber (notifications.md, "Delivery"): 2xx delivered, 410
// gone, anything else (3xx too: redirects are not followed) retried, when the receiver said.
import type { Outcome } from '../channel.ts';
import { retryAfterBodyMs, retryAfterHeaderMs } from './retryAfter.ts';

export type HttpAnswer = Readonly<{ status: number; retryAfter: string | undefined; body: string }>;

export const answerOutcome = (answer: HttpAnswer, nowMs: number): Outcome => {
  const { status } = answer;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 410) return { kind: 'gone', status };
  const reason = status >= 300 && status < 400 ? `redirect not followed (HTTP ${status})` : `HTTP ${status}`;
  const retryAfterMs = retryAfterBodyMs(answer.body) ?? retryAfterHeaderMs(answer.retryAfter, nowMs);
  return { kind: 'retry', status, retryAfterMs, reason };
};
