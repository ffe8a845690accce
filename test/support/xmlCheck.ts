// XML checks with libxml2's xmllint (compiled to WebAssembly, no system package needed): the
// messages of every well-formedness error, and with a RELAX NG schema, every validity error.
import { readFile } from 'node:fs/promises';
import { validateXML } from 'xmllint-wasm';

const schemas = {
  atom: new URL('schemas/atom.rng', import.meta.url),
  rss: new URL('schemas/rss2.rng', import.meta.url),
} as const;

export const xmlErrors = async (xml: string, schema?: keyof typeof schemas): Promise<string[]> => {
  const input = { fileName: 'feed.xml', contents: xml };
  const result =
    schema === undefined
      ? await validateXML({ xml: input, normalization: 'format' })
      : await validateXML({
          xml: input,
          schema: { fileName: 'schema.rng', contents: await readFile(schemas[schema], 'utf8') },
          extension: 'relaxng',
        });
  return result.errors.map((e) => e.message);
};
