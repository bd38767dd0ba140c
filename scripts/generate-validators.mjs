// @ts-check
/**
 * Generates plain validators from the zod schemas of bridge/protocol/schemas.ts, for the injected
 * bundle only: zod/mini's runtime is about 6 KB of a 12 KB budget, while the few shapes the bridge
 * checks need a few hundred bytes. zod stays the one source of the shapes: this walks each exported
 * schema's `_zod.def` and emits a module with the same exports, each with a `safeParse` that gives
 * the same verdict, the same output and the same issues (code, path, and the expected type or the
 * refinement's message, in order) as zod's, so every parse_error message stays byte-identical.
 * An invalid_type issue carries no message: zod's is always "Invalid input", and describe-issues.ts
 * words that issue from its expected type. The ES modules and the tests keep
 * real zod; test/unit/scripts/generate-validators.spec.ts holds the two to each other.
 *
 * Known: z.string() (with one length refinement that states `params: {minLength, maxLength}`),
 * z.number(), z.object(), z.looseObject(), z.optional(), z.array(). Anything else, and any export
 * that is neither a schema nor a plain constant, fails the build with a message naming it, rather
 * than being guessed at.
 *
 * Size (November 2026; GNU gzip -9 of the bundle as scripts/build.mjs minifies it): the validators
 * are about 1,100 B of the minified bundle, 435 B of its gzipped share (`node bench/bundle-size.mjs
 * --modules`). Kept: Number.isFinite for the number check -5, a default `then` -3,
 * Object.prototype.hasOwnProperty written out as the bridge writes it -8, the invalid_type issue's
 * fields in the custom issue's order -3 (16,309 -> 16,290, as `npm run build` prints it). Tried
 * and left: `[...path, key]` for `path.concat(key)` +4; `issues[0]` for `issues.length > 0` +2;
 * `typeof value === expected` as the type check's default (string's check written once) +1;
 * `safeParse` an arrow property -1 and the exports in reverse order -1 (-2 together: too little
 * to tie the output to an order that any new export reshuffles). esbuild's `minifyWhitespace`,
 * `charset: 'utf8'`, `ignoreAnnotations`, `platform: 'neutral'` =, `minifyIdentifiers` +38. Not
 * possible: importing the bridge's own isObject (the specs load the generated module from a data:
 * URL, where no relative import resolves; its check prints as isObject's does, so gzip already
 * finds the two alike), and any change to what an issue holds (the fuzz suite compares code, path
 * and expected with zod's).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

export const SCHEMAS_PATH = fileURLToPath(new URL('../bridge/protocol/schemas.ts', import.meta.url));

/**
 * The runtime every generated module starts with. A validator is `(value, issues, path) => output`:
 * it pushes zod-shaped issues at its own path, which its parent made by adding the key (one short
 * array per field checked: a command has a handful).
 */
const RUNTIME = `// A value of the wrong type gives zod's invalid_type issue and goes on as it came; one of the
// right type goes on to \`then\`, which checks what is inside it (nothing, by default).
const type = (expected, is, then = (value) => value) => (value, issues, path) => {
  if (is(value)) return then(value, issues, path);
  // In the order of the custom issue's fields (gzip finds the two alike).
  issues.push({ code: 'invalid_type', path, expected });
  return value;
};
const string = (min, max, message = \`must be \${min} to \${max} characters\`) =>
  type('string', (value) => typeof value === 'string', (value, issues, path) => {
    // Without a rule, min and max are undefined and neither comparison holds.
    if (value.length < min || value.length > max) issues.push({ code: 'custom', path, message });
    return value;
  });
// Number.isFinite is false for anything not a number, so it is zod's check (finite numbers) whole.
const number = type('number', Number.isFinite);
const optional = (inner) => (value, issues, path) => (value === undefined ? value : inner(value, issues, path));
const object = (shape, loose) =>
  type('object', (value) => typeof value === 'object' && value !== null && !Array.isArray(value), (value, issues, path) => {
    const output = {};
    // An absent key is checked as undefined, as zod does: optional() lets it pass, anything else refuses it.
    for (const key in shape) {
      const result = shape[key](value[key], issues, path.concat(key));
      if (key in value) output[key] = result;
    }
    // Written out as the bridge's own code writes it (gzip finds the two alike); never \`key in shape\`,
    // which holds for an extra key named like an Object.prototype method and would drop it.
    if (loose)
      for (const key in value)
        if (!Object.prototype.hasOwnProperty.call(shape, key) && key !== '__proto__') output[key] = value[key];
    return output;
  });
const array = (element) =>
  type('array', Array.isArray, (value, issues, path) =>
    Array.from(value, (item, index) => element(item, issues, path.concat(index))),
  );
const schema = (validate) => ({
  safeParse(value) {
    const issues = [];
    const data = validate(value, issues, []);
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data };
  },
});
`;

/** @type {Promise<string> | undefined} */
let generated;

/**
 * The esbuild plugin for the injected scripts, which carry validators generated from the zod
 * schemas instead of zod itself: bridge/protocol/schemas.ts is swapped for the generated module,
 * which has the same exports (generated once per process, for every script built).
 * @type {import('esbuild').Plugin}
 */
export const validatorsForZod = {
  name: 'validators-for-zod',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]bridge[\\/]protocol[\\/]schemas\.ts$/ }, async (args) => {
      if (args.path !== SCHEMAS_PATH) throw new Error(`unexpected schemas module ${args.path}`);
      return { contents: await (generated ||= generateValidators()), loader: 'js' };
    });
    // zod in the injected script would also add a global (its config) beside `ChatBridge`.
    builder.onResolve({ filter: /^zod(\/|$)/ }, (args) => ({
      errors: [{ text: `${args.importer} imports ${args.path} at run time: the injected script carries no zod` }],
    }));
  },
};

