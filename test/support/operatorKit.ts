// The metric names the operator's kit depends on: the alert rules (deploy/prometheus/alerts.yml),
// the Grafana dashboard (deploy/grafana/statuspage.json) and the KEDA trigger's fields
// (deploy/kubernetes/worker-scaledobject.yaml). Tests check them against a real scrape, so a
// renamed metric fails a test instead of silencing an alert or blanking a panel.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const deployFile = (...path: string[]): string => join(root, 'deploy', ...path);

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression selects: identifiers that are not functions (followed by
 * `(`), keywords, label names (inside `{…}` or the `(…)` of by/without/on/ignoring) or
 * template variables.
 */
export const promqlMetricNames = (expr: string): string[] => {
  const text = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""') // strings
    .replace(/\{[^{}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges and subqueries
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ') // label lists
    .replace(/\$\w+/g, ' '); // Grafana variables ($__rate_interval, $route)
  const names = new Set<string>();
  for (const match of text.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const name = match[0];
    const after = text.slice(match.index + name.length).trimStart();
    const before = text.slice(0, match.index);
    if (after.startsWith('(') || KEYWORDS.has(name.toLowerCase())) continue;
    if (/[0-9.]$/.test(before) || /\d[smhdwy]$/.test(before + name)) continue; // 5m, 1e3
    names.add(name);
  }
  return [...names];
};

type Rule = { alert?: string; record?: string; expr: string; for?: string };
type RuleFile = { groups: { name: string; rules: Rule[] }[] };

export const alertRules = (): Rule[] =>
  (parse(readFileSync(deployFile('prometheus', 'alerts.yml'), 'utf8')) as RuleFile).groups.flatMap(
    (group) => group.rules,
  );

type Panel = { title?: string; targets?: { expr?: string }[]; panels?: Panel[] };

export const dashboard = (): { panels: Panel[]; templating?: { list: { query?: unknown }[] } } =>
  JSON.parse(readFileSync(deployFile('grafana', 'statuspage.json'), 'utf8')) as {
    panels: Panel[];
  };

/** Every PromQL expression of the dashboard: panels' targets and template variables' queries. */
export const dashboardExpressions = (): string[] => {
  const board = dashboard();
  const panels = (list: Panel[]): Panel[] => list.flatMap((panel) => [panel, ...panels(panel.panels ?? [])]);
  const targets = panels(board.panels).flatMap((panel) => (panel.targets ?? []).flatMap((t) => t.expr ?? []));
  const variables = (board.templating?.list ?? []).flatMap((v) => {
    const query = typeof v.query === 'string' ? v.query : (v.query as { query?: string } | undefined)?.query;
    // label_values(metric, label) names a metric too
    const metric = query ? /label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)/.exec(query)?.[1] : undefined;
    return metric ? [metric] : [];
  });
  return [...targets, ...variables];
};

/** The documents of every manifest under deploy/kubernetes/. */
export const kubernetesDocuments = (): { file: string; doc: Record<string, unknown> }[] => {
  const dir = deployFile('kubernetes');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8'))
        .map((doc) => doc.toJS() as Record<string, unknown> | null)
        .filter((doc): doc is Record<string, unknown> => doc !== null)
        .map((doc) => ({ file, doc })),
    );
};

/** The metric names the rules and the dashboard select, sorted. */
export const metricsTheKitNames = (): string[] =>
  [
    ...new Set(
      [...alertRules().map((rule) => rule.expr), ...dashboardExpressions()].flatMap(promqlMetricNames),
    ),
  ].sort();
