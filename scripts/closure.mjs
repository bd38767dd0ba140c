// @ts-check
/**
 * Closure Compiler's SIMPLE optimizations, one step of scripts/minify.mjs. SIMPLE renames only
 * local names and never properties, and makes no assumption from types: it is the level Closure
 * documents as safe for any script that does not reach its own locals by name (no `eval`, no
 * `with`; bridge/ has neither). Input and output are both ES2019 (ES2017 and the syntax of
 * SYNTAX_BEYOND_ES2017, in scripts/shared-settings.mjs), so it lowers nothing, and it is
 * told to add nothing of its own runtime (`$jscomp` polyfills). It reads its input as strict-mode
 * code (its default) but, unless told to (`emit_use_strict`), prints no "use strict": the bundle
 * and the starter then ran as sloppy scripts (a function's `this` the window, a write to a
 * read-only property ignored instead of thrown), not as the modules they were written as. The
 * directive costs 8 B gzipped of the bundle and 6 B of the starter.
 *
 * Closure is Java; its npm package ships a native image per platform (optional dependencies),
 * used where present; elsewhere the jar runs on the `java` on PATH.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiler as ClosureCompiler } from 'google-closure-compiler';
import { getNativeImagePath } from 'google-closure-compiler/lib/utils.js';

/**
 * @param {string} code an ES2017 script with object spread and `catch` without a binding
 * @returns {Promise<string>}
 */
export async function closureSimple(code) {
  const dir = mkdtempSync(join(tmpdir(), 'chat-bridge-closure-'));
  try {
    const input = join(dir, 'in.js');
    writeFileSync(input, code);
    const compiler = new ClosureCompiler({
      js: input,
      compilation_level: 'SIMPLE',
      language_in: 'ECMASCRIPT_2019',
      language_out: 'ECMASCRIPT_2019',
      rewrite_polyfills: 'false',
      inject_libraries: 'false',
      emit_use_strict: 'true',
      warning_level: 'QUIET',
    });
    const native = getNativeImagePath();
    if (native) {
      compiler.JAR_PATH = null;
      compiler.javaPath = native;
    }
    return await new Promise((resolve, reject) => {
      compiler.run((exitCode, stdout, stderr) =>
        exitCode === 0 ? resolve(stdout) : reject(new Error(`Closure Compiler failed (${exitCode}): ${stderr}`)),
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
