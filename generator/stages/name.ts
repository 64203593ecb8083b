/**
 * Stage 4, name: model ids to TypeScript identifiers. This is the only naming function; every
 * generated name comes from it (json-schema-to-typescript's own naming is never used: it would
 * turn `Klein4b` into `Klein4B`).
 *
 * The rule, for an id such as `ltx-2-3-pro-22b-IC-LoRA-Union-Control` or `happyhorse-1.0-video-edit`:
 * 1. Split the id at every character that is not a letter, digit or `.` (`-`, `_`, the `:` of a
 *    deployed fine-tune's slug such as `oxen:acme-ft_123` -> `OxenAcmeFt123`...).
 * 2. In each part, `.` becomes `_` (so `1.0` and `1-0` stay distinct: `1_0` vs `10`), and the
 *    first character is upper-cased; the rest keeps its case.
 * 3. The parts are joined: `pascal` (`Happyhorse1_0VideoEdit`). One that would start with a digit
 *    is prefixed with `Model` (`3d-gen` -> `Model3dGen`).
 * 4. `camel` is `pascal` with its first character lower-cased (`happyhorse1_0VideoEdit`).
 * Generated names add a suffix (`<Pascal>Params`, `<camel>Schema`, `<camel>GenerateImage`), so no
 * name is a reserved word. Two ids with the same `pascal`, or ids equal but for case (their files
 * would collide on case-insensitive file systems), are an error naming both ids.
 *
 * File names (`fileStem`): a model's files are named by its id (`models/<id>.ts`,
 * `validators/<id>.ts`, `specs/models/<id>.json`), with two changes, the same on every system:
 * - each `:` becomes `~` (`oxen:acme-ft_123` -> `oxen~acme-ft_123`): Windows allows no `:` in a
 *   file name (and macOS shows it as `/`);
 * - an id whose part before its first `.` is a device name that Windows reserves in any case and
 *   with any extension (`CON`, `PRN`, `AUX`, `NUL`, `COM0`-`COM9`, `LPT0`-`LPT9`: `aux`,
 *   `AUX.model`) gets a `~` after that part (`aux~`, `AUX~.model`).
 * `~` is outside the id character set, and the two kinds of `~` cannot be confused: a `:` stands
 * between two letters or digits (`MODEL_ID`), so its `~` is followed by a letter or digit, a device
 * name's by `.` or nothing. So the stem of no other id is the same: no two ids share a file name.
 */
import { SpecError } from '../errors.ts';

/** Identifiers of one model. */
export interface ModelNames {
  /** `Flux2Pro`: prefix of type names. */
  pascal: string;
  /** `flux2Pro`: prefix of value names. */
  camel: string;
  /** `Flux2ProParams`: the parameter interface. */
  params: string;
  /** `flux2ProSchema`: the schema const. */
  schema: string;
}

/** Windows' reserved device names (compared without case). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * The stem of a model's file names (see the module comment): the id with each `:` as `~`, and a
 * `~` after a reserved device name.
 */
export function fileStem(id: string): string {
  const stem = id.replaceAll(':', '~');
  const dot = stem.indexOf('.');
  const head = dot === -1 ? stem : stem.slice(0, dot);
  return WINDOWS_DEVICE.test(head) ? `${head}~${stem.slice(head.length)}` : stem;
}

/** A model's snapshot file, relative to the specs directory: `models/<stem>.json`. */
export function specFile(id: string): string {
  return `models/${fileStem(id)}.json`;
}

/** The anchor of a model's section in `generated/MODELS.md`. */
export function modelAnchor(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9._-]/g, '');
}

/** Convert one model id. @throws Error when nothing usable is left of the id. */
export function modelNames(id: string): ModelNames {
  const parts = id.split(/[^A-Za-z0-9.]+/).filter((p) => p.length > 0);
  let pascal = parts
    .map((p) => p.replace(/\./g, '_'))
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
  pascal = pascal.replace(/^_+/, '');
  if (pascal === '')
    throw new Error(`model id ${JSON.stringify(id)} has no letter or digit to make an identifier from`);
  if (/^[0-9]/.test(pascal)) pascal = `Model${pascal}`;
  const camel = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  return { pascal, camel, params: `${pascal}Params`, schema: `${camel}Schema` };
}

/**
 * Name every model. @throws SpecError naming both ids when two ids convert to the same identifier
 * or differ only by case.
 */
export function nameModels<T extends { id: string; file: string }>(
  models: readonly T[],
  listFile: string,
): Array<T & { names: ModelNames }> {
  const byPascal = new Map<string, string>();
  const byLower = new Map<string, string>();
  return models.map((m, i) => {
    let names: ModelNames;
    try {
      names = modelNames(m.id);
    } catch (err) {
      throw new SpecError(listFile, m.id, `/${i}`, (err as Error).message);
    }
    const other = byPascal.get(names.pascal);
    if (other !== undefined)
      throw new SpecError(
        listFile,
        m.id,
        `/${i}`,
        `model ids ${JSON.stringify(other)} and ${JSON.stringify(m.id)} both convert to the identifier ${names.pascal}; rename one (see generator/name.ts for the rule)`,
      );
    const sameCase = byLower.get(m.id.toLowerCase());
    if (sameCase !== undefined)
      throw new SpecError(
        listFile,
        m.id,
        `/${i}`,
        `model ids ${JSON.stringify(sameCase)} and ${JSON.stringify(m.id)} differ only by case; their generated files would collide`,
      );
    byPascal.set(names.pascal, m.id);
    byLower.set(m.id.toLowerCase(), m.id);
    return { ...m, names };
  });
}
