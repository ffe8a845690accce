// deploy/kubernetes/: every manifest is valid against the Kubernetes, KEDA and Prometheus Operator
// schemas (the validators kubernetes-models ships, and its TypeScript interfaces for unknown
// fields: offline, no cluster), and agrees with the code:
// the settings parse, ports and commands are the ones the processes use, grace periods outlast the
// drains, the autoscaler reads the operator Service, the PrometheusRule is alerts.yml.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as keda from '@kubernetes-models/keda/keda.sh/v1alpha1';
import * as monitoring from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as batch from 'kubernetes-models/batch/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as core from 'kubernetes-models/v1';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { JOB_BUDGET_MS } from '../../src/projector/projectPartition.ts';
import { API_NODE_FLAGS } from '../../src/runtime/apiNodeFlags.ts';
import { DRAIN_WITHIN_MS } from '../../src/runtime/apiProcesses.ts';
import { manifestTypeErrors } from '../support/manifestTypes.ts';
import { deployFile, kubernetesDocuments, root } from '../support/operatorKit.ts';

type Doc = Record<string, unknown> & {
  kind: string;
  apiVersion: string;
  metadata: { name: string; labels?: Record<string, string> };
};
type Validated = { validate: () => void };
const MODELS: Record<string, new (data: never) => Validated> = {
  'v1/Namespace': core.Namespace,
  'v1/ConfigMap': core.ConfigMap,
  'v1/Secret': core.Secret,
  'v1/Service': core.Service,
  'apps/v1/Deployment': apps.Deployment,
  'batch/v1/Job': batch.Job,
  'autoscaling/v2/HorizontalPodAutoscaler': autoscaling.HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': policy.PodDisruptionBudget,
  'keda.sh/v1alpha1/ScaledObject': keda.ScaledObject,
  'monitoring.coreos.com/v1/ServiceMonitor': monitoring.ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': monitoring.PrometheusRule,
};

type Container = {
  name: string;
  command: string[];
  ports?: { name: string; containerPort: number }[];
  envFrom: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: { readOnlyRootFilesystem: boolean; allowPrivilegeEscalation: boolean };
  livenessProbe?: { httpGet: { path: string; port: string } };
  readinessProbe?: { httpGet: { path: string; port: string } };
};
type PodSpec = {
  terminationGracePeriodSeconds?: number;
  securityContext: { runAsNonRoot: boolean };
  containers: Container[];
};

