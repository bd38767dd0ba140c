// @ts-check
/**
 * Chatwoot's error answers, in its shapes (app/controllers/concerns/request_exception_handler.rb):
 * RecordNotFound -> 404 `{"error": "Resource could not be found"}` (`render_not_found_error`);
 * RecordInvalid -> 422 `{"message": <full messages joined by ", ">, "attributes": [...]}`
 * (`render_record_invalid`); ParameterMissing -> 422 `{"error": <its message>}`
 * (`render_could_not_create_error`); an exception nothing rescues, Rails' 500
 * `{"status": 500, "error": "Internal Server Error"}`; and `render json: { error: 'Account is suspended' }, status:
 * :unauthorized` from app/controllers/concerns/website_token_helper.rb `set_web_widget`. Bodies carry
 * `error` or `message`, never the contract's ErrorResponse.
 */

/** @typedef {import('../http-io.mjs').Reply} Reply */

/** @param {number} status @param {string} error @returns {Reply} */
export const errorBody = (status, error) => ({ status, body: { error } });

export const NOT_FOUND = () => errorBody(404, 'Resource could not be found');
export const SUSPENDED = () => errorBody(401, 'Account is suspended');
/** ActionController::ParameterMissing's message, as Rails words it. */
export const PARAM_MISSING = (/** @type {string} */ name) =>
  errorBody(422, `param is missing or the value is empty: ${name}`);

/**
 * An exception no controller rescues, in production (config/environments/production.rb:
 * `consider_all_requests_local = false`): Rails' ActionDispatch::PublicExceptions answers it in the
 * request's format, JSON on the API (config/routes.rb: `namespace :api, defaults: { format: 'json' }`).
 * @returns {Reply}
 */
export const INTERNAL_ERROR = () => ({ status: 500, body: { status: 500, error: 'Internal Server Error' } });

/** ActiveRecord::RecordInvalid: thrown by a model's validation, answered by render_record_invalid. */
export class RecordInvalid extends Error {
  /** @param {Array<[string, string]>} errors attribute name, full message */
  constructor(errors) {
    super(errors.map(([, message]) => message).join(', '));
    this.name = 'RecordInvalid';
    this.attributes = [...new Set(errors.map(([attribute]) => attribute))];
  }

  /** @returns {Reply} */
  toReply() {
    return { status: 422, body: { message: this.message, attributes: this.attributes } };
  }
}

/** Rails' public/404.html in production, for the HTML controllers (ActionController::Base). */
export const NOT_FOUND_PAGE = () => ({
  status: 404,
  raw: {
    contentType: 'text/html; charset=utf-8',
    text: "<!DOCTYPE html><title>404</title><h1>The page you were looking for doesn't exist.</h1>",
  },
});
