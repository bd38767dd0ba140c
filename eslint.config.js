// ESLint for the whole repository; Prettier owns the formatting (eslint-config-prettier turns
// off the rules that would disagree with it). Type-aware rules are left out: tsc --noEmit already
// runs in npm test, and type-aware linting would double its time on two cores.
import js from '@eslint/js';
import compat from 'eslint-plugin-compat';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist.*/',
      'node_modules/',
      'bench/.deps/',
      'bench/results/',
      'test/fixtures/',
      'test/vendor/',
      // dist/'s scripts, copied into the native packages by the build
      'host-adapters/android/src/main/assets/',
      'host-adapters/ios/Sources/ChatBridge/Resources/',
      'host-adapters/flutter/assets/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // `any` appears where a heterogeneous table is typed (CommandTable); each use is local.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Prettier wraps code at 120; string literals are left whole (a message split over lines
      // cannot be found with grep), so only they may run longer.
      'max-len': ['error', { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true }],
    },
  },
  {
    // The injected runtime runs in a WebView: no Node globals or node: modules there, and no web
    // API the supported engines lack. eslint-plugin-compat reads them from package.json's
    // "browserslist" (docs/reference.md "Supported engines"; Chrome stands for the Android System WebView).
    // An optional API (Web Locks) must sit behind a feature check with a fallback: the plugin
    // accepts `if (navigator.locks) navigator.locks.request(...)` and flags an unguarded use.
    files: ['bridge/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { compat },
    rules: {
      'compat/compat': 'error',
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'bridge/ is bundled into the WebView script.' }] },
      ],
    },
  },
  {
    // The WebKit tests' native host runs under GJS (GNOME's JavaScript), not Node or a page.
    files: ['test/webkit/host.js'],
    languageOptions: { sourceType: 'script', globals: { imports: 'readonly', print: 'readonly' } },
  },
  prettier,
);
