/**
 * The upload checks (upload-checks.ts) on a Chatwoot installation: what its widget API does
 * differently from the contract, each rule from Chatwoot's source (chatwoot/chatwoot, develop of
 * 2025-26):
 * - the endpoint is `POST /api/v1/widget/messages` (config/routes.rb, `namespace :widget`), the
 *   website token its `website_token` query parameter (app/controllers/concerns/website_token_helper.rb
 *   `set_web_widget`), as the widget itself sends it (app/javascript/widget/api/endPoints.js
 *   `sendAttachment`, `window.location.search`);
 * - the file goes as multipart `message[attachments][]` (endPoints.js `sendAttachment`;
 *   app/controllers/api/v1/widget/messages_controller.rb `build_attachment`);
 * - the contact's token goes in the `X-Auth-Token` header (website_token_helper.rb
 *   `auth_token_params`); a made-up one decodes to no contact, so `set_contact` raises
 *   RecordNotFound before anything is stored: 404 `{"error": "Resource could not be found"}`
 *   (app/controllers/concerns/request_exception_handler.rb `render_not_found_error`). That JSON
 *   404 is the application's refusal; Rails' routing 404 (a wrong --base-url) is an HTML page;
 * - the largest attachment is MAXIMUM_FILE_UPLOAD_SIZE megabytes, 40 by default, and a file of
 *   exactly that many bytes is taken (`byte_size > limit_mb.megabytes` in app/models/attachment.rb
 *   `validate_file_size`): the bridge's `maxFileSize` on Chatwoot is 40 MiB and never more, so the
 *   doctor sends that, or the smaller `--max-file-size`;
 * - Chatwoot's own nginx configuration sets no body limit (`client_max_body_size 0;` in
 *   deployment/nginx_chatwoot.conf): a proxy in front that keeps nginx's 1m, or any limit under
 *   the file plus its form fields, refuses photos;
 * - CORS: none on /api/* unless ENABLE_API_CORS (config/initializers/cors.rb, rack-cors, which adds
 *   its headers to Rails' answers only, never to a proxy's own 413): a page on the installation's
 *   origin (the widget page, as Chatwoot's SDKs load it) needs none, so the CORS part applies to a
 *   page on another origin only.
 */
import { isSameOrigin, WIDGET_API } from './chatwoot-probe.js';
import { createUploadChecks, type UploadProfile } from './upload-checks.js';

const MIB = 1024 * 1024;

/** A limit in whole MiB above the file and a few KB of form fields: 40 MiB gives 41. */
const limitFor = (size: number) => Math.floor(size / MIB) + 1;

export const CHATWOOT_UPLOAD: UploadProfile = {
  backend: 'chatwoot',
  path: `${WIDGET_API}/messages`,
  url(target) {
    const address = new URL(`${target.baseUrl}${WIDGET_API}/messages`);
    address.searchParams.set('website_token', target.websiteToken);
    return address.href;
  },
  fileField: 'message[attachments][]',
  credential: 'X-Auth-Token',
  credentialHeader: (madeUp) => ({ 'X-Auth-Token': madeUp }),
  isRefusal: (answer) =>
    answer.status === 404 &&
    typeof answer.body === 'object' &&
    answer.body !== null &&
    typeof (answer.body as Record<string, unknown>)['error'] === 'string',
  refusal: `Chatwoot's 404 {"error": ...} for an unknown contact`,
  crossOrigin: (target) => !isSameOrigin(target),
  limitFix: (size) =>
    `raise the proxy's body limit above the file plus a few KB of form fields: nginx "client_max_body_size ${limitFor(size)}m;" ` +
    `(its default is 1m; Chatwoot's own deployment/nginx_chatwoot.conf has "client_max_body_size 0;", no limit), ` +
    `Caddy "request_body { max_size ${limitFor(size)}MiB }", Apache "LimitRequestBody ${limitFor(size) * MIB}"`,
  corsFixNote:
    "rack-cors adds it to Chatwoot's own answers with ENABLE_API_CORS, never to a proxy's own 413 or 502: " +
    "raise the proxy's body limit so Chatwoot answers, or load the bridge in the widget page, where no CORS applies",
};

const checks = createUploadChecks(CHATWOOT_UPLOAD);
export const chatwootUploadLimitCheck = checks.limit;
export const chatwootUploadCorsCheck = checks.errorCors;
export const chatwootUploadAnswers = checks.answers;
