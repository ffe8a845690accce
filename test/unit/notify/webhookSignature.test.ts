import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/notify/senders/webhookSignature.ts';

describe('Standard Webhooks signing', () => {
  it('makes secrets of whsec_ and base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('signs with every live secret, each of which the standardwebhooks verifier accepts', () => {
    const secrets = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"type":"incident.updated","data":{}}';
    const atMs = Date.now();
    const headers = signWebhook({ id: 'msg_2VsfzPp7aDq3HxQ6', body, atMs }, secrets);
    expect(headers['webhook-id']).toBe('msg_2VsfzPp7aDq3HxQ6');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(atMs / 1000)));
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of secrets) {
      // the verifier checks the signature list against its one secret, and the timestamp's age
      expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    }
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow(
      'No matching signature found',
    );
    expect(() => new Webhook(secrets[0] ?? '').verify(`${body} `, { ...headers })).toThrow(
      'No matching signature found',
    );
  });

  it('matches the Standard Webhooks reference vector', () => {
    // From the specification's test suite: secret, id, timestamp and body → this signature.
    const headers = signWebhook(
      { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', body: '{"test": 2432232314}', atMs: 1614265330_000 },
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    );
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
