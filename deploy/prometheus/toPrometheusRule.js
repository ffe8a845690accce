// Writes deploy/kubernetes/prometheusrule.yaml from alerts.yml (the same rules for the Prometheus
// Operator). Run after changing alerts.yml: node deploy/prometheus/toPrometheusRule.js
import { readFileSync, writeFileSync } from 'node:fs';
import { URL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parse, stringify } from 'yaml';

const here = (path) => new URL(path, import.meta.url);
const rule = {
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'PrometheusRule',
  metadata: {
    name: 'statuspage',
    namespace: 'statuspage',
    labels: { 'app.kubernetes.io/part-of': 'statuspage' },
  },
  spec: parse(readFileSync(here('alerts.yml'), 'utf8')),
};
const header =
  '# Generated from deploy/prometheus/alerts.yml by deploy/prometheus/toPrometheusRule.js; a test\n' +
  '# checks the two hold the same rules.\n';
const text = header + stringify(rule, { lineWidth: 0 });
const target = here('../kubernetes/prometheusrule.yaml');
const options = await resolveConfig(target);
writeFileSync(target, await format(text, { ...options, parser: 'yaml' }));
