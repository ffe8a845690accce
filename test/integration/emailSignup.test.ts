// The public email sign-up (docs/notifications.md, "Email subscribers"): one answer for every
// well-formed address, the contract's errors, the throttles in Redis (no address there), double
// opt-in through the confirm page's POST, manage, one-click unsubscribe, erasure after 7 days.
import { simpleParser } from 'mailparser';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseUnconfirmed } from '../../src/notify/email/subscriberStore.ts';
import { scanKeys } from '../../src/store/scanKeys.ts';
import { pageConfigured } from '../support/events.ts';
import { startSignupFixture, PRIVATE_TOKEN, type SignupFixture } from '../support/signupFixture.ts';

const SENT = { status: 'confirmation sent' };
const SIGNUP = '/api/status-pages/acme/subscribers';

/** The first link in the mail's text after `label: `, as a path on the public origin. */
const linkIn = (text: string, label: string): string => {
  const url = new RegExp(`${label}: (http://status\\.test\\S+)`).exec(text)?.[1];
  if (url === undefined) throw new Error(`no "${label}" link in:\n${text}`);
  return url.slice('http://status.test'.length);
};

describe('the public email sign-up', { timeout: 60_000 }, () => {
  let f: SignupFixture;
  let client = 0;
  /** Each call a new client address, so the per-client bound stays out of the way. */
  const from = () => `198.51.100.${String((client += 1))}`;
  const signUp = (body: object, ip = from()) =>
    request(f.app()).post(SIGNUP).set('X-Forwarded-For', ip).send(body);
  const mailTo = async (email: string, send: () => Promise<unknown>) => {
    const arriving = f.smtp.next(email);
    await send();
    return simpleParser((await arriving).raw);
  };

  beforeAll(async () => {
    f = await startSignupFixture();
  });
  afterAll(() => f.close());

  it('answers 202 and mails a confirm link; only the confirm page’s POST confirms', async () => {
    let res: request.Response | undefined;
    const mail = await mailTo('new@example.org', async () => {
      res = await signUp({ email: ' New@Example.org ', components: ['API'] });
    });
    expect([res?.status, res?.body, res?.headers['cache-control']]).toEqual([202, SENT, 'no-store']);
    expect(mail.subject).toBe('Confirm your subscription to Acme <Cloud>');
    expect(mail.headers.has('list-unsubscribe')).toBe(false);
    expect(await f.row('New@Example.org')).toEqual({
      id: expect.stringMatching(/^sub_[A-Za-z0-9_-]{22}$/),
      state: 'pending',
      components: ['API'],
      confirmed: false,
    });

    const confirm = linkIn(mail.text ?? '', 'Confirm the subscription');
    expect(confirm).toMatch(/^\/s\/acme\/subscription\/confirm\?token=/);
    const page = await request(f.app()).get(confirm);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).toContain(`<form method="post" action="${confirm.replace(/&/g, '&amp;')}">`);
    expect(page.text).not.toContain('<script>');
    expect((await f.row('New@Example.org'))?.state).toBe('pending'); // following the link confirms nothing

    const confirmed = await request(f.app()).post(confirm);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Subscription confirmed');
    expect(await f.row('New@Example.org')).toMatchObject({ state: 'active', confirmed: true });
  });

  it('answers a known address exactly as a new one, and mails it its manage link instead', async () => {
    const first = await mailTo('known@example.org', () => signUp({ email: 'known@example.org' }));
    await request(f.app()).post(linkIn(first.text ?? '', 'Confirm the subscription'));
    const before = await f.row('known@example.org');
    let res: request.Response | undefined;
    const again = await mailTo('known@example.org', async () => {
      res = await signUp({ email: 'KNOWN@example.org', components: ['Database'] });
    });
    expect([res?.status, res?.body]).toEqual([202, SENT]);
    expect(await f.row('known@example.org')).toEqual(before); // scope unchanged by a stranger
    expect(again.subject).toBe('Your subscription to Acme <Cloud>');
    expect(linkIn(again.text ?? '', 'Manage your subscription')).toMatch(/^\/s\/acme\/subscription\?token=/);
  });

  it('refuses a malformed address, unknown components, unknown pages and private pages without their token', async () => {
    const bad = await signUp({ email: 'not-an-address' });
    expect([bad.status, bad.body, bad.headers['content-type']]).toEqual([
      400,
      { error: 'invalid email' },
      'application/json; charset=utf-8',
    ]);
    const unknown = await signUp({ email: 'scope@example.org', components: ['API', 'Billing'] });
    expect([unknown.status, unknown.body]).toEqual([
      400,
      { error: 'unknown components', details: ['Billing'] },
    ]);
    const missing = await request(f.app())
      .post('/api/status-pages/nope/subscribers')
      .send({ email: 'a@example.org' });
    expect([missing.status, missing.body]).toEqual([404, { error: 'not found' }]);
    const locked = await request(f.app())
      .post('/api/status-pages/vault/subscribers')
      .send({ email: 'a@example.org' });
    expect([locked.status, locked.body]).toEqual([401, { error: 'auth required' }]);
    const open = await request(f.app())
      .post('/api/status-pages/vault/subscribers')
      .set('Authorization', `Bearer ${PRIVATE_TOKEN}`)
      .send({ email: 'vault@example.org' });
    expect([open.status, open.body]).toEqual([202, SENT]);
    expect(await f.row('scope@example.org')).toBeNull();
  });

  it('takes an HTML form post and answers a browser with a page', async () => {
    const res = await request(f.app())
      .post(SIGNUP)
      .set('X-Forwarded-For', from())
      .set('Accept', 'text/html,application/xhtml+xml')
      .type('form')
      .send('email=form%40example.org&components=API&components=Database');
    expect(res.status).toBe(202);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('Check your inbox');
    expect((await f.row('form@example.org'))?.components).toEqual(['API', 'Database']);
  });

  it('bounds sign-ups per client and page (5 an hour) and mails per address (3 a day), in Redis without addresses', async () => {
    const ip = '203.0.113.7';
    for (let i = 1; i <= 5; i += 1)
      expect((await signUp({ email: `burst${String(i)}@example.org` }, ip)).status).toBe(202);
    const sixth = await signUp({ email: 'burst6@example.org' }, ip);
    expect([sixth.status, sixth.body]).toEqual([429, { error: 'too many requests' }]);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await f.row('burst6@example.org')).toBeNull();
    expect((await signUp({ email: 'burst6@example.org' }, '203.0.113.8')).status).toBe(202);

    for (let i = 1; i <= 2; i += 1) expect((await signUp({ email: 'burst6@example.org' })).status).toBe(202);
    const fourth = await signUp({ email: 'Burst6@example.org' });
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(86_000);

    const keys = await scanKeys(f.env.redis, `${f.env.prefix}:mail-*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatch(
        new RegExp(`^${f.env.prefix}:mail-(signups|confirmations):\\{[A-Za-z0-9_-]{32}\\}$`),
      );
      expect(key).not.toMatch(/example|203\.0\.113/);
    }
  });

  it('lets the subscriber change components, and unsubscribes with one click (RFC 8058), twice alike', async () => {
    const mail = await mailTo('manage@example.org', () => signUp({ email: 'manage@example.org' }));
    await request(f.app()).post(linkIn(mail.text ?? '', 'Confirm the subscription'));
    const known = await mailTo('manage@example.org', () => signUp({ email: 'manage@example.org' }));
    const manage = linkIn(known.text ?? '', 'Manage your subscription');
    const form = await request(f.app()).get(manage);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<input type="checkbox" id="component-0" name="components" value="API">');
    const saved = await request(f.app())
      .post(manage)
      .type('form')
      .send('components=Database&components=Nope');
    expect(saved.status).toBe(200);
    expect((await f.row('manage@example.org'))?.components).toEqual(['Database']);

    const unsubscribe = manage.replace('/subscription?', '/subscription/unsubscribe?');
    const once = await request(f.app()).post(unsubscribe).type('form').send('List-Unsubscribe=One-Click');
    expect(once.status).toBe(200);
    expect(await f.row('manage@example.org')).toBeNull();
    expect(
      (await request(f.app()).post(unsubscribe).type('form').send('List-Unsubscribe=One-Click')).status,
    ).toBe(200);
    expect((await request(f.app()).get(manage)).status).toBe(404); // the link died with the row
  });

  it('refuses an expired confirm link and erases unconfirmed sign-ups after 7 days', async () => {
    const mail = await mailTo('late@example.org', () => signUp({ email: 'late@example.org' }));
    const confirm = linkIn(mail.text ?? '', 'Confirm the subscription');
    f.env.setNow(Date.parse('2026-11-22T12:00:30Z') + 48 * 3600_000);
    try {
      expect((await request(f.app()).post(confirm)).status).toBe(404);
      expect((await f.row('late@example.org'))?.state).toBe('pending');
    } finally {
      f.env.setNow('2026-11-22T12:00:30Z');
    }
    const now = new Date();
    const sixDays = new Date(now.getTime() + 6 * 86_400_000);
    expect(await eraseUnconfirmed(f.env.t.db, sixDays)).toBe(0);
    const erased = await eraseUnconfirmed(f.env.t.db, new Date(now.getTime() + 7 * 86_400_000 + 60_000));
    expect(erased).toBeGreaterThan(0);
    expect(await f.row('late@example.org')).toBeNull();
    expect(await f.row('known@example.org')).toMatchObject({ state: 'active' }); // confirmed ones stay
  });

  it('is off without a mail transport: 404, and the status page links to the form only when on', async () => {
    const off = f.app(false);
    expect((await request(off).post(SIGNUP).send({ email: 'a@example.org' })).status).toBe(404);
    expect((await request(off).get('/s/acme/subscribe')).status).toBe(404);
    expect((await request(off).get('/s/acme')).text).not.toContain('/s/acme/subscribe');
    expect((await request(f.app()).get('/s/acme')).text).toContain(
      '<a class="subscribe-link" href="/s/acme/subscribe">Subscribe to updates</a>',
    );
    const unknown = await request(f.app()).get('/s/nope/subscribe');
    expect([unknown.status, unknown.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    const form = await request(f.app()).get('/s/acme/subscribe');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form method="post" action="/api/status-pages/acme/subscribers">');
    expect(form.text).toContain('<h1>Subscribe to Acme &lt;Cloud&gt;</h1>');
  });

  it("mails a German page's readers in German, and shows its pages in German", async () => {
    let status: number | undefined;
    const mail = await mailTo('leser@example.org', async () => {
      status = (
        await request(f.app())
          .post('/api/status-pages/kaffee/subscribers')
          .set('X-Forwarded-For', from())
          .send({ email: 'leser@example.org' })
      ).status;
    });
    expect(status).toBe(202);
    expect(mail.subject).toBe('Bestätigen Sie Ihr Abonnement von Kaffee GmbH');
    expect(mail.headers.get('content-language')).toBe('de');
    expect(mail.text).toContain(
      'Jemand, wahrscheinlich Sie, möchte Updates von Kaffee GmbH an diese Adresse erhalten.',
    );
    expect(String(mail.html)).toContain('<html lang="de">');
    expect(String(mail.html)).toContain('Der Link ist 48 Stunden gültig.');
    // The mail's link carries no language: the page's own applies.
    const confirm = linkIn(mail.text ?? '', 'Abonnement bestätigen');
    expect(confirm).toMatch(/^\/s\/kaffee\/subscription\/confirm\?token=[^&]+$/);
    const page = await request(f.app()).get(confirm);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="de">');
    expect(page.text).toContain('<h1>Bestätigen Sie Ihr Abonnement von Kaffee GmbH</h1>');
    const done = await request(f.app()).post(confirm);
    expect(done.text).toContain('<h1>Abonnement bestätigt</h1>');
  });

  it('speaks the language ?lang= names, carries it on, and refuses one there is not', async () => {
    const form = await request(f.app()).get('/s/acme/subscribe?lang=ja');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<html lang="ja">');
    expect(form.text).toContain('<h1>Acme &lt;Cloud&gt; を購読</h1>');
    expect(form.text).toContain('<form method="post" action="/api/status-pages/acme/subscribers?lang=ja">');
    expect(form.text).toContain('<a class="top-tag" href="/s/acme?lang=ja">ステータスページに戻る</a>');
    expect((await request(f.app()).get('/s/acme?lang=ja')).text).toContain(
      '<a class="subscribe-link" href="/s/acme/subscribe?lang=ja">',
    );
    const sent = await request(f.app())
      .post('/api/status-pages/acme/subscribers?lang=ja')
      .set('X-Forwarded-For', from())
      .set('Accept', 'text/html')
      .type('form')
      .send('email=ja%40example.org');
    expect(sent.status).toBe(202);
    expect(sent.text).toContain('<h1>受信トレイをご確認ください</h1>');
    // A German page read in English: the form's words follow the reader, the mail the page.
    const english = await request(f.app()).get('/s/kaffee/subscribe?lang=en');
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('<h1>Subscribe to Kaffee GmbH</h1>');

    const missing = await request(f.app()).get('/s/nope/subscribe?lang=fr');
    expect([missing.status, missing.text.includes('<html lang="fr">')]).toEqual([404, true]);
    const unknown = await request(f.app()).get('/s/acme/subscribe?lang=xx');
    expect([unknown.status, unknown.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
    expect(unknown.text).toContain('<html lang="en">');
    expect(unknown.text).toContain('Language not available');
    const german = await request(f.app()).get('/s/kaffee/subscribe?lang=de-DE');
    expect([german.status, german.text.includes('Sprache nicht verfügbar')]).toEqual([400, true]);
    const post = await request(f.app())
      .post('/api/status-pages/acme/subscribers?lang=xx')
      .set('X-Forwarded-For', from())
      .set('Accept', 'text/html')
      .type('form')
      .send('email=xx%40example.org');
    expect(post.status).toBe(400);
    expect(post.text).toContain('<a href="/s/acme/subscribe?lang=de" hreflang="de"');
    expect(await f.row('xx@example.org')).toBeNull();
    // A link with a token keeps it: the 400 page's languages are that same link in each.
    const tokened = await request(f.app()).get('/s/acme/subscription?token=abc&lang=xx');
    expect(tokened.status).toBe(400);
    expect(tokened.text).toContain('<a href="/s/acme/subscription?token=abc&amp;lang=ja" hreflang="ja"');
  });

  it('unsubscribes with the signed link even once the page is blocked', async () => {
    const mail = await mailTo('blocked@example.org', () =>
      request(f.app())
        .post('/api/status-pages/beta/subscribers')
        .set('X-Forwarded-For', from())
        .send({ email: 'blocked@example.org' }),
    );
    await request(f.app()).post(linkIn(mail.text ?? '', 'Confirm the subscription'));
    const known = await mailTo('blocked@example.org', () =>
      request(f.app())
        .post('/api/status-pages/beta/subscribers')
        .set('X-Forwarded-For', from())
        .send({ email: 'blocked@example.org' }),
    );
    const unsubscribe = linkIn(known.text ?? '', 'Manage your subscription').replace(
      '/subscription?',
      '/subscription/unsubscribe?',
    );
    await f.env.append(pageConfigured('beta', { blocked: true }, '2026-11-22T12:00:00Z'));
    await f.env.project();
    expect(
      (await request(f.app()).post('/api/status-pages/beta/subscribers').send({ email: 'x@example.org' }))
        .status,
    ).toBe(404);
    const res = await request(f.app()).post(unsubscribe).type('form').send('List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    expect(await f.row('blocked@example.org')).toBeNull();
    const forged = await request(f.app()).post('/s/beta/subscription/unsubscribe?token=x.y');
    expect(forged.status).toBe(404);
  });

  it('never writes an address to the log', () => {
    expect(f.logs.length).toBeGreaterThan(0);
    for (const line of f.logs) expect(line).not.toMatch(/@example\.org/i);
  });
});
