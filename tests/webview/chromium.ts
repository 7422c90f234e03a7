/**
 * Debian's Chromium, headless, as every browser test here starts it.
 *
 * The background-networking, component-update and sync flags keep it from
 * calling out (a closed network refuses those connections by the dozen);
 * --no-sandbox because the tests run as root.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
