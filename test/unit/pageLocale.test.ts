// page.configured `locale` (docs/status-page.md, "Languages"): a supported BCP 47 tag in any case,
// stored in its canonical spelling; anything else refused at ingest with the set it may be.
import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../src/events/parseEvent.ts';
import { evolvePageState } from '../../projections/pageState/pageState.ts';
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const configured = (data: object) =>
  parseEvent(
    {
      type: 'page.configured',
      page: 'acme',
      at: '2026-11-22T11:00:00Z',
      data: { title: 'Acme', plan: 'pro', ...data },
    },
    0,
    NOW,
  );

describe('page.configured locale', () => {
  it('stores a supported tag canonically, and nothing when absent (the default, en)', () => {
    for (const [sent, stored] of [
      ['en', 'en'],
      ['de', 'de'],
      ['FR', 'fr'],
      ['es', 'es'],
      ['pt-br', 'pt-BR'],
      ['ja', 'ja'],
    ])
      expect(configured({ locale: sent })).toMatchObject({ data: { locale: stored } });
    expect(configured({})).not.toHaveProperty(['data', 'locale']);
  });

  it('refuses anything else with the supported set', () => {
    for (const locale of ['it', 'pt', 'en-US', 'de_DE', '', 42])
      expect(configured({ locale })).toEqual({
        index: 0,
        message:
          typeof locale === 'number'
            ? 'data.locale: Expected string, received number'
            : 'data.locale: unsupported locale (one of en, de, fr, es, pt-BR, ja)',
      });
  });

  it('becomes the page setting, replaced by the next page.configured like every setting', () => {
    const event = (data: object) =>
      ({
        type: 'page.configured',
        page: 'acme',
        at: Date.parse('2026-11-22T11:00:00Z'),
        position: '1',
        data: {
          title: 'Acme',
          plan: 'pro',
          custom_domain: null,
          auth_token_hash: null,
          blocked: false,
          ...data,
        },
      }) as unknown as ProjectedEvent;
    const german = evolvePageState(null, event({ locale: 'de' }));
    expect(german?.settings.locale).toBe('de');
    expect(evolvePageState(german, event({}))?.settings).not.toHaveProperty('locale');
  });
});
