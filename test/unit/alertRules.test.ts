// deploy/prometheus/alerts.yml: promtool accepts it, its unit tests (alerts.test.yml) pass, every
// alert is tested firing there and has a runbook entry in docs/operations.md; and the parser of
// metric names the scrape tests rely on reads PromQL right.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { alertRules, deployFile, promqlMetricNames, root } from '../support/operatorKit.ts';

const run = promisify(execFile);
const promtool = async (...args: string[]) => {
  try {
    return await run('promtool', args, { cwd: deployFile('prometheus') });
  } catch (error) {
    const failure = error as { code?: string; stdout?: string; stderr?: string };
    if (failure.code === 'ENOENT')
      throw new Error('promtool not found: install Debian\'s "prometheus" package (.ci/run does)');
    throw new Error(`promtool ${args.join(' ')} failed:\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
  }
};

type TestFile = { tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[] };

describe('the alert rules', () => {
  it('pass promtool check rules and promtool test rules', async () => {
    expect((await promtool('check', 'rules', 'alerts.yml')).stdout).toContain('SUCCESS: 17 rules found');
    expect((await promtool('test', 'rules', 'alerts.test.yml')).stdout).toContain('SUCCESS');
  });

  it('each alert is tested firing and silent, and has a runbook entry', () => {
    const tests = (parse(readFileSync(deployFile('prometheus', 'alerts.test.yml'), 'utf8')) as TestFile)
      .tests;
    const cases = tests.flatMap((t) => t.alert_rule_test ?? []);
    const runbook = readFileSync(`${root}/docs/operations.md`, 'utf8');
    for (const rule of alertRules()) {
      const name = rule.alert!;
      const mine = cases.filter((c) => c.alertname === name);
      expect(
        mine.some((c) => (c.exp_alerts ?? []).length > 0),
        `${name} fires in a test`,
      ).toBe(true);
      expect(
        mine.some((c) => (c.exp_alerts ?? []).length === 0),
        `${name} stays silent in a test`,
      ).toBe(true);
      expect(runbook, `runbook entry for ${name}`).toContain(`### ${name}\n`);
    }
  });

  it('reads the metric names out of PromQL', () => {
    expect(
      promqlMetricNames(
        'sum by (namespace, le) (rate(http_request_duration_seconds_bucket{route=~"$route", status!="503"}[$__rate_interval])) / on (namespace) group_left max without (instance) (api_processes_alive offset 1h) > 0.85e1',
      ).sort(),
    ).toEqual(['api_processes_alive', 'http_request_duration_seconds_bucket']);
    expect(promqlMetricNames('redis_memory_used_bytes / (redis_memory_max_bytes > 0)').sort()).toEqual([
      'redis_memory_max_bytes',
      'redis_memory_used_bytes',
    ]);
  });
});
