// @ts-check
/**
 * kotlinc from the npm registry's `kotlin-compiler` package (a full kotlinc distribution that
 * needs only a JRE; 90 MB, so fetched into the cache rather than a devDependency), against AOSP's
 * own org.json (Debian's `libandroid-json-java`). Java is `openjdk-17-jre-headless`; `.ci/run`
 * installs both.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cachedPackage, fail } from './registry-cache.mjs';

export const KOTLIN_VERSION = '2.4.20';
const KOTLIN_INTEGRITY =
  'sha512-IF5IVM7LpPhA/ntHQQpaVt1yxpaaQovtEVYLyqWMuaLr0XelLPPm7/sM6HLhtcRjjjoSsK7I7lP2kzYJkMy73w==';
export const ORG_JSON_JAR = process.env['ANDROID_JSON_JAR'] ?? '/usr/share/java/com.android.json.jar';

/** Fails with the install step when Java or org.json is missing. */
export function checkJava() {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.status !== 0) fail('no java on PATH: apt-get install openjdk-17-jre-headless');
  if (!existsSync(ORG_JSON_JAR))
    fail(`${ORG_JSON_JAR} is missing: apt-get install libandroid-json-java (AOSP's org.json)`);
}

function kotlinHome() {
  return cachedPackage('kotlin-compiler', KOTLIN_VERSION, KOTLIN_INTEGRITY, 'lib/kotlin-compiler.jar');
}

/**
 * Compiles [sources] into [jar] with -Werror (warnings are errors), org.json on the classpath.
 * @param {string[]} sources
 * @param {string} jar
 * @returns {boolean} whether kotlinc succeeded (its messages go to the terminal)
 */
export function compileKotlin(sources, jar) {
  const home = kotlinHome();
  // kotlinc's own launcher, without its shell script.
  const compile = spawnSync(
    'java',
    [
      '-cp',
      join(home, 'lib', 'kotlin-compiler.jar'),
      'org.jetbrains.kotlin.cli.jvm.K2JVMCompiler',
      '-no-reflect',
      '-kotlin-home',
      home,
      '-Werror',
      '-classpath',
      ORG_JSON_JAR,
      '-d',
      jar,
      ...sources,
    ],
    { stdio: 'inherit' },
  );
  return compile.status === 0;
}

/**
 * Runs [mainClass] from [jar] with the Kotlin stdlib and org.json.
 * @param {string} jar
 * @param {string} mainClass
 * @param {string[]} args
 */
export function runKotlin(jar, mainClass, args) {
  const classpath = [jar, join(kotlinHome(), 'lib', 'kotlin-stdlib.jar'), ORG_JSON_JAR].join(':');
  return spawnSync('java', ['-cp', classpath, mainClass, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}
