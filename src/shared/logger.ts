import { destination, pino, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';

export type { Logger };

/** LOG_FORMAT: JSON lines, human lines, or null: human lines on a terminal, JSON otherwise. */
type LogFormat = 'json' | 'pretty' | null;

// Tokens must never reach a log line, whatever object a caller hands over.
const redact = {
  paths: ['auth_token', '*.auth_token', 'req.headers.authorization', 'headers.authorization', 'token'],
  censor: '[redacted]',
};

/**
 * Logs to stdout without blocking the event loop on every line (a request log line per request
 * under a thundering herd); what is buffered is flushed when the process exits.
 */
export const createLogger = (level: string, name = 'statuspage', format: LogFormat = null): Logger => {
  // A person at a terminal reads lines, a log collector reads JSON (LOG_FORMAT decides when set).
  if ((format ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty')
    return pino(
      { name, level, redact },
      PinoPretty({
        colorize: process.stdout.isTTY,
        singleLine: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname',
        sync: true,
      }),
    );
  // No minLength: lines still go out as they come (operators tail them; a quiet process must not sit on them).
  const stream = destination({ dest: 1, sync: false });
  process.once('exit', () => {
    try {
      stream.flushSync();
    } catch {
      // not ready yet: nothing was written
    }
  });
  return pino({ name, level, redact }, stream);
};
