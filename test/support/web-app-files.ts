import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_APP_DIR } from '../../src/server/http/web-app.controller.js';

/** The name of the built web app's entry script under dist/web/assets (`npm test` builds first). */
export function webAppScript(): string {
  const name = readdirSync(join(WEB_APP_DIR, 'assets')).find((f) => /^index-.*\.js$/.test(f));
  if (name === undefined) throw new Error(`no built web app in ${WEB_APP_DIR}: run npm run build`);
  return name;
}
