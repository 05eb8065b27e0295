import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: [
      '**/*.test.ts',
      'apps/server/src/test/tenancy-matrix.ts',
      'scripts/**',
      'bench/**',
      '**/migrate-cli.ts',
      'packages/sleep/src/validate/**',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['apps/web/**/*.ts', 'apps/web/**/*.tsx'],
    // Test support is never bundled: it checks fakes against the contract's schemas.
    ignores: ['apps/web/src/test/**'],
    rules: {
      // The root entry pulls zod's schemas into the console bundle (decision 0007).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@vigil/contract', message: 'Import @vigil/contract/browser in the console.' }] },
      ],
    },
  },
  prettier,
);
