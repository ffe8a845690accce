// A stricter check of the Kubernetes manifests than the validators of kubernetes-models, whose
// JSON schemas accept fields they do not know (a misspelt `readinesProbe` passes): each manifest,
// as an object literal, must satisfy the models' TypeScript interface, and the compiler reports
// every property the interface lacks (excess property checks), at any depth. Offline.
import { join } from 'node:path';
import ts from 'typescript';
import { root } from './operatorKit.ts';

/** Where the models of an apiVersion live, and under which name its kinds' interfaces. */
const MODULES: Record<string, string> = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'policy/v1': 'kubernetes-models/policy/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};

type Manifest = Readonly<{ file: string; doc: { apiVersion: string; kind: string } }>;

/** The compiler's complaints about `manifests` (none when every field is one the API knows). */
export const manifestTypeErrors = (manifests: readonly Manifest[]): string[] => {
  // One import per kind, from the kind's own module: the compiler loads only the types it needs.
  const kinds = [...new Set(manifests.map(({ doc }) => `${doc.apiVersion}/${doc.kind}`))];
  const modelOf = (doc: Manifest['doc']) => `M${String(kinds.indexOf(`${doc.apiVersion}/${doc.kind}`))}`;
  const source = [
    ...manifests
      .filter(({ doc }, i) => manifests.findIndex((m) => modelOf(m.doc) === modelOf(doc)) === i)
      .map(
        ({ doc }) =>
          `import type { I${doc.kind} as ${modelOf(doc)} } from '${MODULES[doc.apiVersion] ?? 'unknown'}/${doc.kind}';`,
      ),
    ...manifests.map(
      ({ file, doc }, i) =>
        `// ${file}\nexport const doc${String(i)} = ${JSON.stringify(doc)} satisfies ${modelOf(doc)};`,
    ),
  ].join('\n');
  const fileName = join(root, 'test', '__manifests__.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
    lib: ['lib.es2022.d.ts'], // not the DOM's, the largest part of the default
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (name) => name === fileName || ts.sys.fileExists(name);
  host.readFile = (name) => (name === fileName ? source : readFile(name));
  host.getSourceFile = (name, version) =>
    name === fileName ? ts.createSourceFile(name, source, version) : getSourceFile(name, version);
  const program = ts.createProgram([fileName], options, host);
  const lines = source.split('\n');
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (d.file === undefined || d.start === undefined) return text;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${lines[line - 1] ?? ''}: ${text.slice(0, 300)}`;
  });
};
