// ESLint for the VS Code client (TypeScript) and its tests. The Python server has its own tools.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', 'client-vscode/out/**', 'client-vscode/bundled/**', 'dist/**', 'server/**', '**/*.d.ts'],
  },
  {
    files: ['client-vscode/**/*.ts', 'tests/webview/**/*.ts', 'tests/client/**/*.ts', 'tests/vscode-e2e/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-restricted-syntax': [
        'error',
        {
          selector: "AssignmentExpression[left.property.name='innerHTML']",
          message: 'Labels are user data: build DOM with textContent, never innerHTML.',
        },
        {
          selector: "AssignmentExpression[left.property.name='outerHTML']",
          message: 'Labels are user data: build DOM with textContent, never outerHTML.',
        },
        {
          selector: "CallExpression[callee.property.name='insertAdjacentHTML']",
          message: 'Labels are user data: build DOM with textContent, never insertAdjacentHTML.',
        },
      ],
    },
  },
  {
    // Only the wrapper may import the vscode API at run time (type imports are fine).
    files: ['client-vscode/src/**/*.ts'],
    ignores: ['client-vscode/src/common/vscodeapi.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'Call the vscode API through common/vscodeapi.ts.', allowTypeImports: true }] },
      ],
    },
  },
  {
    files: ['client-vscode/**/*.mjs', 'eslint.config.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
