// The linter of every package, console included: ESLint's and typescript-eslint's recommended rules, and
// what our conventions ask of every file (docs/testing.md): promises awaited or handled
// (typed rules, over the one program of tsconfig.typecheck.json), no import cycles, files near 300 lines
// (330 as Prettier lays them out; a suite's tables 420).
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', 'local-servers/.cache/**', '.data/**'] },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // a leading underscore says "unused on purpose" (a destructured field left out, a required parameter)
      // a variable a closure reads before its one assignment (a cleanup registered before the start) stays a let
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' }],
      // `any` only with a comment that says why (eslint-disable-next-line … -- reason)
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // the packages' TypeScript, in the program the type check builds (the console has its own, bundled by Vite)
    files: ['*/src/**/*.ts', '*/test/**/*.ts'],
    ignores: ['console/**'],
    languageOptions: { parserOptions: { project: ['./tsconfig.typecheck.json'], tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle parses each imported module itself: with typescript-eslint's parser, or it skips it unread
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.typecheck.json' })],
    },
    rules: {
      // a promise nobody awaits loses its failure: await it, return it, or say `void` and handle its rejection
      '@typescript-eslint/no-floating-promises': 'error',
      'import-x/no-cycle': 'error',
    },
  },
  {
    // the console's own program (DOM types, bundler resolution): the same rule on its promises
    files: ['console/src/**/*.ts', 'console/src/**/*.tsx'],
    languageOptions: { parserOptions: { project: ['./console/tsconfig.json'], tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: { 'max-lines': ['error', { max: 330, skipBlankLines: true, skipComments: true }] },
  },
  {
    // a suite's table of cases reads best in one file: a little more room
    files: ['*/test/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 420, skipBlankLines: true, skipComments: true }] },
  },
  {
    // plain CommonJS scripts run by Node: CI's, the container's health check, jest's config
    files: ['**/*.cjs', '**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // the layout is Prettier's (`npm run format`, checked by `npm run lint`): rules about it are off
  prettier,
);
