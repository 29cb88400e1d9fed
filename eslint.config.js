import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nodePlugin from 'eslint-plugin-n';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'examples/**/dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', '.snippets-*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { n: nodePlugin },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'n/prefer-node-protocol': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportAllDeclaration',
          message: 'Choose every export by hand: no `export *` (STYLE.md principle 3).',
        },
        {
          selector: "CallExpression[callee.property.name='includes'][arguments.0.value='application/json']",
          message: 'Substring-matching a media type misclassifies values: parse the media type instead.',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The inspector's page runs in the browser; it must never parse network text as HTML.
    files: ['assets/inspector/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Build text nodes (`el()`): manifest and response text is never HTML.' },
        { property: 'outerHTML', message: 'Build text nodes (`el()`): manifest and response text is never HTML.' },
        { property: 'insertAdjacentHTML', message: 'Build text nodes (`el()`): manifest and response text is never HTML.' },
        { object: 'document', property: 'write', message: 'Build text nodes (`el()`): manifest and response text is never HTML.' },
      ],
    },
  },
);
