// ESLint for the attention-grid component's ES modules (attnviz/component: both hosts' entries, index.js and
// widget.js) and their Node tests (tests/js).
import js from '@eslint/js';
import globals from 'globals';

export default [
  // Installed packages and outputs are not ours (the virtualenv holds JupyterLab's and marimo's built files).
  { ignores: ['.venv/', 'artifacts/', 'mutants/'] },
  js.configs.recommended,
  {
    files: ['attnviz/component/**/*.js', 'attnviz/ui/keyboard.js', 'attnviz/ui/lesson_subject.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
    rules: {
      'no-var': 'error',
      'prefer-const': 'error',
      eqeqeq: 'error',
      complexity: ['error', 10],
      // ``const { value, ...fixed } = spec`` names what it leaves out
      'no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['tests/js/**/*.mjs'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.node },
  },
];
