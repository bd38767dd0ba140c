/**
 * The doctor's requests to a Chatwoot installation's widget API (`--backend chatwoot`): the ones
 * a bridge in a WebView sends, each made once and shared by the checks that read it. The website
 * token goes as the `website_token` query parameter and the contact's token in `X-Auth-Token`
 * (Chatwoot's app/controllers/concerns/website_token_helper.rb); every token met is kept for the
 * report to scrub.
 */
import { send, type DoctorTarget, type Exchange } from './probe.js';

export const WIDGET_API = '/api/v1/widget';

/** Whether the page is on the installation's origin (the widget page, as Chatwoot's SDKs load it): then no CORS applies. */
export const isSameOrigin = (target: DoctorTarget) => new URL(target.baseUrl).origin === target.origin;

export interface ChatwootProbe {
  readonly target: DoctorTarget;
  /** `POST /api/v1/widget/config`: a new contact and its token (`auth_token`). */
  config(): Promise<Exchange>;
  /** `GET /api/v1/widget/conversations` with the contact token of `config()`, or undefined without one. */
  conversations(): Promise<Exchange | undefined>;
  /** The preflight a cross-origin page sends before the bridge's `POST …/messages`. */
  messagesPreflight(): Promise<Exchange>;
  secrets(): string[];
}

export function createChatwootProbe(target: DoctorTarget): ChatwootProbe {
  const secrets = new Set<string>([target.websiteToken]);
  const url = (path: string) => {
    const address = new URL(`${target.baseUrl}${WIDGET_API}${path}`);
    address.searchParams.set('website_token', target.websiteToken);
    return address.href;
  };
  let config: Promise<Exchange> | undefined;
  let conversations: Promise<Exchange | undefined> | undefined;
  let preflight: Promise<Exchange> | undefined;

  const probe: ChatwootProbe = {
    target,
    config() {
      config ??= send(target, `POST ${WIDGET_API}/config`, url('/config'), {
        method: 'POST',
        headers: { Origin: target.origin },
      }).then((answer) => {
        for (const token of tokensOf(answer)) secrets.add(token);
        return answer;
      });
      return config;
    },
    conversations() {
      conversations ??= probe.config().then((answer) => {
        const token = contactTokenOf(answer);
        if (token === undefined) return undefined;
        return send(target, `GET ${WIDGET_API}/conversations`, url('/conversations'), {
          method: 'GET',
          headers: { Origin: target.origin, 'X-Auth-Token': token },
        });
      });
      return conversations;
    },
    messagesPreflight() {
      preflight ??= send(target, `OPTIONS ${WIDGET_API}/messages`, url('/messages'), {
        method: 'OPTIONS',
        headers: {
          Origin: target.origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, x-auth-token',
        },
      });
      return preflight;
    },
    secrets: () => [...secrets],
  };
  return probe;
}

/** The contact token a config answer hands out (`auth_token`, configs/create.json.jbuilder). */
export function contactTokenOf(answer: Exchange): string | undefined {
  if (!answer.answered || typeof answer.body !== 'object' || answer.body === null) return undefined;
  const token = (answer.body as Record<string, unknown>)['auth_token'];
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** Every token in a config answer: the contact's `auth_token` and its `contact.pubsub_token`. */
function tokensOf(answer: Exchange): string[] {
  const token = contactTokenOf(answer);
  const contact = answer.answered
    ? (answer.body as { contact?: { pubsub_token?: unknown } } | undefined)?.contact
    : undefined;
  const pubsub =
    typeof contact?.pubsub_token === 'string' && contact.pubsub_token !== '' ? contact.pubsub_token : undefined;
  return [token, pubsub].filter((value): value is string => value !== undefined);
}
