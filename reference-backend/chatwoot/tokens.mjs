// @ts-check
/**
 * The contact's token, as Chatwoot makes it: a JWT (HS256) of `{source_id, inbox_id, iat, exp}`
 * signed with the installation's secret, valid 180 days (WIDGET_TOKEN_EXPIRY's default;
 * app/services/widget/token_service.rb over app/services/base_token_service.rb, called from
 * app/controllers/api/v1/widget/configs_controller.rb `set_token`; app/controllers/widgets_controller.rb
 * signs the same payload for the widget page). Decoding a token that does not verify gives `{}`,
 * as TokenService#decode_token rescues to an empty hash, so the caller answers 404 (no contact).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** @param {string | Buffer} data */
const base64url = (data) => Buffer.from(data).toString('base64url');
const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

/** @typedef {{source_id: string, inbox_id: number}} TokenPayload */

const EXPIRY_SECONDS = 180 * 24 * 60 * 60;

/**
 * A signer with a secret of its own, new for every server, like a fresh `secret_key_base`.
 * @param {() => number} now epoch milliseconds
 */
export function createTokenService(now) {
  const secret = randomBytes(32);
  /** @param {string} text */
  const sign = (text) => createHmac('sha256', secret).update(text).digest();

  return {
    /** @param {TokenPayload} payload */
    generate(payload) {
      const iat = Math.floor(now() / 1000);
      const body = `${HEADER}.${base64url(JSON.stringify({ ...payload, exp: iat + EXPIRY_SECONDS, iat }))}`;
      return `${body}.${base64url(sign(body))}`;
    },
    /**
     * @param {string | undefined} token
     * @returns {Partial<TokenPayload>}
     */
    decode(token) {
      const [header, payload, signature] = (token ?? '').split('.');
      if (header !== HEADER || !payload || !signature) return {};
      const expected = sign(`${header}.${payload}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return {};
      try {
        const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        // JWT.decode verifies `exp`: an expired token decodes to nothing, like a forged one.
        if (typeof value !== 'object' || value === null || !(value.exp * 1000 > now())) return {};
        return value;
      } catch {
        return {};
      }
    },
  };
}
