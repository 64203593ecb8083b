/**
 * Part of stage 6 (emit): the handlebars templates of `templates/` (`header.hbs`, every generated
 * file's header; `models.md.hbs`, `generated/MODELS.md`), the header rendered from it, and a
 * model's doc text. Handlebars writes Markdown and the header only; TypeScript is printed by
 * `printer.ts`. The header is precompiled (`header-template.mjs`, by `scripts/compile-ahead.ts`) and
 * rendered with handlebars' runtime alone; `models.md.hbs`, which only this repository's run renders,
 * is compiled on first use.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type Handlebars from 'handlebars';
import type { ClassifiedModel } from './classify.ts';
import { endpointLabels } from './emit-model.ts';
import { headerTemplate, templateOptions } from './header-template.mjs';
import { commentText, docText } from '../escape.ts';
import { loadHandlebars, loadHandlebarsRuntime } from '../libraries.ts';
import { packageTarget, type Target } from '../output/target.ts';

/** The compiled templates. */
export interface Templates {
  header: Handlebars.TemplateDelegate<{ sources: string[]; markdown?: boolean; prefix?: string } & Target['header']>;
  modelsMd: Handlebars.TemplateDelegate<Record<string, unknown>>;
}

/** Load the handlebars templates of `templatesDir` (the header: precompiled, see the module's comment). */
export async function loadTemplates(templatesDir: string): Promise<Templates> {
  const modelsSource = await readFile(path.join(templatesDir, 'models.md.hbs'), 'utf8');
  let modelsMd: Templates['modelsMd'] | undefined;
  return {
    header: loadHandlebarsRuntime().create().template(headerTemplate),
    modelsMd: (context, options) => {
      modelsMd ??= loadHandlebars().create().compile(modelsSource, templateOptions);
      return modelsMd(context, options);
    },
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
export function modelDoc(m: ClassifiedModel): string {
  const description = m.description === undefined ? '' : docText(m.description);
  const endpoints = m.endpoints.flatMap(endpointLabels);
  return [
    `${docText(m.displayName ?? m.id)}${description ? `: ${description}` : ''}`,
    '',
    `Parameters of model \`${m.id}\`, generated from \`${m.file}\`${m.schemaField ? ` (field \`${m.schemaField}\`)` : ` (its schema is null: ${nullMeaning(m)})`}.`,
    endpoints.length > 0
      ? `Served by: ${endpoints.map((e) => `\`${e}\``).join(', ')}.`
      : `No endpoint function: the model's endpoint \`${m.uncovered ?? ''}\` is not covered by the API description.`,
  ]
    .join('\n')
    .trim();
}
