export const WOOT_PREFIX = 'chatwoot-widget:';
export const POST_MESSAGE_EVENTS = {
  SET_LOCALE: 'set-locale',
  SET_CUSTOM_ATTRIBUTES: 'set-custom-attributes',
  SET_USER: 'set-user',
  SET_COLOR_SCHEME: 'set-color-scheme',
};
export const COLOR_WHITE = '#fff';
export const BG_COLOR_WHITE = '#FFFF';
export const BG_COLOR_DARK = '#25292c';
