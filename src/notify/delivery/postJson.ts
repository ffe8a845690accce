// One HTTPS POST of a JSON body to a subscriber's URL, as notifications.md's "Delivery" says:
// HTTPS only, trusted CAs, no redirects followed, one total timeout, refused addresses checked at
// connect time. It never throws: every end is an Outcome the dispatcher records.
import { request, Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { isIP } from 'node:net';
import type { Outcome } from '../channel.ts';
import { isAllowedHost, type AllowHosts } from './allowHosts.ts';
import { answerOutcome } from './answerOutcome.ts';
import { checkedLookup, systemResolve, type Resolve } from './checkedLookup.ts';
import { isRefusedAddress } from './refusedAddress.ts';

export type DeliverySettings = Readonly<{
  /** NOTIFY_ALLOW_HOSTS (config.notifyAllowHosts). */
  allowHosts: AllowHosts;
  /**
   * PEM CAs trusted besides the system's. Node reads NODE_EXTRA_CA_CERTS only at start, so a test
   * that makes its CA at run time passes it here.
   */
  extraCa?: readonly string[];
  /** The whole attempt: connect, TLS, request and answer (default 10 s). */
  timeoutMs?: number;
  resolve?: Resolve;
  now?: () => number;
}>;

export type JsonPost = Readonly<{ url: string; body: string; headers?: Readonly<Record<string, string>> }>;

const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024; // enough for an error or Discord's retry_after; the rest is dropped
const USER_AGENT = 'statuspage-notifier/1';
const BODY_DRAIN_MS = 1_000;

const parseHttpsUrl = (text: string): URL | null => {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
};

export type JsonPoster = (post: JsonPost) => Promise<Outcome>;

/** A poster bound to one agent: its lookup checks every address it connects to. */
export const createJsonPoster = (settings: DeliverySettings): JsonPoster => {
  const allow = settings.allowHosts;
  const extraCa = settings.extraCa ?? [];
  const agent = new Agent({
    // Kept alive: a fan-out to many subscribers of one receiver (a chat vendor, one consumer's
    // endpoints) pays its TLS handshake once, not per message. A reused socket is one the lookup
    // below checked when it connected; idle ones close after 5 s, before most servers drop them.
    keepAlive: true,
    timeout: 5_000,
    lookup: checkedLookup(allow, settings.resolve ?? systemResolve),
    // Given a `ca`, Node trusts only it: add the bundled roots so public receivers still verify.
    ...(extraCa.length > 0 ? { ca: [...extraCa, ...rootCertificates] } : {}),
  });
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = settings.now ?? Date.now;

  return (post) =>
    new Promise<Outcome>((resolve) => {
      const url = parseHttpsUrl(post.url);
      if (url === null) {
        resolve({ kind: 'rejected', status: null, reason: 'not an https URL' });
        return;
      }
      // A literal address is connected to without a lookup: check it here.
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) !== 0 && isRefusedAddress(host) && !isAllowedHost(allow, host)) {
        resolve({ kind: 'retry', status: null, retryAfterMs: null, reason: 'destination refused' });
        return;
      }
      const body = Buffer.from(post.body);
      const req = request(url, {
        method: 'POST',
        agent,
        headers: {
          ...post.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': USER_AGENT,
        },
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy();
      }, timeoutMs);
      const finish = (outcome: Outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      const failed = (error: NodeJS.ErrnoException) => {
        // Codes only: an error's message may name the host, which is the subscriber's secret.
        const reason = timedOut
          ? 'timeout'
          : error.code === 'EREFUSEDDESTINATION'
            ? 'destination refused'
            : (error.code ?? 'network error');
        finish({ kind: 'retry', status: null, retryAfterMs: null, reason });
      };
      req.on('error', failed);
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        // Delivered or gone is known from the status: a receiver dripping its body changes neither.
        if ((status >= 200 && status < 300) || status === 410) {
          finish(answerOutcome({ status, retryAfter: undefined, body: '' }, now()));
          // Read to its end, so the socket goes back to the pool; one that drips is dropped instead.
          const drop = setTimeout(() => res.destroy(), BODY_DRAIN_MS);
          res.on('end', () => clearTimeout(drop)).on('close', () => clearTimeout(drop));
          res.resume();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          const text = Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
          finish(answerOutcome({ status, retryAfter, body: text }, now()));
        });
        // Destroyed mid-answer (the timeout), the response reports the error, not the request.
        res.on('error', failed);
      });
      req.end(body);
    });
};
