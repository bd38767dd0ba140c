// @ts-check
/**
 * What makes each native package installable on its platform, checked as text (there is no
 * Gradle, SwiftPM, CocoaPods or pub here): the namespace, the declared resources, the version,
 * and that the resources are the build's current scripts.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NATIVE_ASSET_FOLDERS, NATIVE_SCRIPTS } from '../native-assets.mjs';

/** @typedef {{ name: string, problem: string | undefined }} Check */

/**
 * @param {string} root
 * @returns {Check[]}
 */
export function packageChecks(root) {
  const read = (/** @type {string} */ path) =>
    existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : '';
  const pkg = JSON.parse(read('package.json'));
  /** @type {Check[]} */
  const checks = [];
  const check = (/** @type {string} */ name, /** @type {boolean} */ ok, /** @type {string} */ problem) =>
    checks.push({ name, problem: ok ? undefined : problem });

  const gradle = read('host-adapters/android/build.gradle.kts');
  check('android: namespace dev.chatbridge', gradle.includes('namespace = "dev.chatbridge"'), 'build.gradle.kts');
  check('android: androidx.webkit dependency', /"androidx\.webkit:webkit:[\d.]+"/.test(gradle), 'build.gradle.kts');
  check('android: manifest', read('host-adapters/android/src/main/AndroidManifest.xml').includes('<manifest'), 'none');
  const kotlin = 'host-adapters/android/src/main/kotlin/dev/chatbridge';
  for (const file of readdirSync(join(root, kotlin)).filter((name) => name.endsWith('.kt'))) {
    check(
      `android: ${file} in package dev.chatbridge`,
      /^package dev\.chatbridge$/m.test(read(`${kotlin}/${file}`)),
      'other',
    );
  }

  const manifest = read('host-adapters/ios/Package.swift');
  const podspec = read('host-adapters/ios/ChatBridge.podspec');
  for (const script of NATIVE_SCRIPTS) {
    check(`ios: Package.swift copies ${script}`, manifest.includes(`.copy("Resources/${script}")`), 'not declared');
  }
  check('ios: podspec bundles the scripts', podspec.includes("'Sources/ChatBridge/Resources/*.js'"), 'not declared');
  check('ios: podspec takes package.json version', podspec.includes("s.version      = package['version']"), 'no');

  const pubspec = read('host-adapters/flutter/pubspec.yaml');
  check('flutter: pub name chat_bridge', /^name: chat_bridge$/m.test(pubspec), 'other name');
  check(
    `flutter: pubspec version is the npm version ${pkg.version}`,
    new RegExp(`^version: ${pkg.version.replaceAll('.', '\\.')}$`, 'm').test(pubspec),
    'they differ: change host-adapters/flutter/pubspec.yaml with package.json',
  );
  for (const script of NATIVE_SCRIPTS) {
    check(`flutter: pubspec declares assets/${script}`, pubspec.includes(`    - assets/${script}\n`), 'not declared');
  }

  for (const folder of NATIVE_ASSET_FOLDERS) {
    for (const script of NATIVE_SCRIPTS) {
      const copy = read(`${folder}/${script}`);
      check(
        `${folder}/${script} is dist/${script}`,
        copy !== '' && copy === read(`dist/${script}`),
        copy === '' ? 'missing: run npm run build' : 'stale: run npm run build',
      );
    }
  }
  for (const folder of ['host-adapters/android', 'host-adapters/ios', 'host-adapters/flutter']) {
    check(`package.json files has ${folder}`, pkg.files.includes(folder), 'not in the npm package');
  }
  return checks;
}
