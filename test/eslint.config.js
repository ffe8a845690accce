// Type-checked lint for the whole repository (run from the root: npm run lint).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/* global URL */
const dbAndIo = ['ioredis', 'slonik', 'pg', 'bullmq', 'express'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'bench/results/**',
      'src/embed/widgetScript.js',
      '.scratch/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: new URL('..', import.meta.url).pathname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-confusing-void-expression': [
        'error',
        { ignoreArrowShorthand: true, ignoreVoidOperator: true },
      ],
      'max-params': ['error', 4],
    },
  },
  {
    // Read-model definitions are pure: no I/O libraries.
    files: ['projections/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: dbAndIo }] },
  },
  {
    // Tests read JSON answers they assert in full; typing every one would only restate them. What a
    // test set up itself it may assert present (`!`), and its helpers take parameters freely.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'max-params': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
