import { describe, expect, it } from 'vitest';
import { DISCORD_LIMITS, renderDiscord } from '../../../projections/notify/formats/discord.ts';
import { truncate } from '../../../projections/notify/formats/truncate.ts';
import { anIncident, incidentMessage, page } from '../../support/notificationMessages.ts';

const embedLength = (embed: ReturnType<typeof renderDiscord>['embeds'][number]): number =>
  embed.title.length +
  (embed.description?.length ?? 0) +
  embed.footer.text.length +
  embed.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);

describe('Discord body', () => {
  it('has content, one embed and no mentions parsed', () => {
    expect(renderDiscord(incidentMessage())).toEqual({
      content: '**Acme Status**: Identified: API errors',
      embeds: [
        {
          title: 'Identified: API errors',
          url: 'https://status.example.com/s/acme#incident-inc-1',
          description: 'A bad deploy; rolling back.',
          color: 0xd93f0b,
          timestamp: '2026-11-29T09:10:00Z',
          fields: [{ name: 'Components', value: 'API', inline: false }],
          footer: { text: 'Acme Status' },
        },
      ],
      allowed_mentions: { parse: [] },
    });
  });

  it('keeps @everyone as text: allowed_mentions parses none', () => {
    const incident = anIncident({
      updates: [
        { status: 'identified', message: '@everyone <@123> look', created_at: '2026-11-29T09:10:00Z' },
      ],
    });
    const body = renderDiscord(incidentMessage({ incident }));
    expect(body.embeds[0]?.description).toBe('@everyone <@123> look');
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it('keeps content within 2,000 and the embed within title 256, description 4,096 and 6,000 in all', () => {
    const incident = anIncident({
      title: 't'.repeat(3000),
      components: ['c'.repeat(2000)],
      updates: [{ status: 'identified', message: 'd'.repeat(9000), created_at: '2026-11-29T09:10:00Z' }],
    });
    const body = renderDiscord(incidentMessage({ incident, page: { ...page, title: 'p'.repeat(3000) } }));
    const embed = body.embeds[0];
    if (!embed) throw new Error('no embed');
    expect(body.content).toBe(`**${'p'.repeat(1997)}…`);
    expect(embed.title).toBe(`Identified: ${'t'.repeat(243)}…`);
    expect(embed.footer.text).toBe(`${'p'.repeat(2047)}…`);
    expect(embed.fields).toEqual([{ name: 'Components', value: `${'c'.repeat(1023)}…`, inline: false }]);
    // 6,000 − (256 title + 2,048 footer + 10 + 1,024 field) = 2,662 left for the description
    expect(embed.description).toBe(`${'d'.repeat(2661)}…`);
    expect(embedLength(embed)).toBe(DISCORD_LIMITS.total);
  });

  it('never cuts through a surrogate pair', () => {
    expect(truncate(`${'a'.repeat(4)}😀b`, 6)).toBe('aaaa…');
    expect(truncate(`${'a'.repeat(3)}😀bc`, 6)).toBe('aaa😀…');
  });
});
