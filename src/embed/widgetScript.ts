import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { catalogues } from '../../projections/locale/catalogues.ts';
import type { MessageKey } from '../../projections/locale/messages/en.ts';
import { statusWordKeys } from '../../projections/locale/statusWords.ts';

// The messages the widget shows, in every language: a few hundred bytes each, so one script
// serves every embed whatever its data-lang.
const WIDGET_KEYS: readonly MessageKey[] = [
  ...Object.values(statusWordKeys),
  'widget.loading',
  'widget.unknown',
  'widget.responseTime',
  'widget.uptime',
  'widget.noData',
];

const MARKER = '/*MESSAGES*/ null';

const widgetMessages = (): string =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(catalogues).map(([locale, catalogue]) => [
        locale,
        Object.fromEntries(WIDGET_KEYS.map((key) => [key, catalogue[key]])),
      ]),
    ),
  );

const source = readFileSync(new URL('./widgetScript.js', import.meta.url), 'utf8');
if (!source.includes(MARKER)) throw new Error('widgetScript.js has lost its messages marker');

// Made once at startup: the script is static, so its bytes and ETag never change while the process runs.
export const widgetScriptBytes: Buffer = Buffer.from(source.replace(MARKER, widgetMessages()), 'utf8');

export const widgetScriptEtag: string = `"${createHash('sha1')
  .update(widgetScriptBytes)
  .digest('base64url')
  .slice(0, 27)}"`;
