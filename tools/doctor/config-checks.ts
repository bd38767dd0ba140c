/**
 * The token checks: `GET /config` with the given website token must hand out a usable
 * authToken (the bridge needs it), and a made-up token should be refused with 401 and an
 * ErrorResponse body (the contract asks for it; the bridge only needs a 401 or 403 to tell the
 * app `auth_failed`).
 */
import { authTokenOf, errorMessageOf } from '../../bridge/index.js';
import type { Check } from './check.js';
import { isRedirect, notChecked, ownerVerdict, type Answered } from './gates.js';

const ERROR_BODY_FIX =
  'answer a refused website token with 401 and a JSON ErrorResponse body such as {"message": "Invalid website token"} (Content-Type: application/json)';

export const configCheck: Check = {
  name: 'GET /config',
  async run(probe) {
    const answer = await probe.config('given');
    if (!answer.answered || isRedirect(answer.status)) return ownerVerdict(answer, 'fail', REDIRECT_FIX);
    const { status } = answer;
    if (status === 401 || status === 403) {
      const said = errorMessageOf(answer.body);
      return {
        status: 'fail',
        detail: `answered ${status}: the website token is invalid, disabled or rotated${said === undefined ? '' : ` (server: "${clip(said)}")`}`,
        fix: "use the inbox's current website token (rotating it invalidates the old one) in --website-token and in the app's websiteToken option",
      };
    }
    if (status < 200 || status > 299) return { status: 'fail', ...unexpectedConfigStatus(answer) };
    if (authTokenOf(answer.body) !== undefined)
      return { status: 'pass', detail: `answered ${status} with a usable authToken (not shown)` };
    return {
      status: 'fail',
      detail: `answered ${status} with ${unusableConfig(answer)}: the backend is misconfigured (not the chat API, or the widget inbox is not set up)`,
      fix: 'make GET /config answer JSON with a non-empty string "authToken" (check that the inbox behind this website token exists and the API runs behind --base-url)',
    };
  },
};

const REDIRECT_FIX =
  'use the final URL as baseUrl and --base-url: the bridge refuses redirects, since a redirected POST loses its body and a cross-origin one its Authorization header';

/** What is wrong with a 2xx config answer that has no usable authToken. */
function unusableConfig(answer: Answered): string {
  if (answer.text.trim() === '') return 'an empty body';
  if (answer.body === undefined)
    return `a body that is not JSON (Content-Type ${answer.headers.get('content-type') ?? 'missing'})`;
  return 'JSON without a non-empty string authToken';
}

function unexpectedConfigStatus({ status, headers, body }: Answered): { detail: string; fix: string } {
  const said = errorMessageOf(body);
  const server = said === undefined ? '' : ` (server: "${clip(said)}")`;
  if (status === 404) {
    return {
      detail: `answered 404: no /config under this base URL${server}`,
      fix: 'point --base-url (and baseUrl) at the API root that serves /config',
    };
  }
  if (status === 429) {
    const retryAfter = headers.get('retry-after');
    return {
      detail: `answered 429: rate limited${retryAfter === null ? '' : ` (Retry-After: ${retryAfter})`}${server}`,
      fix: 'run the doctor again later; if it persists, GET /config is limited too tightly for the clients sharing this address',
    };
  }
  return {
    detail: `answered ${status}${server}`,
    fix: 'check the backend logs: GET /config must answer 200 with JSON carrying an authToken',
  };
}

export const rejectedTokenCheck: Check = {
  name: 'rejected website token',
  async run(probe) {
    const answer = await probe.config('wrong');
    if (!answer.answered || isRedirect(answer.status)) return ownerVerdict(answer, 'fail', REDIRECT_FIX);
    const given = await probe.config('given');
    if (
      given.answered &&
      given.status >= 200 &&
      given.status <= 299 &&
      authTokenOf(given.body) === undefined &&
      answer.status >= 200 &&
      answer.status <= 299 &&
      authTokenOf(answer.body) === undefined
    ) {
      // A misconfigured /config answers every token alike: nothing to judge until it is fixed.
      return notChecked(
        `GET /config answers ${given.status} without a usable authToken whatever the token, so a refused one cannot be told apart; see "GET /config"`,
      );
    }
    if (answer.status >= 200 && answer.status <= 299) {
      return {
        status: 'warn',
        detail: `a made-up website token got ${answer.status} instead of 401${authTokenOf(answer.body) === undefined ? '' : ' and an authToken'}: the backend does not check website tokens (the bridge works, but any app can open conversations in this inbox)`,
        fix: `refuse unknown website tokens: ${ERROR_BODY_FIX}`,
      };
    }
    if (answer.status !== 401 && answer.status !== 403) {
      return {
        status: 'fail',
        detail: `a made-up website token got ${answer.status} instead of 401, so an app whose token is rotated is told something else than auth_failed`,
        fix: ERROR_BODY_FIX,
      };
    }
    const message = errorMessageOf(answer.body);
    const contract = answer.status === 403 ? ' (the bridge reports 403 as auth_failed too; the contract says 401)' : '';
    if (message === undefined) {
      const what =
        answer.text.trim() === ''
          ? 'an empty body'
          : answer.body === undefined
            ? 'a body that is not JSON'
            : 'JSON without a string "message"';
      return {
        status: 'warn',
        detail: `a made-up website token got ${answer.status} with ${what}, not an ErrorResponse: the app gets auth_failed without the server's reason${contract}`,
        fix: ERROR_BODY_FIX,
      };
    }
    if (answer.status === 403) {
      return {
        status: 'warn',
        detail: `a made-up website token got 403 with an ErrorResponse ("${clip(message)}")${contract}`,
        fix: 'answer a refused website token with 401, as the contract says',
      };
    }
    return { status: 'pass', detail: `a made-up website token got 401 with an ErrorResponse ("${clip(message)}")` };
  },
};

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
