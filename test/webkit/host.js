// A small native host for the WebKit tests: WebKitGTK (the engine of WKWebView, through the API
// WKScriptMessageHandler descends from) embedded by GJS, driven over stdin/stdout, one JSON object a
// line. Run as `xvfb-run -a gjs test/webkit/host.js`; test/helpers/webkit.ts starts and talks to it.
//
// It does what an iOS app does with a WKWebView:
// - registers a script message handler per channel (WKUserContentController.add(_:name:)),
// - adds user scripts injected at document start in the main frame (WKUserScript(.atDocumentStart)),
// - evaluates scripts in the page (evaluateJavaScript / callAsyncJavaScript),
// and reports every message a handler receives as the native side sees it: the value WebKit hands
// over, converted the way an iOS host gets WKScriptMessage.body (strings, as the bridge posts its
// JSON text; objects to dictionaries, arrays to arrays, numbers, booleans, null, as a page script
// may post them), with the places where WebKit delivered `undefined`.
// That walk makes a few GObject calls per value, time in the UI process that an iOS app does not
// spend, as WebKit hands it the body already converted in native code. With "bodies": "json" (the
// bench) a body is converted by JSC's own JSON in one native call, nearer what an app pays, and
// the `undefined` places are not reported. With "bodies": "type" (bench/round-trip-check.mjs) the
// handler parses JSON text and reads the `type` of each message, reporting nothing, as the least
// of apps would.
//
// Requests (stdin):  {"id": 1, "op": "open", "view": "a", "url": "...", "handlers": ["chatBridge"],
//                     "userScripts": ["..."], "dataDir": "/tmp/..." (optional: storage on disk),
//                     "shareWith": "b" (optional: the web context of view b, so both views share
//                     storage and locks, as two WKWebViews of one app do),
//                     "bodies": "json" | "type" (optional: see above)}
//                    {"id": 2, "op": "eval", "view": "a", "body": "return 1"}   (an async function body)
//                    {"id": 3, "op": "reload", "view": "a"}  {"id": 4, "op": "close", "view": "a"}
//                    {"id": 5, "op": "clearData", "view": "a"} (all website data of its data store)
// Answers (fd 3):    {"id": 1, "ok": true, "value": ...} or {"id": 1, "ok": false, "error": "..."}
// Events (fd 3):     {"event": "message", "view": "a", "handler": "chatBridge", "body": ..., "undefinedAt": []}
//                    {"event": "started", "webkit": "2.50.6"}
// Plain GJS (no TypeScript, no modules): it runs outside Node.
'use strict';

imports.gi.versions.Gtk = '3.0';
imports.gi.versions.WebKit2 = '4.1';
const { Gio, GLib, Gtk, WebKit2 } = imports.gi;

Gtk.init(null);

const stdout = new Gio.DataOutputStream({
  // fd 3, not stdout: WebKit's processes and xvfb-run write their own lines to stdout and stderr.
  base_stream: new Gio.UnixOutputStream({ fd: 3, close_fd: false }),
});
const stdin = new Gio.DataInputStream({ base_stream: new Gio.UnixInputStream({ fd: 0, close_fd: false }) });

function send(object) {
  stdout.put_string(JSON.stringify(object) + '\n', null);
  stdout.flush(null);
}

const utf8 = new TextDecoder('utf-8');
/** A JavaScriptCore string's text, read as bytes: to_string() gives a C string, which would end at the first U+0000. */
const textOf = (value) => utf8.decode(value.to_string_as_bytes().toArray());

/** Views by the test's name for them: { view, window, onLoad } */
const views = new Map();

/**
 * A JavaScriptCore value as the native side receives it. `undefinedAt` collects the paths where
 * WebKit delivered `undefined` (JSON has no such value; a Foundation dictionary has none either).
 */
function toNative(value, path, undefinedAt) {
  if (value.is_undefined()) {
    undefinedAt.push(path);
    return null;
  }
  if (value.is_null()) return null;
  if (value.is_string()) return textOf(value);
  if (value.is_boolean()) return value.to_boolean();
  if (value.is_number()) return value.to_double();
  if (value.is_array()) {
    const length = value.object_get_property('length').to_int32();
    const items = [];
    for (let i = 0; i < length; i++)
      items.push(toNative(value.object_get_property_at_index(i), `${path}[${i}]`, undefinedAt));
    return items;
  }
  if (value.is_object()) {
    const result = {};
    for (const key of value.object_enumerate_properties() || []) {
      const item = value.object_get_property(key);
      if (item.is_undefined()) {
        // Kept out of the dictionary, as JSON and Foundation have no undefined; the path is reported.
        undefinedAt.push(path === '' ? key : `${path}.${key}`);
        continue;
      }
      result[key] = toNative(item, path === '' ? key : `${path}.${key}`, undefinedAt);
    }
    return result;
  }
  return `<unsupported ${value.to_string()}>`;
}

/**
 * What the least of apps does with a message (`bodies: "type"`): reads its `type`, one property
 * of each message of the payload, and reports nothing. JSON text, as the bridge posts it, is
 * parsed first, as the app's decoder does (Swift's ChatEvent.decodeAll, with JSONSerialization).
 */
function readTypes(value) {
  if (value.is_string()) {
    const parsed = JSON.parse(textOf(value));
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) void message.type;
    return;
  }
  const count = value.is_array() ? value.object_get_property('length').to_int32() : 1;
  for (let i = 0; i < count; i++)
    (value.is_array() ? value.object_get_property_at_index(i) : value).object_get_property('type');
}

