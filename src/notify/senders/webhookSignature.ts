// Standard Webhooks v1 signing: a consumer checks `webhook-signature` with its secret and the
// `webhook-id` and `webhook-timestamp` headers. Every live secret signs, so a consumer holding the
// old or the new secret accepts deliveries during a rotation.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const SECRET_BYTES = 32; // the standard asks for 24 to 64

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export const generateWebhookSecret = (): string => PREFIX + randomBytes(SECRET_BYTES).toString('base64');

const keyOf = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');

export type SignedHeaders = Readonly<{
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}>;

/** The three headers for one attempt of message `id` with `body`, signed by each of `secrets`. */
export const signWebhook = (
  { id, body, atMs }: Readonly<{ id: string; body: string; atMs: number }>,
  secrets: readonly string[],
): SignedHeaders => {
  const timestamp = String(Math.floor(atMs / 1000));
  const content = `${id}.${timestamp}.${body}`;
  const signatures = secrets.map(
    (secret) => `v1,${createHmac('sha256', keyOf(secret)).update(content).digest('base64')}`,
  );
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
};
