// The catalogues (projections/locale): every locale translates every message, with the same
// placeholders, and every message is used somewhere in the product's code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogues } from '../../projections/locale/catalogues.ts';
import { LOCALES, parseLocale, preferredLocale } from '../../projections/locale/locales.ts';
import { en, type Message } from '../../projections/locale/messages/en.ts';
import { translator } from '../../projections/locale/translate.ts';

const root = new URL('../../', import.meta.url).pathname;

const texts = (message: Message): string[] =>
  typeof message === 'string' ? [message] : Object.values(message);
const placeholders = (message: Message): string[] =>
  [...new Set(texts(message).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '')))]
    .filter((name) => name !== 'count')
    .sort();

/** Every source file that can show a message: the product's code outside the catalogues themselves. */
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory())
      return path === 'projections/locale/messages' ? [] : sources(path);
    return /\.(ts|js)$/.test(name) ? [path] : [];
  });

describe('the message catalogues', () => {
  const keys = Object.keys(en).sort();

  it.each(LOCALES)('%s has every message and no other', (locale) => {
    const catalogue: Readonly<Record<string, Message>> = catalogues[locale];
    expect(
      keys.filter((key) => !(key in catalogue)),
      'missing',
    ).toEqual([]);
    expect(
      Object.keys(catalogue).filter((key) => !(key in en)),
      'unknown',
    ).toEqual([]);
    for (const key of keys) {
      const message = catalogue[key];
      expect(message, key).toBeDefined();
      if (message === undefined) continue;
      expect(
        texts(message).every((text) => text.trim() !== ''),
        `${key} is empty`,
      ).toBe(true);
      expect(placeholders(message), `${locale} ${key}`).toEqual(placeholders(en[key as keyof typeof en]));
    }
  });

  it('uses every message somewhere in the code', () => {
    const code = ['src', 'projections']
      .flatMap(sources)
      .map((path) => readFileSync(join(root, path), 'utf8'));
    const used = (key: string) => code.some((text) => text.includes(`'${key}'`));
    expect(keys.filter((key) => !used(key))).toEqual([]);
  });

  it('chooses plural forms by the count, with the numbers of the locale', () => {
    expect(translator('en', catalogues.en).t('history.inMonth', { count: 1, month: 'May' })).toBe(
      '1 incident in May',
    );
    expect(translator('en', catalogues.en).t('history.inMonth', { count: 1200, month: 'May' })).toBe(
      '1,200 incidents in May',
    );
    // French: 0 and 1 are singular; a million is "many", which falls back to "other".
    const fr = translator('fr', catalogues.fr);
    expect(fr.t('calendar.day', { count: 0, date: '1 mai' })).toBe('1 mai : 0 incident');
    expect(fr.t('calendar.day', { count: 1_000_000, date: '1 mai' })).toBe(
      '1 mai : 1\u202f000\u202f000 incidents',
    );
    expect(translator('ja', catalogues.ja).t('history.onDay', { count: 3, day: '5月1日' })).toBe(
      '5月1日のインシデント: 3 件',
    );
  });

  it("knows the supported tags in any case, and a browser's closest language", () => {
    expect(parseLocale('PT-br')).toBe('pt-BR');
    expect(parseLocale('pt')).toBeNull();
    expect(preferredLocale(['de-AT', 'en'])).toBe('de');
    expect(preferredLocale(['pt-PT'])).toBe('pt-BR');
    expect(preferredLocale(['ko', 'ja-JP'])).toBe('ja');
    expect(preferredLocale(['ko'])).toBeNull();
  });
});
