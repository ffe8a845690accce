import { describe, expect, it } from 'vitest';
import { renderTeams } from '../../../projections/notify/formats/teams.ts';
import { anIncident, incidentMessage, monitorMessage } from '../../support/notificationMessages.ts';

describe('Teams body', () => {
  it('is a message with one Adaptive Card attachment', () => {
    expect(renderTeams(incidentMessage())).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: 'Acme Status', size: 'Small', isSubtle: true, wrap: true },
              {
                type: 'TextBlock',
                text: 'Identified: API errors',
                size: 'Medium',
                weight: 'Bolder',
                color: 'Attention',
                wrap: true,
              },
              { type: 'TextBlock', text: 'A bad deploy; rolling back.', wrap: true },
              { type: 'FactSet', facts: [{ title: 'Components', value: 'API' }] },
              { type: 'TextBlock', text: '2026-11-29T09:10:00Z', size: 'Small', isSubtle: true, wrap: true },
            ],
            actions: [
              {
                type: 'Action.OpenUrl',
                title: 'View status page',
                url: 'https://status.example.com/s/acme#incident-inc-1',
              },
            ],
          },
        },
      ],
    });
  });

  it('colours a recovered monitor Good and links to the page', () => {
    const card = renderTeams(
      monitorMessage({ monitor: { id: '42', name: 'API', state: 'up', since: '2026-11-29T09:20:00Z' } }),
    ).attachments[0]?.content;
    expect(card?.body[1]).toMatchObject({ text: 'API is up', color: 'Good' });
    expect(card?.body[2]).toEqual({
      type: 'TextBlock',
      text: 'API has been up since 2026-11-29T09:20:00Z.',
      wrap: true,
    });
    expect(card?.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'View status page', url: 'https://status.example.com/s/acme' },
    ]);
  });

  it('cuts long text to 10,000 characters, far below the 28 KB a Teams message may hold', () => {
    const incident = anIncident({
      updates: [{ status: 'identified', message: 'z'.repeat(40_000), created_at: '2026-11-29T09:10:00Z' }],
    });
    const body = renderTeams(incidentMessage({ incident }));
    expect(body.attachments[0]?.content.body[2]).toEqual({
      type: 'TextBlock',
      text: `${'z'.repeat(9999)}…`,
      wrap: true,
    });
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(28 * 1024);
  });
});
