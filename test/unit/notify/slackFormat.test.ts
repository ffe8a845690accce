import { describe, expect, it } from 'vitest';
import { renderSlack } from '../../../projections/notify/formats/slack.ts';
import { anIncident, incidentMessage, maintenanceMessage } from '../../support/notificationMessages.ts';

describe('Slack body', () => {
  it('has a text fallback and header, section, fields and context blocks', () => {
    expect(renderSlack(incidentMessage())).toEqual({
      text: 'Acme Status: Identified: API errors',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Identified: API errors', emoji: false } },
        { type: 'section', text: { type: 'mrkdwn', text: 'A bad deploy; rolling back.' } },
        { type: 'section', fields: [{ type: 'mrkdwn', text: '*Components*\nAPI' }] },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: '<https://status.example.com/s/acme#incident-inc-1|Acme Status> · 2026-11-29T09:10:00Z',
            },
          ],
        },
      ],
    });
  });

  it('escapes &, < and > in mrkdwn text, so <!channel> or a link cannot be injected', () => {
    const incident = anIncident({
      title: 'R&D <down>',
      updates: [
        { status: 'identified', message: '<!channel> a > b & c', created_at: '2026-11-29T09:10:00Z' },
      ],
    });
    const body = renderSlack(incidentMessage({ incident }));
    expect(body.text).toBe('Acme Status: Identified: R&amp;D &lt;down&gt;');
    // plain_text is shown as it is: Slack does not parse it
    expect(body.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Identified: R&D <down>', emoji: false },
    });
    expect(body.blocks[1]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '&lt;!channel&gt; a &gt; b &amp; c' },
    });
  });

  it('cuts the header to 150 and the section to 3,000 characters', () => {
    const incident = anIncident({
      title: 'x'.repeat(200),
      updates: [{ status: 'identified', message: 'y'.repeat(5000), created_at: '2026-11-29T09:10:00Z' }],
    });
    const body = renderSlack(incidentMessage({ incident }));
    expect(body.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: `Identified: ${'x'.repeat(137)}…`, emoji: false },
    });
    expect(body.blocks[1]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: `${'y'.repeat(2999)}…` },
    });
  });

  it('shows every coalesced update, oldest first, with its state', () => {
    const body = renderSlack(incidentMessage({ coalesced: 2 }));
    expect(body.blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: 'Investigating: We are looking into errors.\n\nIdentified: A bad deploy; rolling back.',
      },
    });
  });

  it('shows a maintenance with its window', () => {
    const body = renderSlack(maintenanceMessage());
    expect(body.text).toBe('Acme Status: Maintenance scheduled: Database upgrade');
    expect(body.blocks[2]).toEqual({
      type: 'section',
      fields: [{ type: 'mrkdwn', text: '*Window*\n2026-12-01T02:00:00Z – 2026-12-01T03:00:00Z' }],
    });
  });
});
