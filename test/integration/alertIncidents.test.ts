// Incidents from alert groups (page setting alert_incidents: open): the first firing alert of a
// group opens an incident, later ones update it, the group's resolution resolves it, a group
// firing again within 10 minutes reopens it (later: a new one), and an incident a person updated
// is never resolved by alerts (a last update says they resolved; the person decides).
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { groupIncidentId } from '../../src/integrations/alertIncidents.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { amPayload, integrationsApp, type TestAlert } from '../support/integrationsFixture.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { INGEST_TOKEN, appOf } from '../support/testServers.ts';

let env: ProjectorEnv;
let app: ReturnType<typeof integrationsApp>;

const post = async (alerts: TestAlert[], group: string) =>
  (
    await request(app)
      .post('/v1/integrations/alertmanager/ops')
      .set('Authorization', `Bearer ${INGEST_TOKEN}`)
      .send(amPayload(alerts, group))
  ).body as { accepted: number; duplicates: number };

const incident = async (id: string) => {
  await env.project();
  const api = appOf(env, loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl }));
  const body = (await request(api).get('/api/status-pages/ops/incidents?page_size=100')).body as {
    incidents: { id: string; updates: unknown[] }[];
  };
  return body.incidents.find((i) => i.id === id);
};

const api = {
  fingerprint: 'api',
  labels: { alertname: 'ApiDown', statuspage_monitor: '1' },
  annotations: { summary: 'API is down', description: 'More than half of the requests fail.' },
  startsAt: '2026-11-22T10:00:00Z',
};
const db = {
  fingerprint: 'db',
  labels: { alertname: 'DbDown', statuspage_monitor: '2' },
  startsAt: '2026-11-22T10:05:00Z',
};
const update = (status: string, message: string, created_at: string) => ({ status, message, created_at });

beforeAll(async () => {
  env = await startProjectorEnv({ now: '2026-11-22T12:00:00Z' });
  await env.append(
    pageConfigured('ops', { alert_incidents: 'open' }),
    monitorConfigured('ops', 1, { name: 'API' }),
    monitorConfigured('ops', 2, { name: 'Database' }),
  );
  app = integrationsApp(env);
});
afterAll(() => env.close());

describe('incidents from alert groups', () => {
  const first = groupIncidentId('ops', 'g1', 1);

  it('opens on the first alert, updates on later ones, resolves with the group, reopens within 10 minutes', async () => {
    expect(await post([api], 'g1')).toEqual({ accepted: 2, duplicates: 0, unmapped: [] }); // check + opened
    expect(await post([api], 'g1')).toEqual({ accepted: 0, duplicates: 1, unmapped: [] }); // a repeat
    expect(await post([api, db], 'g1')).toMatchObject({ accepted: 2, duplicates: 1 }); // check + update
    const resolved = [
      { ...api, endsAt: '2026-11-22T10:20:00Z' },
      { ...db, endsAt: '2026-11-22T10:30:00Z' },
    ];
    expect(await post(resolved, 'g1')).toMatchObject({ accepted: 3, duplicates: 2 }); // 2 checks + resolved
    expect(await post(resolved, 'g1')).toMatchObject({ accepted: 0, duplicates: 4 });
    expect(await incident(first)).toEqual({
      id: first,
      title: 'API is down',
      state: 'resolved',
      started_at: '2026-11-22T10:00:00Z',
      resolved_at: '2026-11-22T10:30:00Z',
      components: ['API'],
      updates: [
        update('investigating', 'More than half of the requests fail.', '2026-11-22T10:00:00Z'),
        update('investigating', 'Also firing: DbDown', '2026-11-22T10:05:00Z'),
        update('resolved', 'All alerts of this incident have resolved.', '2026-11-22T10:30:00Z'),
      ],
    });
    // 10:35 is within 10 minutes of 10:30: the same incident reopens.
    expect(await post([{ ...api, startsAt: '2026-11-22T10:35:00Z' }], 'g1')).toMatchObject({ accepted: 2 });
    expect(await incident(first)).toMatchObject({
      state: 'investigating',
      updates: expect.arrayContaining([
        update('investigating', 'Firing again: API is down', '2026-11-22T10:35:00Z'),
      ]),
    });
  });

  it('never resolves an incident a person has updated', async () => {
    await env.append({
      type: 'incident.updated',
      page: 'ops',
      at: '2026-11-22T10:40:00Z',
      data: { incident_id: first, state: 'identified', message: 'A bad deploy; rolling back.' },
    });
    const resolved = { ...api, startsAt: '2026-11-22T10:35:00Z', endsAt: '2026-11-22T10:50:00Z' };
    expect(await post([resolved], 'g1')).toMatchObject({ accepted: 2 }); // the check and the last update
    const after = await incident(first);
    expect(after).toMatchObject({ state: 'identified' });
    expect(after).not.toHaveProperty('resolved_at');
    expect((after as { updates: unknown[] }).updates.at(-1)).toEqual(
      update(
        'identified',
        'All alerts of this incident have resolved; it stays open for you to close.',
        '2026-11-22T10:50:00Z',
      ),
    );
  });

  it('opens a new incident when the group fires more than 10 minutes after resolving', async () => {
    const g2 = { ...db, fingerprint: 'db2', startsAt: '2026-11-22T11:00:00Z' };
    await post([g2], 'g2');
    await post([{ ...g2, endsAt: '2026-11-22T11:05:00Z' }], 'g2');
    await post([{ ...g2, startsAt: '2026-11-22T11:15:01Z' }], 'g2');
    expect(await incident(groupIncidentId('ops', 'g2', 1))).toMatchObject({ state: 'resolved' });
    expect(await incident(groupIncidentId('ops', 'g2', 2))).toMatchObject({
      title: 'DbDown',
      state: 'investigating',
      started_at: '2026-11-22T11:15:01Z',
      components: ['Database'],
    });
  });
});
