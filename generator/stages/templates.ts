/**
 * Part of stage 6 (emit): the handlebars templates of `templates/` (`header.hbs`, every generated
 * file's header; `model-doc.hbs`, a model's doc comment; `models.md.hbs`, `generated/MODELS.md`)
 * and the two texts rendered from them before emitting: the header and a model's doc text.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import type { ClassifiedModel } from './classify.ts';
import { endpointLabels } from './emit-model.ts';
import { commentText, docText } from '../escape.ts';
import { packageTarget, type Target } from '../output/target.ts';

/** The compiled templates. */
export interface Templates {
  header: Handlebars.TemplateDelegate<{ sources: string[]; markdown?: boolean; prefix?: string } & Target['header']>;
  modelDoc: Handlebars.TemplateDelegate<Record<string, unknown>>;
  modelsMd: Handlebars.TemplateDelegate<Record<string, unknown>>;
}

/** Load and compile the handlebars templates of `templatesDir`. */
export async function loadTemplates(templatesDir: string): Promise<Templates> {
  const hb = Handlebars.create();
  const read = (f: string) => readFile(path.join(templatesDir, f), 'utf8');
  const opts = { noEscape: true, strict: false };
  return {
    header: hb.compile(await read('header.hbs'), opts),
    modelDoc: hb.compile(await read('model-doc.hbs'), opts),
    modelsMd: hb.compile(await read('models.md.hbs'), opts),
  };
}

/** The generated-file header of a TypeScript (or, with `markdown`, Markdown) file naming its sources and the target's command. */
export function header(t: Templates, sources: string[], markdown = false, target: Target = packageTarget): string {
  const safe = sources.map((s) => (markdown ? s.replace(/-->/g, '--&gt;') : commentText(s)).replace(/[\r\n]/g, ' '));
  return t.header({ sources: safe, markdown, prefix: markdown ? '' : ' * ', ...target.header });
}

/** What a null schema means for the model's parameters (for its doc comment). */
function nullMeaning(m: ClassifiedModel): string {
  if (m.uncovered !== undefined) return 'its parameters are unknown';
  if (m.output === 'text') return 'it takes the standard chat-completions body';
  return "it takes the endpoint's parameters as the API description lists them";
}

/** The doc comment text of a model's parameter type (unescaped; the types stage escapes it). */
export function modelDoc(t: Templates, m: ClassifiedModel): string {
  return t
    .modelDoc({
      id: m.id,
      displayName: docText(m.displayName ?? m.id),
      description: m.description === undefined ? undefined : docText(m.description),
      file: m.file,
      schemaField: m.schemaField,
      nullMeaning: nullMeaning(m),
      endpoints: m.endpoints.flatMap(endpointLabels),
      uncovered: m.uncovered,
    })
    .trim();
}
