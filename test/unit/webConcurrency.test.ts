import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { welcomeText } from '../../src/runtime/printWelcome.ts';
import { webConcurrency } from '../../src/runtime/webConcurrency.ts';

describe('WEB_CONCURRENCY', () => {
  it('defaults to the cores available, also when set empty', () => {
    expect(webConcurrency({})).toBe(os.availableParallelism());
    expect(webConcurrency({ WEB_CONCURRENCY: '' })).toBe(os.availableParallelism());
  });

  it('reads a count of processes', () => {
    expect(webConcurrency({ WEB_CONCURRENCY: '1' })).toBe(1);
    expect(webConcurrency({ WEB_CONCURRENCY: ' 8 ' })).toBe(8);
  });

  it('stops at start on a bad value, naming the variable', () => {
    for (const [value, message] of [
      ['0', 'Number must be greater than or equal to 1'],
      ['1.5', 'Expected integer, received float'],
      ['many', 'Expected number, received nan'],
      ['257', 'Number must be less than or equal to 256'],
    ] as const) {
      expect(() => webConcurrency({ WEB_CONCURRENCY: value })).toThrow(
        new ConfigError(`Invalid settings:\n  WEB_CONCURRENCY: ${message}`),
      );
    }
  });

  it('the welcome text says how many processes serve the API when more than one', () => {
    const config = loadConfig({});
    const facts = { page: null, tries: [], operatorPaths: [] };
    const line = 'The public API runs in 3 processes (WEB_CONCURRENCY; 1 for a single process).';
    expect(welcomeText(config, { ...facts, apiProcesses: 3 }).split('\n')).toContain(line);
    expect(welcomeText(config, { ...facts, apiProcesses: 1 })).not.toContain('WEB_CONCURRENCY');
    expect(welcomeText(config, facts)).not.toContain('WEB_CONCURRENCY');
  });
});
