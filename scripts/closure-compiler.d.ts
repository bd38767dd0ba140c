// What scripts/closure.mjs uses of google-closure-compiler, which ships no type declarations.
declare module 'google-closure-compiler' {
  /** Runs Closure Compiler: the jar on `javaPath` (java), or the native image when JAR_PATH is null. */
  export class compiler {
    constructor(flags: Record<string, string>);
    JAR_PATH: string | null;
    javaPath: string;
    run(callback: (exitCode: number, stdout: string, stderr: string) => void): unknown;
  }
}
declare module 'google-closure-compiler/lib/utils.js' {
  /** This platform's native image, or undefined where its optional package is not installed. */
  export function getNativeImagePath(): string | undefined;
}
