// Lint of the hand-written code (runtime/, generator/, scripts/, fake-service/, fuzz/, test/, index.ts) with
// typescript-eslint's type-aware rules, and the import boundaries of every folder, generated/ included (the
// generator's output, otherwise pinned by `generate --check`).
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CODE = ['**/*.ts', '**/*.mts', '**/*.cts', '**/*.js', '**/*.mjs', '**/*.cjs'];

/** What each folder may not import (paths from the repository root; an import of a listed folder is an error). */
const BOUNDARIES = [
  {
    target: './runtime',
    from: ['./generator', './generated', './scripts', './test', './fake-service', './fuzz', './index.ts'],
    message: 'runtime/ is what ships and runs anywhere: it imports no other folder of the repository.',
  },
  {
    target: './generated',
    from: ['./generator', './scripts', './test', './fake-service', './fuzz', './index.ts'],
    message: 'generated/ imports only runtime/ (and itself).',
  },
  {
    // Tests may reach internals to test them.
    target: ['./generator', './generated', './scripts', './fake-service', './fuzz', './index.ts'],
    from: './runtime/internal',
    message: 'runtime/internal/ may change in any release: only runtime/ (and tests) import it.',
  },
  {
    target: ['./runtime', './generated', './generator', './index.ts', './scripts', './fake-service', './fuzz'],
    from: './test',
    message: 'Test helpers stay in test/: what ships, the tools and the local server never import them.',
  },
  {
    target: './generator',
    from: ['./scripts', './fake-service', './fuzz'],
    message: "The generator (a package of its own) imports no entry point (scripts/, fuzz/) nor the tests' server.",
  },
  {
    target: './fake-service',
    from: ['./scripts', './fuzz'],
    message:
      'fake-service/ is imported by scripts/, test/ and the serve command (generator/cli/serve.ts), and imports neither scripts/ nor fuzz/.',
  },
  {
    target: './fuzz',
    from: ['./scripts', './fake-service'],
    message: 'fuzz/ is an entry point of its own (scripts/fuzz.ts runs it); it imports no other entry point.',
  },
];
/**
 * The generator's refresh reads model objects with the runtime's capped reader and path encoding (one reader,
 * one encoding); the runtime bundled into the generator package carries them.
 */
const REFRESH_FETCH = 'generator/refresh/fetch.ts';
/** `oxen-inference-codegen serve` runs the local server: its bin bundles fake-service/ (the stand-in users test against). */
const SERVE_COMMAND = ['generator/cli/serve.ts', 'generator/cli/index.ts'];

export default tseslint.config(
  {
    ignores: ['dist/**', '**/dist/**', 'node_modules/**', '.tmp/**', 'docs/api/**'],
  },
  {
    files: CODE,
    ignores: ['generated/**'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
  },
  {
    files: CODE,
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [importX.createNodeResolver()] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: BOUNDARIES }] },
  },
  {
    files: [REFRESH_FETCH],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: BOUNDARIES.filter((z) => z.from !== './runtime/internal') }],
    },
  },
  {
    files: SERVE_COMMAND,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: BOUNDARIES.map((z) =>
            z.target === './generator' ? { ...z, from: z.from.filter((f) => f !== './fake-service') } : z,
          ),
        },
      ],
    },
  },
  {
    // generated/ is checked for its imports only: its code is the generator's, pinned by `generate --check`.
    files: ['generated/**'],
    languageOptions: { parser: tseslint.parser },
  },
  {
    files: CODE,
    ignores: ['generated/**'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      // A leading underscore names a value kept only for its position (a destructured rest, a callback parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Promises are rejected with what was caught, which is `unknown` by the language's rules.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingUnknown: true, allowThrowingAny: true },
      ],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true, allowThrowingAny: true }],
    },
  },
  {
    // Tests and the fake service read JSON bodies of the local server and of fixtures as untyped values on purpose, and
    // type tests (*.types.ts) are expressions whose types are checked.
    files: ['test/**', 'fuzz/**', 'fake-service/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // Tests assert that output holds no control characters.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['test/package/fixtures/runtimes.mjs'], languageOptions: { globals: { Deno: 'readonly' } } },
);
