import { type Account, TestApp } from '../../support/test-app.js';

/**
 * The route index (src/app/route-index.ts): a request tries only the route layers that can
 * match its path, and gets the same answer as from Express's own walk through every route.
 */
type Layer = { name: string; route?: { path: string }; handle: { routes?: Layer[] }; match: (path: string) => unknown };

let t: TestApp;
let member: Account;
let routes: Layer[];
beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser({ fullName: 'Member' });
  const stack = (t.app.getHttpAdapter().getInstance() as unknown as { router: { stack: Layer[] } }).router.stack;
  expect(stack.filter((l) => l.route !== undefined)).toEqual([]);
  const index = stack.filter((l) => l.name === 'routeIndex');
  expect(index).toHaveLength(1);
  routes = index[0].handle.routes!;
});
afterAll(() => t.close());

/** How many route layers' `match` ran while `run` ran. */
async function matchesDuring(run: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const originals = routes.map((l) => l.match);
  routes.forEach((l, i) => {
    l.match = (path: string) => {
      n++;
      return originals[i].call(l, path);
    };
  });
  try {
    await run();
    return n;
  } finally {
    routes.forEach((l, i) => (l.match = originals[i]));
  }
}

it('holds every route, and a request for a literal route path tries only the layers that can match it', async () => {
  expect(routes.length).toBeGreaterThan(150);
  const settings = routes.findIndex((l) => l.route?.path === '/api/v1/server_settings');
  expect(settings).toBeGreaterThan(100); // Express alone would try the layers before it first
  expect(await matchesDuring(() => t.get('server_settings', { as: null }).expect(200))).toBeLessThanOrEqual(2);
  expect(await matchesDuring(() => t.get('users/me', { as: member }).expect(200))).toBeLessThanOrEqual(4);
  // A path with a parameter: Express's walk, as before.
  expect(await matchesDuring(() => t.get('users/1', { as: member }))).toBeGreaterThan(20);
});

it('answers as Express would: case, trailing slash, literal before parameter, 404 and 405', async () => {
  const me = await t.http.get('/API/V1/Users/Me/').auth(member.email, member.apiKey);
  expect({ status: me.status, id: me.body.user_id }).toEqual({ status: 200, id: member.id });
  // users/me and users/{user_id}: the literal route is registered first, and answers.
  const byId = await t.get(`users/${member.id}`, { as: t.owner });
  expect(byId.body.user.user_id).toBe(member.id);
  const put = await t.http.put('/api/v1/server_settings');
  expect({ status: put.status, body: put.body }).toEqual({ status: 405, body: { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] } });
  const head = await t.http.head('/api/v1/server_settings');
  expect(head.status).toBe(200);
  const missing = await t.get('no_such_endpoint', { as: member });
  expect({ status: missing.status, body: missing.body }).toEqual({ status: 404, body: { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' } });
  // OPTIONS: no route answers it; the 405 lists the path's methods.
  const options = await t.http.options('/api/v1/server_settings');
  expect({ status: options.status, body: options.body }).toEqual({ status: 405, body: { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] } });
});
