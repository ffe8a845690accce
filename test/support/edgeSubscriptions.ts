// The email subscription flow (docs/notifications.md, "Email subscribers") through a proxy recipe:
// sign-up, the mailed confirm link (its GET confirms nothing and is never kept by the proxy, its
// POST confirms), the per-client sign-up bound with every reader a client of its own, and the
// RFC 8058 one-click unsubscribe from a notification mail's List-Unsubscribe.
import { simpleParser } from 'mailparser';
import { sql } from 'slonik';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { linkIn, notificationMail, pathOf } from './edgeMail.ts';
import { get, send, type Topology } from './edgeTopology.ts';

const SIGNUP = '/api/status-pages/acme/subscribers';
const CONFIRM_PATH = '/s/acme/subscription/confirm';
const SENT = { status: 'confirmation sent' };
const JSON_BODY = { 'Content-Type': 'application/json' };
const FORM_BODY = { 'Content-Type': 'application/x-www-form-urlencoded' };

const Subscriber = z.object({ id: z.string(), state: z.string(), confirmed: z.boolean() });

type Reach = () => Readonly<{ topology: Topology; at: (path: string) => string }>;

export const edgeSubscriptionTests = (reach: Reach) => {
  const subscriber = (email: string) =>
    reach().topology.env.t.db.maybeOne(sql.type(Subscriber)`
      SELECT id, state, confirmed_at IS NOT NULL AS confirmed FROM subscribers
      WHERE target = ${email} AND channel = 'email'`);

  const signUp = (email: string, from: string, headers: Record<string, string> = {}) =>
    send(reach().at(SIGNUP), {
      method: 'POST',
      from,
      headers: { ...headers, ...JSON_BODY },
      body: JSON.stringify({ email }),
    });

  /** Signs `email` up from `from` through the proxy; the confirm link its mail carries. */
  const signUpForLink = async (email: string, from: string) => {
    const arriving = reach().topology.smtp.next(email);
    const answer = await signUp(email, from);
    expect([answer.status, JSON.parse(answer.body), answer.headers['cache-control']]).toEqual([
      202,
      SENT,
      'no-store',
    ]);
    const mail = await simpleParser((await arriving).raw);
    return linkIn(mail.text ?? '', 'Confirm the subscription');
  };

  /** How many GETs of the confirm page the API has answered itself. */
  const confirmPagesServed = () =>
    reach()
      .topology.apiLog()
      .filter((line) => line['method'] === 'GET' && line['path'] === CONFIRM_PATH).length;

  it('signs a reader up: the mailed link’s GET shows the form to each reader from the API, only its POST confirms', async () => {
    const { at, topology } = reach();
    const confirm = await signUpForLink('reader@example.org', '127.0.0.1');
    expect(confirm).toMatch(/^\/s\/acme\/subscription\/confirm\?token=/);

    const servedBefore = confirmPagesServed();
    const form = await get(at(confirm));
    expect([form.status, form.headers['cache-control']]).toEqual([200, 'no-store']);
    expect(form.body).toContain(`<form method="post" action="${confirm.replace(/&/g, '&amp;')}">`);
    expect(await subscriber('reader@example.org')).toMatchObject({ state: 'pending', confirmed: false });
    // Another reader's GET of the same URL must reach the API, not a copy the proxy kept.
    const again = await get(at(confirm), { from: '127.0.0.2' });
    expect([again.status, again.headers['cache-control'], again.body]).toEqual([200, 'no-store', form.body]);
    const bothServed = () => confirmPagesServed() >= servedBefore + 2;
    await topology.waitForApiLine(bothServed, 10_000).catch(() => undefined); // counted just below
    expect(confirmPagesServed() - servedBefore).toBe(2);

    const confirmed = await send(at(confirm), { method: 'POST', headers: FORM_BODY, body: '' });
    expect([confirmed.status, confirmed.headers['cache-control']]).toEqual([200, 'no-store']);
    expect(confirmed.body).toContain('Subscription confirmed');
    expect(await subscriber('reader@example.org')).toMatchObject({ state: 'active', confirmed: true });
  });

  it('bounds sign-ups per reader: 127.0.0.2 reaches the limit, whatever X-Forwarded-For it sends; 127.0.0.1 does not', async () => {
    for (let i = 1; i <= 5; i += 1)
      expect((await signUp(`burst${String(i)}@example.org`, '127.0.0.2')).status).toBe(202);
    const sixth = await signUp('burst6@example.org', '127.0.0.2', { 'X-Forwarded-For': '127.0.0.9' });
    expect([sixth.status, JSON.parse(sixth.body)]).toEqual([429, { error: 'too many requests' }]);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await subscriber('burst6@example.org')).toBeNull();
    const other = await signUp('burst6@example.org', '127.0.0.1', { 'X-Forwarded-For': '127.0.0.2' });
    expect([other.status, JSON.parse(other.body)]).toEqual([202, SENT]);
  });

  it('unsubscribes with one click (RFC 8058) at the List-Unsubscribe URL of a notification mail', async () => {
    const { at, topology } = reach();
    const email = 'leaving@example.org';
    const confirm = await signUpForLink(email, '127.0.0.3');
    expect((await get(at(confirm), { from: '127.0.0.3' })).status).toBe(200);
    const confirmed = await send(at(confirm), {
      method: 'POST',
      from: '127.0.0.3',
      headers: FORM_BODY,
      body: '',
    });
    expect(confirmed.status).toBe(200);
    const row = await subscriber(email);
    expect(row?.state).toBe('active');

    const mail = await notificationMail(topology, row!.id, email);
    const header = (name: string) => mail.headerLines.find((h) => h.key === name)?.line;
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const listed = /^List-Unsubscribe: <(http[^>]+)>$/.exec(header('list-unsubscribe') ?? '')?.[1];
    expect(listed).toMatch(/\/s\/acme\/subscription\/unsubscribe\?token=/);
    const unsubscribe = pathOf(listed!);

    // A mail provider posts it from an address of its own.
    const once = await send(at(unsubscribe), {
      method: 'POST',
      from: '127.0.0.4',
      headers: FORM_BODY,
      body: 'List-Unsubscribe=One-Click',
    });
    expect([once.status, once.headers['cache-control']]).toEqual([200, 'no-store']);
    expect(once.body).toContain('Unsubscribed');
    expect(await subscriber(email)).toBeNull();
    // The link died with the row: no copy of its form kept by the proxy answers instead.
    expect((await get(at(confirm), { from: '127.0.0.3' })).status).toBe(404);
  });
};
