// @ts-check
/**
 * The throttles of config/initializers/rack_attack.rb that the widget API meets, per client IP:
 * 'req/ip' (RACK_ATTACK_LIMIT, default 3,000 a minute, every request), 'api/v1/widget/conversations'
 * (6 POSTs in 12 hours) and the widget page without `cw_conversation` (5 in an hour). A throttled
 * request gets rack-attack's default answer: 429, `text/plain`, "Retry later\n", and no
 * Retry-After (Rack::Attack only adds it when `throttled_response_retry_after_header` is set,
 * which Chatwoot does not). Rack::Attack is on in production unless ENABLE_RACK_ATTACK=false,
 * and off elsewhere: the `rackAttack: false` option.
 */
import { createRateLimiter } from '../rate-limit.mjs';
import { API } from './routes.mjs';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** @type {import('../http-io.mjs').Reply} */
export const RETRY_LATER = { status: 429, raw: { contentType: 'text/plain', text: 'Retry later\n' } };

/**
 * @param {{requestsPerMinute: number, now: () => number}} options
 */
export function createRackAttack({ requestsPerMinute, now }) {
  const throttles = [
    { limiter: createRateLimiter({ limit: requestsPerMinute, windowMs: MINUTE, now }), applies: () => true },
    {
      limiter: createRateLimiter({ limit: 6, windowMs: 12 * HOUR, now }),
      applies: (/** @type {string} */ method, /** @type {URL} */ url) =>
        method === 'POST' && url.pathname === `${API}/conversations`,
    },
    {
      limiter: createRateLimiter({ limit: 5, windowMs: HOUR, now }),
      applies: (/** @type {string} */ _method, /** @type {URL} */ url) =>
        url.pathname === '/widget' && !url.searchParams.get('cw_conversation'),
    },
  ];
  return {
    /**
     * Counts the request against every throttle it falls under; true when one of them is over.
     * @param {string} method
     * @param {URL} url
     * @param {string} ip
     */
    throttled(method, url, ip) {
      let over = false;
      for (const { limiter, applies } of throttles) {
        if (applies(method, url) && !limiter.hit(ip).allowed) over = true;
      }
      return over;
    },
    reset() {
      for (const { limiter } of throttles) limiter.reset();
    },
  };
}
