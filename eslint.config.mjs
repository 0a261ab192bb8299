// The linter of every package, console included: ESLint's and typescript-eslint's recommended rules,
// syntax-only (the type checking is `npm run typecheck`'s), so a run over the whole tree stays short.
import eslint from '@eslint/js';
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
    },
  },
  {
    // plain CommonJS scripts run by Node: CI's, the container's health check, jest's config
    files: ['**/*.cjs', '**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