const docs = kubernetesDocuments().map(({ file, doc }) => ({ file, doc: doc as Doc }));
const kustomization = docs.find((d) => d.doc.kind === 'Kustomization')!;
const manifests = docs.filter((d) => d !== kustomization);
const find = (kind: string, name: string): Doc => {
  const found = manifests.find((d) => d.doc.kind === kind && d.doc.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return found.doc;
};
const podSpec = (doc: Doc): PodSpec => (doc['spec'] as { template: { spec: PodSpec } }).template.spec;
const configMap = find('ConfigMap', 'statuspage-config')['data'] as Record<string, string>;
const secret = find('Secret', 'statuspage-secrets')['stringData'] as Record<string, string>;

/** The environment variables the code reads: config.ts's schema, the read path's, WEB_CONCURRENCY. */
const knownSettings = (): Set<string> => {
  const schemaKeys = (file: string, start: RegExp) => {
    const text = readFileSync(join(root, file), 'utf8');
    const from = text.slice(start.exec(text)!.index);
    const block = from.slice(0, from.indexOf('\n});'));
    return [...block.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
  };
  return new Set([
    ...schemaKeys('src/config.ts', /const Env = z\.object\(\{/),
    ...schemaKeys('src/http/readPathSettings.ts', /z\.object\(\{/),
    'WEB_CONCURRENCY',
  ]);
};

describe('the Kubernetes manifests', () => {
  it('are valid against the Kubernetes, KEDA and Prometheus Operator schemas', () => {
    expect(manifests.length).toBeGreaterThan(10);
    for (const { file, doc } of manifests) {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(Model, `${file}: ${doc.apiVersion} ${doc.kind} has a schema here`).toBeDefined();
      expect(
        () => new Model!(doc as never).validate(),
        `${file}: ${doc.kind} ${doc.metadata.name}`,
      ).not.toThrow();
    }
  });

  it('hold no field the Kubernetes, KEDA and Prometheus Operator APIs do not know, at any depth', () => {
    // The validators above accept unknown fields (a misspelt probe would pass): the models'
    // TypeScript interfaces do not.
    expect(manifestTypeErrors(manifests)).toEqual([]);
    const api = find('Deployment', 'statuspage-api') as Doc & { spec: { template: { spec: PodSpec } } };
    const [container] = api.spec.template.spec.containers;
    const misspelt = { ...container, readinesProbe: container?.readinessProbe };
    const typo = {
      ...api,
      spec: {
        ...api.spec,
        template: { ...api.spec.template, spec: { ...api.spec.template.spec, containers: [misspelt] } },
      },
    };
    expect(manifestTypeErrors([{ file: 'typo.yaml', doc: typo }])).toEqual([
      expect.stringContaining("'\"readinesProbe\"' does not exist in type 'IContainer'"),
    ]);
  }, 30_000); // the compiler takes seconds to load the models' types

  it('are all in kustomization.yaml but the HPA alternative, which is documented', () => {
    const files = readdirSync(deployFile('kubernetes')).filter(
      (f) => f.endsWith('.yaml') && f !== 'kustomization.yaml',
    );
    const listed = kustomization.doc['resources'] as string[];
    expect([...listed].sort()).toEqual(files.filter((f) => f !== 'worker-hpa.yaml').sort());
    expect(readFileSync(join(root, 'docs/deploy.md'), 'utf8')).toContain('worker-hpa.yaml');
    // Both would scale the worker Deployment: the list must never hold the two.
    expect(listed).not.toContain('worker-hpa.yaml');
  });

  it('set only settings the code reads, and they parse', () => {
    const known = knownSettings();
    expect(known).toContain('DATABASE_URL');
    for (const name of [...Object.keys(configMap), ...Object.keys(secret)])
      expect(known, `${name} is a setting of the code`).toContain(name);
    const config = loadConfig({ ...configMap, ...secret });
    expect(config.ingestHost).toBe('0.0.0.0'); // Prometheus and KEDA reach the operator listener
    expect(config.ingestToken).not.toBeNull();
  });

  it('run the commands on the ports the code listens on, with probes on paths it serves', () => {
    const config = loadConfig({ ...configMap, ...secret });
    const main = readFileSync(join(root, 'src/main.ts'), 'utf8');
    const ports: Record<string, number> = {
      http: config.port,
      operator: config.ingestPort,
      probes: config.workerProbePort,
    };
    for (const doc of manifests.filter((d) => ['Deployment', 'Job'].includes(d.doc.kind)).map((d) => d.doc)) {
      for (const container of podSpec(doc).containers) {
        // `serve` runs the public API: node starts it with the API processes' flags.
        const name = container.command.at(-1)!;
        const flags = name === 'serve' ? API_NODE_FLAGS : [];
        expect(container.command).toEqual(['node', ...flags, 'dist/main.js', name]);
        expect(main).toContain(`\n  ${name}: `);
        for (const port of container.ports ?? [])
          expect(port.containerPort, port.name).toBe(ports[port.name]);
        for (const probe of [container.livenessProbe, container.readinessProbe].flatMap((p) => p ?? [])) {
          expect(['/healthz', '/readyz', '/readyz/reads']).toContain(probe.httpGet.path);
          expect(container.ports?.map((p) => p.name)).toContain(probe.httpGet.port);
        }
        expect(container.envFrom).toEqual([
          { configMapRef: { name: 'statuspage-config' } },
          { secretRef: { name: 'statuspage-secrets' } },
        ]);
      }
    }
    const api = podSpec(find('Deployment', 'statuspage-api')).containers[0]!;
    expect(api.command).toEqual(['node', ...API_NODE_FLAGS, 'dist/main.js', 'serve']);
    expect(api.livenessProbe?.httpGet.path).toBe('/healthz');
    // Public reads need Redis and the read models, not PostgreSQL: /readyz asks PostgreSQL too, and a
    // database failover would empty the Service (readinessForReads.test.ts: /readyz/reads does not).
    expect(api.readinessProbe?.httpGet).toEqual({ path: '/readyz/reads', port: 'operator' });
    expect(podSpec(find('Deployment', 'statuspage-worker')).containers[0]!.command[2]).toBe('work');
    expect(podSpec(find('Job', 'statuspage-migrate')).containers[0]!.command[2]).toBe('migrate');
  });

  it('give the processes longer to stop than they take to drain', () => {
    expect(
      podSpec(find('Deployment', 'statuspage-worker')).terminationGracePeriodSeconds! * 1000,
    ).toBeGreaterThan(JOB_BUDGET_MS * 2);
    expect(
      podSpec(find('Deployment', 'statuspage-api')).terminationGracePeriodSeconds! * 1000,
    ).toBeGreaterThan(DRAIN_WITHIN_MS);
  });

  it('run as non-root on a read-only root file system, with resources', () => {
    for (const doc of manifests.filter((d) => ['Deployment', 'Job'].includes(d.doc.kind)).map((d) => d.doc)) {
      const spec = podSpec(doc);
      expect(spec.securityContext.runAsNonRoot, doc.metadata.name).toBe(true);
      for (const container of spec.containers) {
        expect(container.securityContext).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
        });
        expect(Object.keys(container.resources.requests).sort()).toEqual(['cpu', 'memory']);
        expect(Object.keys(container.resources.limits).sort()).toEqual(['cpu', 'memory']);
      }
    }
  });

  it('point every selector, autoscaler and monitor at something that exists', () => {
    const labelsOf = (doc: Doc) =>
      (doc['spec'] as { template: { metadata: { labels: Record<string, string> } } }).template.metadata
        .labels;
    const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
      Object.entries(selector).every(([k, v]) => labels[k] === v);
    for (const deployment of manifests.filter((d) => d.doc.kind === 'Deployment').map((d) => d.doc)) {
      const selector = (deployment['spec'] as { selector: { matchLabels: Record<string, string> } }).selector
        .matchLabels;
      expect(matches(selector, labelsOf(deployment))).toBe(true);
    }
    const services = manifests.filter((d) => d.doc.kind === 'Service').map((d) => d.doc);
    for (const service of services) {
      const spec = service['spec'] as { selector: Record<string, string>; ports: { targetPort: string }[] };
      const pods = manifests.filter(
        (d) => d.doc.kind === 'Deployment' && matches(spec.selector, labelsOf(d.doc)),
      );
      expect(pods, service.metadata.name).toHaveLength(1);
      const names = podSpec(pods[0]!.doc).containers.flatMap((c) => (c.ports ?? []).map((p) => p.name));
      for (const port of spec.ports) expect(names).toContain(port.targetPort);
    }
    for (const monitor of manifests.filter((d) => d.doc.kind === 'ServiceMonitor').map((d) => d.doc)) {
      const spec = monitor['spec'] as {
        selector: { matchLabels: Record<string, string> };
        endpoints: { port: string; path: string }[];
      };
      const targets = services.filter((s) => matches(spec.selector.matchLabels, s.metadata.labels ?? {}));
      expect(targets, monitor.metadata.name).toHaveLength(1);
      const ports = (targets[0]!['spec'] as { ports: { name: string }[] }).ports.map((p) => p.name);
      for (const endpoint of spec.endpoints) {
        expect(ports).toContain(endpoint.port);
        expect(endpoint.path).toBe('/metrics');
      }
    }
    for (const hpa of [
      find('HorizontalPodAutoscaler', 'statuspage-api'),
      ...manifests.filter((d) => d.doc.kind === 'PodDisruptionBudget').map((d) => d.doc),
    ]) {
      expect(JSON.stringify(hpa)).toContain('statuspage-api');
    }
    const scaled = find('ScaledObject', 'statuspage-worker')['spec'] as {
      scaleTargetRef: { name: string };
      minReplicaCount: number;
      maxReplicaCount: number;
      triggers: { type: string; metadata: { url: string; valueLocation: string } }[];
    };
    find('Deployment', scaled.scaleTargetRef.name);
    expect(scaled.minReplicaCount).toBeGreaterThanOrEqual(1); // the scheduler runs in the workers
    expect(scaled.maxReplicaCount).toBeLessThanOrEqual(Number(configMap['PROJECTOR_PARTITIONS']));
    const operator = find('Service', 'statuspage-api-operator');
    for (const trigger of scaled.triggers) {
      expect(trigger.type).toBe('metrics-api');
      const url = new URL(trigger.metadata.url);
      expect(url.hostname).toBe(`${operator.metadata.name}.statuspage.svc.cluster.local`);
      expect(Number(url.port)).toBe(loadConfig({ ...configMap, ...secret }).ingestPort);
      expect(url.pathname).toBe('/v1/autoscale');
    }
  });

  it('leave the replica count to the autoscaler wherever one owns it (kubectl apply would reset it)', () => {
    type Target = { scaleTargetRef: { name: string; kind?: string } };
    const scaled = manifests
      .filter((d) => ['HorizontalPodAutoscaler', 'ScaledObject'].includes(d.doc.kind))
      .map((d) => (d.doc['spec'] as Target).scaleTargetRef);
    expect(scaled.map((ref) => ref.name).sort()).toEqual([
      'statuspage-api',
      'statuspage-worker',
      'statuspage-worker', // worker-hpa.yaml, the alternative to the ScaledObject
    ]);
    for (const ref of scaled) {
      expect(ref.kind ?? 'Deployment').toBe('Deployment');
      expect(find('Deployment', ref.name)['spec'], ref.name).not.toHaveProperty('replicas');
    }
  });

  it('carry alerts.yml as the PrometheusRule', () => {
    const rules = parse(readFileSync(deployFile('prometheus', 'alerts.yml'), 'utf8')) as unknown;
    expect(find('PrometheusRule', 'statuspage')['spec']).toEqual(rules);
  });
});
