/**
 * The React Native host's answer to react-native-webview#1049: `onLoadStart` also fires for a
 * hash change, where no new page comes and no `ready` follows. So after `onLoadStart` the page is
 * asked whether its bridge is still there, at the URL loading; the probe script (not the bridge)
 * answers, and commands go on to that page. A page still showing another URL is the old document
 * about to go: it is asked again, and after a few tries believed.
 */

/** How often, and how many times, a page that still shows the old URL is asked again after `onLoadStart`. */
export const PROBE_RETRY_MS = 1_000;
export const PROBE_ATTEMPTS = 5;

/** A probe's answer: posted by the probe script itself (not the bridge) when a running bridge is there. */
export interface ProbeAnswer {
  type: 'ready';
  probe: string;
  href: string;
}

export interface LoadProbe {
  /** Asks the page whether its bridge is still there, at `url` (the URL loading, when known); stops an earlier probe. */
  start(url: string | undefined): void;
  /** A probe's answer: a stale one is ignored; the current one calls `stillThere`, or asks again. */
  answered(answer: ProbeAnswer): void;
  /** No more asking: the new page's own `ready` came. */
  stop(): void;
}

/** The question asked after `onLoadStart`: is this page's bridge still there, at the URL loading? */
interface Probe {
  token: string;
  url: string | undefined;
  attempt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * @param inject runs a script in the page (false when the WebView is not mounted).
 * @param stillThere the page that answered keeps its bridge: commands may go on to it.
 */
export function createLoadProbe(inject: (script: string) => boolean, stillThere: () => void): LoadProbe {
  let probe: Probe | undefined;
  let probes = 0;
  const stop = () => {
    if (probe?.timer !== undefined) clearTimeout(probe.timer);
    probe = undefined;
  };
  const ask = () => {
    if (probe === undefined) return;
    probe.timer = undefined;
    const token = JSON.stringify(probe.token);
    inject(
      `(function(){var b=window.ChatBridge,w=window.ReactNativeWebView;` +
        `if(b&&b.bridge&&w)w.postMessage(JSON.stringify({type:"ready",probe:${token},href:location.href}))})();true;`,
    );
  };

  return {
    start(url) {
      stop();
      probe = {
        token: `p${++probes}.${Math.random().toString(36).slice(2, 8)}`,
        url,
        attempt: 0,
        timer: undefined,
      };
      ask();
    },
    answered(answer) {
      if (probe === undefined || answer.probe !== probe.token) return; // a stale probe
      // The page answering still shows another URL than the one loading: the old document, about
      // to go. Ask again; after a few tries, believe it (the new page's ready settles the rest).
      if (probe.url !== undefined && answer.href !== probe.url && ++probe.attempt < PROBE_ATTEMPTS) {
        probe.timer = setTimeout(ask, PROBE_RETRY_MS);
        return;
      }
      stop();
      stillThere();
    },
    stop,
  };
}
