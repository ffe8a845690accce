// The "Status | Operational" badge served at /badge/{slug}.svg, drawn like shields.io's flat style so it
// sits well next to other README badges, in one of the supported languages. Every text in it is one
// of our fixed labels (projections/locale), never user input.
import { translate } from '../../projections/locale/catalogues.ts';
import { DEFAULT_LOCALE, type Locale } from '../../projections/locale/locales.ts';
import { statusWordKeys } from '../../projections/locale/statusWords.ts';
import type { OverallStatus } from '../shared/overallStatus.ts';
import { escapeHtml } from '../shared/escapeHtml.ts';

const colours = {
  operational: '#4c1',
  degraded_performance: '#dfb317',
  partial_outage: '#fe7d37',
  major_outage: '#e05d44',
  under_maintenance: '#007ec6',
  unknown: '#9f9f9f',
} as const satisfies Record<OverallStatus | 'unknown', string>;

// Advance widths of Verdana at 11px (shields' font), enough for our fixed labels; other Latin letters
// fall back to 7, CJK characters (full width) to 11.
// prettier-ignore
const charWidths: Readonly<Record<string, number>> = {
  ' ': 3.87, a: 6.6, b: 6.85, c: 5.73, d: 6.85, e: 6.55, f: 3.87, g: 6.85, h: 6.96, i: 3.02, j: 3.78,
  k: 6.47, l: 3.02, m: 10.7, n: 6.96, o: 6.68, p: 6.85, q: 6.85, r: 4.69, s: 5.73, t: 4.33, u: 6.96,
  v: 6.47, w: 8.94, x: 6.47, y: 6.47, z: 5.73, A: 7.52, B: 7.55, C: 7.68, D: 8.28, E: 6.94, F: 6.33,
  G: 8.54, H: 8.27, I: 4.66, J: 4.97, K: 7.59, L: 6.13, M: 9.26, N: 8.23, O: 8.65, P: 6.64, Q: 8.65,
  R: 7.66, S: 7.51, T: 6.77, U: 8.05, V: 7.52, W: 10.88, X: 7.55, Y: 6.77, Z: 7.55,
};

const FULL_WIDTH_FROM = 0x2e80;
const widthOf = (c: string): number => charWidths[c] ?? ((c.codePointAt(0) ?? 0) >= FULL_WIDTH_FROM ? 11 : 7);
const textWidth = (text: string): number =>
  Math.round(Array.from(text).reduce((sum, c) => sum + widthOf(c), 0));

// One segment's text, drawn twice like shields: a dark shadow 1px lower, then the white text.
const segmentText = (text: string, left: number, width: number): string => {
  const x = (left + width / 2) * 10;
  const length = textWidth(text) * 10;
  text = escapeHtml(text);
  return (
    `<text aria-hidden="true" x="${x}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${length}">${text}</text>` +
    `<text x="${x}" y="140" transform="scale(.1)" fill="#fff" textLength="${length}">${text}</text>`
  );
};

/** Flat shields.io-style SVG badge for an overall status; `unknown` gives the grey "Unknown" badge. */
export const badgeSvg = (status: OverallStatus | 'unknown', locale: Locale = DEFAULT_LOCALE): string => {
  const { t } = translate(locale);
  const label = t('status.label');
  const message = t(statusWordKeys[status]);
  const labelWidth = textWidth(label) + 10;
  const messageWidth = textWidth(message) + 10;
  const width = labelWidth + messageWidth;
  const title = escapeHtml(`${label}: ${message}`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" lang="${locale}" width="${width}" height="20" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${labelWidth}" height="20" fill="#555"/>` +
    `<rect x="${labelWidth}" width="${messageWidth}" height="20" fill="${colours[status]}"/>` +
    `<rect width="${width}" height="20" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">` +
    segmentText(label, 0, labelWidth) +
    segmentText(message, labelWidth, messageWidth) +
    `</g></svg>`
  );
};
