// Runs inside the scratch consumer project (scripts/test-package.mjs): imports every entry of the
// installed package as Node does, and checks each does what it is for, not only that it loads.
// Arguments: a fixture and its golden for the replay entry.
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [fixture, golden] = process.argv.slice(2);
const consumer = realpathSync(fileURLToPath(new URL('.', import.meta.url)));
const fileOf = (specifier) => realpathSync(fileURLToPath(import.meta.resolve(specifier)));
const pkgJson = fileOf('chat-bridge/package.json');
assert.ok(
  pkgJson.startsWith(`${consumer}/node_modules/chat-bridge/`),
  `chat-bridge resolves to ${pkgJson}, not to the consumer's own install`,
);
const pkg = JSON.parse(readFileSync(pkgJson, 'utf8'));

/** What each module entry must export, by typeof. */
const MODULES = {
  '.': { createBridge: 'function', createGlobal: 'function', normalizeOptions: 'function', ErrorCode: 'object' },
  './client': { createClient: 'function', ChatBridgeError: 'function', ErrorCode: 'object', ClientErrorCode: 'object' },
  './react-native': { createReactNativeHost: 'function', decodeMessage: 'function' },
  './bundle-source': { bundleSource: 'string' },
  './debug-bundle-source': { debugBundleSource: 'string' },
  './start-source': { startSource: 'string' },
  './replay': { replay: 'function', parseFixture: 'function', ReplayError: 'function' },
};
/** The scripts a host injects: fetched as files (never imported), each the same text as its source module. */
const SCRIPTS = {
  './chat-bridge.js': ['./bundle-source', 'bundleSource'],
  './chat-bridge.debug.js': ['./debug-bundle-source', 'debugBundleSource'],
  './chat-bridge.start.js': ['./start-source', 'startSource'],
};

const unchecked = Object.keys(pkg.exports).filter(
  (key) => !(key in MODULES || key in SCRIPTS || key === './package.json'),
);
assert.deepEqual(unchecked, [], 'exports entries without a check here: add them to test/package/consumer/entries.mjs');

const loaded = {};
for (const [entry, names] of Object.entries(MODULES)) {
  const specifier = entry === '.' ? 'chat-bridge' : `chat-bridge/${entry.slice(2)}`;
  const module = await import(specifier);
  for (const [name, type] of Object.entries(names)) assert.equal(typeof module[name], type, `${specifier}: ${name}`);
  loaded[entry] = module;
  console.log(`ok import ${specifier}`);
}

for (const [entry, [sourceEntry, name]] of Object.entries(SCRIPTS)) {
  const text = readFileSync(fileOf(`chat-bridge/${entry.slice(2)}`), 'utf8');
  assert.ok(text.length > 1000, `${entry} is empty`);
  assert.equal(text, loaded[sourceEntry][name], `${entry} differs from chat-bridge/${sourceEntry.slice(2)}`);
  console.log(`ok file chat-bridge/${entry.slice(2)} (${text.length} bytes, the same as ${name})`);
}

// The bridge entry runs its zod schemas: options are checked, the version is the package's.
const bridge = loaded['.'];
assert.equal(bridge.VERSION, pkg.version);
const options = bridge.normalizeOptions({ baseUrl: 'https://chat.example.test', websiteToken: 'wt_123456' }, '');
assert.equal(options.baseUrl, 'https://chat.example.test');
assert.throws(
  () => bridge.normalizeOptions({ baseUrl: 'https://chat.example.test', maxFileSize: -1 }, ''),
  /maxFileSize/,
);
assert.deepEqual(loaded['./client'].ErrorCode, bridge.ErrorCode);

// The client settles a call from the response carrying its id.
const sent = [];
const client = loaded['./client'].createClient({ send: (command) => void sent.push(command) });
const listed = client.listOutbox();
assert.equal(client.handle({ type: 'response', id: sent[0].id, ok: true, result: { messages: [] } }), true);
assert.deepEqual(await listed, { messages: [] });

// The React Native side turns text that is not JSON into a parse_error event.
assert.equal(loaded['./react-native'].decodeMessage('not json').code, 'parse_error');

// The replay entry plays a fixture exactly as its golden says.
const output = await loaded['./replay'].replay(readFileSync(fixture, 'utf8'), { host: 'android' });
assert.equal(output, readFileSync(golden, 'utf8'), 'the installed replay differs from the golden');
console.log('ok behaviour: options, client, react-native decoding, replay against its golden');
