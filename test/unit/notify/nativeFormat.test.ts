import { describe, expect, it } from 'vitest';
import { renderNative } from '../../../projections/notify/formats/native.ts';
import { anIncident, incidentMessage, monitorMessage, page } from '../../support/notificationMessages.ts';

describe('native webhook body', () => {
  it('carries the type, timestamp, page and the read API incident as it is', () => {
    expect(renderNative(incidentMessage())).toEqual({
      type: 'incident.updated',
      timestamp: '2026-11-29T09:10:00Z',
      page: { slug: 'acme', title: 'Acme Status', url: 'https://status.example.com/s/acme' },
      data: { incident: anIncident() },
    });
  });

  it('carries a monitor as {id, name, state, since} and nothing else in data', () => {
    expect(renderNative(monitorMessage())).toEqual({
      type: 'monitor.state',
      timestamp: '2026-11-29T09:05:00Z',
      page,
      data: { monitor: { id: '42', name: 'API', state: 'down', since: '2026-11-29T09:04:00Z' } },
    });
  });

  it('leaves out the message id and coalescing count, which are not part of the body', () => {
    const body = renderNative(incidentMessage({ coalesced: 3 }));
    expect(Object.keys(body)).toEqual(['type', 'timestamp', 'page', 'data']);
  });
});
