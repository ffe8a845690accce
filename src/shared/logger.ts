import { pino, type Logger } from 'pino';

export type { Logger };

// Tokens must never reach a log line, whatever object a caller hands over.
const redact = {
  paths: ['auth_token', '*.auth_token', 'req.headers.authorization', 'headers.authorization', 'token'],
  censor: '[redacted]',
};

export const createLogger = (level: string, name = 'statuspage'): Logger => pino({ name, level, redact });
