// Writes deploy/kubernetes/prometheusrule.yaml from alerts.yml (the same rules for the Prometheus
// Operator). Run after changing alerts.yml: node deploy/prometheus/toPrometheusRule.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { format } from 'prettier';
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
  '# Generated from deploy/prometheus/alerts.yml by deploy/prometheus/toPrometheusRule.mjs; a test\n' +
  '# checks the two hold the same rules.\n';
const text = header + stringify(rule, { lineWidth: 0 });
writeFileSync(here('../kubernetes/prometheusrule.yaml'), await format(text, { parser: 'yaml' }));
