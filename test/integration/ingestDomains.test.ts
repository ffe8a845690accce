// "One domain, one page" at the ingest door, and the operator's certificate check that reads the
// same write model.
import express, { type Express } from 'express';
import { pino } from 'pino';
import { sql } from 'slonik';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { domainCheckRouter } from '../../src/http/domainCheck.ts';
import { ingestRouter } from '../../src/ingest/ingestRouter.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';

const TOKEN = 'ingest-token-for-tests-0123456789';
const AT = '2026-11-22T11:00:00Z';
const OWN_HOST = 'status.example.com';

const configured = (page: string, customDomain: string | null) => ({
  type: 'page.configured',
  page,
  at: AT,
  data: { title: page, plan: 'growth', custom_domain: customDomain },
});
const deleted = (page: string) => ({ type: 'page.deleted', page, at: AT, data: {} });

describe('custom domains at ingest', () => {
  let t: TestDatabase;
  let app: Express;

  beforeAll(async () => {
    t = await freshDatabase();
    const log = pino({ level: 'silent' });
    app = express()
      .use(
        ingestRouter({
          db: t.db,
          ingestToken: TOKEN,
          clock: () => new Date('2026-11-22T12:00:00Z'),
          log,
          wake: () => Promise.resolve(),
          ownHost: OWN_HOST,
        }),
      )
      .use(domainCheckRouter(t.db, log));
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (batch: unknown[]) =>
    request(app)
      .post('/v1/events')
      .set('Authorization', `Bearer ${TOKEN}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(batch));
  const logCount = () =>
    t.db.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM event_log`);
  const accepted = async (batch: unknown[]) => {
    const res = await post(batch);
    expect(res.status).toBe(202);
    expect((res.body as { accepted: number }).accepted).toBe(batch.length);
  };
  /** The batch must be refused with exactly these details, and nothing of it appended. */
  const refused = async (batch: unknown[], details: { index: number; message: string }[]) => {
    const before = await logCount();
    const res = await post(batch);
    expect([res.status, res.body]).toEqual([400, { error: 'invalid events', details }]);
    expect(await logCount()).toBe(before);
  };
  const check = (domain: string) =>
    request(app).get(`/v1/domains/check?domain=${encodeURIComponent(domain)}`);
  const holderOf = async (domain: string) => {
    const res = await check(domain);
    return res.status === 200 ? (res.body as { page: string }).page : res.status;
  };

  it('refuses a domain another live page holds, naming both, whatever its case or form', async () => {
    await accepted([configured('alpha', 'Status.Alpha.TEST')]);
    const taken = 'data.custom_domain: "status.alpha.test" is already the custom domain of page "alpha"';
    await refused([configured('beta', 'status.alpha.test')], [{ index: 0, message: taken }]);
    await refused([configured('beta', 'STATUS.ALPHA.test')], [{ index: 0, message: taken }]);
    // beta was not created either: the whole batch went
    await refused(
      [configured('beta', null), { ...configured('beta', 'status.alpha.test'), at: AT }],
      [{ index: 1, message: taken }],
    );
    expect(await holderOf('status.alpha.test')).toBe('alpha');
  });

  it("refuses the service's own public host", async () => {
    await refused(
      [configured('gamma', 'STATUS.example.com')],
      [{ index: 0, message: 'data.custom_domain: "status.example.com" is this service\'s own host' }],
    );
  });

  it('lets a page keep, change and drop its own domain', async () => {
    await accepted([configured('delta', 'status.delta.test')]);
    await accepted([configured('delta', 'STATUS.delta.test')]);
    expect(await holderOf('status.delta.test')).toBe('delta');
    await accepted([configured('delta', 'status.delta-new.test')]);
    expect(await holderOf('status.delta.test')).toBe(404);
    expect(await holderOf('status.delta-new.test')).toBe('delta');
    await accepted([configured('delta', null)]);
    expect(await holderOf('status.delta-new.test')).toBe(404);
  });

  it('moves a domain from one page to another, in one batch or two', async () => {
    await accepted([configured('from', 'status.moving.test')]);
    await accepted([configured('from', null), configured('to', 'status.moving.test')]);
    expect(await holderOf('status.moving.test')).toBe('to');
    await accepted([configured('to', 'status.elsewhere.test')]);
    await accepted([configured('from', 'status.moving.test')]);
    expect(await holderOf('status.moving.test')).toBe('from');
  });

  it('refuses the second of two pages claiming one domain in one batch', async () => {
    await refused(
      [configured('one', 'status.twice.test'), configured('two', 'status.twice.test')],
      [
        {
          index: 1,
          message: 'data.custom_domain: "status.twice.test" is already the custom domain of page "one"',
        },
      ],
    );
    expect(await holderOf('status.twice.test')).toBe(404);
  });

  it('lets exactly one of two concurrent batches claim a domain', async () => {
    const answers = await Promise.all(
      ['race-a', 'race-b'].map((page) => post([configured(page, 'status.race.test')])),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([202, 400]);
    const winner = answers[0]?.status === 202 ? 'race-a' : 'race-b';
    expect(await holderOf('status.race.test')).toBe(winner);
  });

  it('frees the domain of a deleted page', async () => {
    await accepted([configured('doomed', 'status.doomed.test')]);
    await accepted([deleted('doomed')]);
    expect(await holderOf('status.doomed.test')).toBe(404);
    await accepted([configured('heir', 'status.doomed.test')]);
    expect(await holderOf('status.doomed.test')).toBe('heir');
    // the deleted page configured again may not take it back
    await refused(
      [configured('doomed', 'status.doomed.test')],
      [
        {
          index: 0,
          message: 'data.custom_domain: "status.doomed.test" is already the custom domain of page "heir"',
        },
      ],
    );
  });

  it('compares internationalised names by their punycode form', async () => {
    await accepted([configured('umlaut', 'status.bücher.test')]);
    await refused(
      [configured('ascii', 'status.xn--bcher-kva.test')],
      [
        {
          index: 0,
          message:
            'data.custom_domain: "status.xn--bcher-kva.test" is already the custom domain of page "umlaut"',
        },
      ],
    );
    expect(await holderOf('status.xn--bcher-kva.test')).toBe('umlaut');
    expect(await holderOf('STATUS.BÜCHER.TEST')).toBe('umlaut');
  });

  describe('GET /v1/domains/check', () => {
    it('answers 200 with the page for a live custom domain, by any form of its name', async () => {
      await accepted([configured('checked', 'status.checked.test')]);
      for (const form of [
        'status.checked.test',
        'STATUS.Checked.test',
        'status.checked.test.',
        'status.checked.test:443',
      ]) {
        const res = await check(form);
        expect([res.status, res.body]).toEqual([200, { domain: 'status.checked.test', page: 'checked' }]);
      }
    });

    it('answers 404 for any other name, and 400 without one', async () => {
      for (const name of ['unknown.test', OWN_HOST, 'not a host', '[::1]']) {
        const res = await check(name);
        expect([res.status, res.body]).toEqual([404, { error: 'not found' }]);
      }
      const missing = await request(app).get('/v1/domains/check');
      expect([missing.status, missing.body]).toEqual([400, { error: 'missing domain' }]);
    });
  });
});
