// Private pages configured with a token weaker than MIN_TOKEN_BITS: accepted (the spec takes any
// token of 16–200 characters), and said so to whoever ingests them (docs/ingest.md, "Page tokens").
import { isEventError, type EventError, type ParsedEvent } from '../events/parseEvent.ts';
import { MIN_TOKEN_BITS } from '../events/tokenStrength.ts';

/** One warning per weak token in `events`, by the event's index; never the token itself. */
export const weakTokenWarnings = (events: readonly (ParsedEvent | EventError)[]): EventError[] =>
  events.flatMap((event) =>
    isEventError(event) || event.weakTokenBits === undefined
      ? []
      : [
          {
            index: event.index,
            message:
              `page "${event.page}": auth_token carries at most ${String(event.weakTokenBits)} bits of randomness, ` +
              `fewer than ${String(MIN_TOKEN_BITS)}: replace it with 32 random hex characters (openssl rand -hex 16) or more`,
          },
        ],
  );
