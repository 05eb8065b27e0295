import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/*
 * Module boundaries of the server (decision 0044). A module's repositories are its own: others use
 * its services, or a type or pure helper it keeps outside them. The device gateway is entered only
 * by its front door, modules/gateway/index.ts (test code may also use modules/gateway/testing.ts).
 * Import paths are matched as written, so another module's repository is found by the depth of
 * the importing file: from modules/<m>/x.ts it is '../<other>/…', from modules/<m>/a/x.ts '../../<other>/…'.
 */
const MODULES = 'apps/server/src/modules';
const GATEWAY = `${MODULES}/gateway/**`;
const TEST_CODE = ['**/*.test.ts', '**/*-test-support.ts', '**/*fixtures.ts'];
const otherRepository = (depth) => ({
  regex: `^(\\.\\./){${depth}}[a-z-]+/(.+/)?[^/]+\\.repository\\.ts$`,
  message:
    "Another module's repository is its own: use its service, or a type or pure helper it keeps outside its repositories.",
});
const gatewayInsides = (doors) => ({
  regex: `(^|/)gateway/(?!(${doors.join('|')})\\.ts$)`,
  message: `Enter the device gateway by its front door: modules/gateway/${doors.join('.ts or ')}.ts.`,
});
const FRONT = gatewayInsides(['index']);
const FRONT_AND_TESTING = gatewayInsides(['index', 'testing']);
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const boundaries = [
  {
    files: ['apps/server/src/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'e2e/**/*.ts'],
    ignores: [GATEWAY],
    rules: restrict(FRONT),
  },
  {
    files: [...TEST_CODE, 'apps/server/src/test/**', 'bench/**', 'scripts/**', 'e2e/**'],
    ignores: [GATEWAY],
    rules: restrict(FRONT_AND_TESTING),
  },
  // Module files, one depth at a time (a later entry's options replace an earlier one's).
  ...[1, 2, 3, 4].flatMap((depth) => {
    const at = `${MODULES}/*/${'*/'.repeat(depth - 1)}*.ts`;
    return [
      { files: [at], ignores: [GATEWAY], rules: restrict(otherRepository(depth), FRONT) },
      {
        files: TEST_CODE.map((test) => [at, test]),
        ignores: [GATEWAY],
        rules: restrict(otherRepository(depth), FRONT_AND_TESTING),
      },
      { files: [`${MODULES}/gateway/${'*/'.repeat(depth - 1)}*.ts`], rules: restrict(otherRepository(depth)) },
    ];
  }),
];

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
  ...boundaries,
  prettier,
);