function openView(request, done) {
  if (views.has(request.view)) throw new Error(`view ${request.view} is already open`);
  // Its own ephemeral data: storage and the CORS preflight cache are not shared between views,
  // unless `shareWith` names an open view (a second WebView of the same app: shared storage).
  // `dataDir` (the bench): its own data on disk instead, as an app's WKWebView keeps IndexedDB.
  const dataManager = request.dataDir
    ? new WebKit2.WebsiteDataManager({ base_data_directory: request.dataDir, base_cache_directory: request.dataDir })
    : WebKit2.WebsiteDataManager.new_ephemeral();
  const context = request.shareWith
    ? entryOf({ view: request.shareWith }).context
    : new WebKit2.WebContext({ website_data_manager: dataManager });
  const manager = new WebKit2.UserContentManager();
  for (const name of request.handlers || []) {
    manager.register_script_message_handler(name);
    manager.connect(`script-message-received::${name}`, (_manager, result) => {
      const undefinedAt = [];
      const value = result.get_js_value();
      if (request.bodies === 'type') return readTypes(value);
      const body = request.bodies === 'json' ? JSON.parse(value.to_json(0)) : toNative(value, '', undefinedAt);
      send({ event: 'message', view: request.view, handler: name, body, undefinedAt });
    });
  }
  // A string runs at document start; {source, at: 'end'} once the document has loaded (.atDocumentEnd).
  for (const script of request.userScripts || []) {
    const atEnd = typeof script === 'object' && script.at === 'end';
    manager.add_script(
      new WebKit2.UserScript(
        typeof script === 'object' ? script.source : script,
        WebKit2.UserContentInjectedFrames.TOP_FRAME,
        atEnd ? WebKit2.UserScriptInjectionTime.END : WebKit2.UserScriptInjectionTime.START,
        null,
        null,
      ),
    );
  }
  const view = new WebKit2.WebView({ web_context: context, user_content_manager: manager });
  const settings = view.get_settings();
  settings.set_enable_developer_extras(false);
  const window = new Gtk.OffscreenWindow();
  window.add(view);
  window.show_all();
  const entry = { view, window, context, onLoad: null };
  views.set(request.view, entry);
  view.connect('load-changed', (_view, event) => {
    if (event === WebKit2.LoadEvent.FINISHED && entry.onLoad) {
      const callback = entry.onLoad;
      entry.onLoad = null;
      callback(null);
    }
  });
  view.connect('load-failed', (_view, _event, uri, error) => {
    if (entry.onLoad) {
      const callback = entry.onLoad;
      entry.onLoad = null;
      callback(`load of ${uri} failed: ${error.message}`);
    }
    return false;
  });
  entry.onLoad = done;
  view.load_uri(request.url);
}

function entryOf(request) {
  const entry = views.get(request.view);
  if (!entry) throw new Error(`no view ${request.view}`);
  return entry;
}

function evaluate(request, done) {
  const { view } = entryOf(request);
  // The page's answer travels as JSON text: a JSC value's own to_json would turn undefined into nothing.
  const body = `const __value = await (async () => { ${request.body}\n})(); return __value === undefined ? '{"undefined":true}' : JSON.stringify({ value: __value });`;
  view.call_async_javascript_function(body, -1, null, null, null, null, (_view, result) => {
    try {
      const value = view.call_async_javascript_function_finish(result);
      const answer = JSON.parse(value.to_string());
      done(null, answer.undefined ? undefined : answer.value);
    } catch (error) {
      done(String(error.message || error));
    }
  });
}

function handle(request) {
  const reply = (error, value) =>
    send(error ? { id: request.id, ok: false, error } : { id: request.id, ok: true, value });
  try {
    switch (request.op) {
      case 'open':
        return openView(request, (error) => reply(error, null));
      case 'eval':
        return evaluate(request, reply);
      case 'reload': {
        const entry = entryOf(request);
        entry.onLoad = (error) => reply(error, null);
        return entry.view.reload();
      }
      case 'clearData': {
        // What an app's logout does on iOS (WKWebsiteDataStore.removeData of every type): the
        // view's data store loses its IndexedDB, localStorage and the rest, under the open page.
        const manager = entryOf(request).context.get_website_data_manager();
        return manager.clear(WebKit2.WebsiteDataTypes.ALL, 0, null, (_manager, result) => {
          try {
            manager.clear_finish(result);
            reply(null, null);
          } catch (error) {
            reply(String(error.message || error));
          }
        });
      }
      case 'close': {
        const entry = entryOf(request);
        views.delete(request.view);
        entry.window.destroy();
        return reply(null, null);
      }
      case 'quit':
        reply(null, null);
        return Gtk.main_quit();
      default:
        return reply(`unknown op ${request.op}`);
    }
  } catch (error) {
    return reply(String(error.message || error));
  }
}

function readNext() {
  stdin.read_line_async(GLib.PRIORITY_DEFAULT, null, (_stream, result) => {
    let line;
    try {
      [line] = stdin.read_line_finish_utf8(result);
    } catch (error) {
      line = null;
    }
    // stdin closed: the test process is gone, so is the reason to run.
    if (line === null) return Gtk.main_quit();
    if (line.trim() !== '') {
      let request;
      try {
        request = JSON.parse(line);
      } catch (error) {
        send({ event: 'bad-request', line });
      }
      if (request) handle(request);
    }
    readNext();
  });
}

readNext();
send({
  event: 'started',
  webkit: `${WebKit2.get_major_version()}.${WebKit2.get_minor_version()}.${WebKit2.get_micro_version()}`,
});
Gtk.main();
