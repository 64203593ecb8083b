/**
 * Up-to-date detection for a build: a stamp (JSON) records the SHA-256 of every input file, a key for
 * everything else the output depends on (tool versions, settings) and the SHA-256 of every output file.
 * A build whose inputs, key and outputs all match its stamp is current and is skipped; any difference
 * (an edited, added or removed input, another tool version, an output edited or deleted) rebuilds.
 * Content hashes, not modification times: a checkout or a copy that changes mtimes only rebuilds nothing.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** SHA-256 (hex) of a file's bytes, or `undefined` when it cannot be read (missing). */
export function hashFile(file) {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}

/** SHA-256 (hex) of a JSON-serialisable value. */
export function hashValue(value) {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/**
 * Every file under `dirs` and every file of `files` (paths relative to `root`, `/`-separated, sorted),
 * skipping the relative paths `ignore` accepts.
 */
export function listFiles(root, { dirs = [], files = [], ignore = () => false }) {
  const out = new Set();
  const walk = (rel) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (ignore(child)) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.add(child);
    }
  };
  for (const dir of dirs) walk(dir);
  for (const file of files) if (!ignore(file)) out.add(file);
  return [...out].sort();
}

/** `{ relative path: SHA-256 }` of the files (relative to `root`); a missing file maps to `null`. */
export function hashFiles(root, files) {
  return Object.fromEntries(files.map((f) => [f, hashFile(path.join(root, f)) ?? null]));
}

/** The stamp at `file`, or `undefined` when there is none (or it is not a stamp). */
export function readStamp(file) {
  try {
    const stamp = JSON.parse(readFileSync(file, 'utf8'));
    return stamp && typeof stamp === 'object' && stamp.inputs && stamp.outputs ? stamp : undefined;
  } catch {
    return undefined;
  }
}

export function writeStamp(file, stamp) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(stamp, null, 2)}\n`);
}

export function removeStamp(file) {
  rmSync(file, { force: true });
}

/**
 * Why the build described by `current` (`{ key, inputs }`) is not the one `stamp` records, or `undefined`
 * when it is (same key, same input hashes, every recorded output present with its recorded hash).
 * `extraInputs` are files the stamp lists beyond `current.inputs` (for example the dependency files a
 * bundler read): they are re-hashed from `root` and must still match.
 */
export function staleReason(root, stamp, current) {
  if (!stamp) return 'no stamp (first build, or the last one did not finish)';
  if (stamp.key !== current.key) return 'tools or settings changed';
  const recorded = stamp.inputs;
  const now = {
    ...current.inputs,
    ...hashFiles(
      root,
      Object.keys(recorded).filter((f) => !(f in current.inputs)),
    ),
  };
  for (const file of new Set([...Object.keys(recorded), ...Object.keys(now)])) {
    if (!(file in recorded)) return `new input ${file}`;
    if (recorded[file] !== now[file]) return `input ${file} ${now[file] === null ? 'removed' : 'changed'}`;
  }
  for (const [file, hash] of Object.entries(stamp.outputs)) {
    if (hashFile(path.join(root, file)) !== hash) return `output ${file} changed or missing`;
  }
  return undefined;
}