/** Loads the schemas module with its own zod, as Node runs it. @param {string} path */
async function loadSchemas(path) {
  const result = await build({
    entryPoints: [path],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  const code = /** @type {{ text: string }} */ (result.outputFiles[0]).text;
  return /** @type {Record<string, unknown>} */ (
    await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)
  );
}

/** @param {unknown} value @returns {value is { _zod: { def: any } }} */
const isSchema = (value) => typeof value === 'object' && value !== null && '_zod' in value;

/** Turns the exports of the schemas module into the generated module's source. */
export async function generateValidators(path = SCHEMAS_PATH) {
  const exports = await loadSchemas(path);
  /** @type {Map<object, string>} zod schema → the reference to its validator */
  const names = new Map();
  /** @type {Map<string, string>} validator expression → its reference */
  const byExpression = new Map();
  /**
   * @type {string[]} each validator's expression, by number; an expression refers to validator n as
   * \0n\0 (a character that JSON.stringify escapes, so no key written in an expression has it)
   */
  const expressions = [];

  /** @param {{ _zod: { def: any } }} node @param {string} where */
  const compile = (node, where) => {
    const known = names.get(node);
    if (known !== undefined) return known;
    const def = node._zod.def;
    /** @type {(what: string) => never} */
    const fail = (what) => {
      throw new Error(`${path}: ${where} ${what}, which scripts/generate-validators.mjs cannot generate`);
    };
    if (def.coerce) fail('coerces');
    const checks = def.checks ?? [];
    if (def.type !== 'string' && checks.length > 0) fail(`has checks on a ${def.type}`);
    /** @type {string} */
    let expression;
    switch (def.type) {
      case 'string':
        if (checks.length > 1) fail('has more than one refinement');
        expression = `string(${checks.length > 0 ? JSON.stringify(lengthRule(checks[0], fail)).slice(1, -1) : ''})`;
        break;
      case 'number':
        expression = 'number';
        break;
      case 'optional':
        expression = `optional(${compile(def.innerType, `${where}?`)})`;
        break;
      case 'array':
        expression = `array(${compile(def.element, `${where}[]`)})`;
        break;
      case 'object': {
        const catchall = def.catchall?._zod.def.type;
        if (catchall !== undefined && catchall !== 'unknown') fail(`has a ${catchall} catchall`);
        const fields = Object.keys(def.shape).map(
          (key) => `${JSON.stringify(key)}: ${compile(def.shape[key], `${where}.${key}`)}`,
        );
        expression = `object({ ${fields.join(', ')} }${catchall === 'unknown' ? ', true' : ''})`;
        break;
      }
      default:
        fail(`is a z.${def.type}()`);
    }
    // Schemas written alike (each `z.optional(z.string())`) share one validator.
    let reference = byExpression.get(expression);
    if (reference === undefined) {
      reference = `\0${expressions.length}\0`;
      byExpression.set(expression, reference);
      expressions.push(expression);
    }
    names.set(node, reference);
    return reference;
  };

  /** @type {string[]} */
  const exported = [];
  for (const [name, value] of Object.entries(exports)) {
    if (isSchema(value)) exported.push(`export const ${name} = schema(${compile(value, name)});`);
    else if (['number', 'string', 'boolean'].includes(typeof value))
      exported.push(`export const ${name} = ${JSON.stringify(value)};`);
    else
      throw new Error(
        `${path}: export ${name} is a ${typeof value}; only schemas and constants can be generated (move it to a module of its own)`,
      );
  }
  // A validator used in one place is written there; one used in several is a variable.
  const everything = [...expressions, ...exported].join('\n');
  const shared = (/** @type {number} */ n) => everything.split(`\0${n}\0`).length > 2;
  /** @param {string} text @returns {string} */
  const written = (text) =>
    text.replace(/\0(\d+)\0/g, (_, n) =>
      shared(Number(n)) ? `v${n}` : written(/** @type {string} */ (expressions[Number(n)])),
    );
  const variables = expressions.flatMap((expression, n) =>
    shared(n) ? [`const v${n} = ${written(expression)};`] : [],
  );
  return [
    '// Generated by scripts/generate-validators.mjs from bridge/protocol/schemas.ts. Do not edit.',
    RUNTIME,
    ...variables,
    ...exported.map(written),
    '',
  ].join('\n');
}

/**
 * A refinement the generator can emit: one that states its rule as `params: {minLength, maxLength}`.
 * The stated rule is tried against the refinement's own function at both bounds, so the two can
 * never drift apart unnoticed.
 * @param {any} check @param {(what: string) => never} fail @returns {[number, number, string] | [number, number]}
 */
function lengthRule(check, fail) {
  const def = check._zod.def;
  const { minLength, maxLength } = def.params ?? {};
  if (def.check !== 'custom' || !Number.isInteger(minLength) || !Number.isInteger(maxLength) || def.abort || def.when)
    fail('has a refinement without params {minLength, maxLength}');
  for (const length of [minLength - 1, minLength, maxLength, maxLength + 1]) {
    if (length < 0) continue;
    const expected = length >= minLength && length <= maxLength;
    if (def.fn('x'.repeat(length)) !== expected)
      fail(`has a refinement whose function disagrees with its params at length ${length}`);
  }
  const message = typeof def.error === 'function' ? def.error({ code: 'custom' }) : undefined;
  const text = typeof message === 'string' ? message : message?.message;
  if (typeof text !== 'string') fail('has a refinement without a fixed message');
  // The wording the schemas use is the runtime's default, left out of each rule.
  return text === `must be ${minLength} to ${maxLength} characters`
    ? [minLength, maxLength]
    : [minLength, maxLength, /** @type {string} */ (text)];
}
