// The custom-domain claims a batch changes (pure): for each page whose settings an event of the
// batch touched, its claim as the batch leaves it. A page without a domain has no claim; a
// deleted page keeps its claim (its domain answers as its /s/{slug} does).
import type { PageState } from '../types.ts';
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { dropDomainClaim, putDomainClaim } from './storage.ts';
import type { WriteOp } from '../store/writeOps.ts';
import { normalizeHost } from '../../src/shared/hostName.ts';

const domainOf = (state: PageState | null): string | null =>
  state?.settings.customDomain == null ? null : normalizeHost(state.settings.customDomain);

export const planDomains = (
  tag: string,
  events: readonly ProjectedEvent[],
  states: ReadonlyMap<string, PageState | null>,
): WriteOp[] => {
  const since = new Map<string, string>();
  for (const event of events)
    if (event.type === 'page.configured' || event.type === 'page.deleted')
      since.set(event.page, event.position);
  return [...since].map(([slug, position]) => {
    const domain = domainOf(states.get(slug) ?? null);
    return domain === null
      ? dropDomainClaim({ tag, slug })
      : putDomainClaim({ tag, slug }, { domain, since: position });
  });
};
