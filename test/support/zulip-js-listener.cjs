// Runs zulip-js's own long-poll loop (callOnEachEvent) and prints each event as a JSON line.
// A child process, because that loop never ends: the test kills it.
const zulip = require('zulip-js');

(async () => {
  const client = await zulip({ username: process.env.ZULIP_USERNAME, apiKey: process.env.ZULIP_API_KEY, realm: process.env.ZULIP_REALM });
  console.log(JSON.stringify({ type: 'ready' }));
  await client.callOnEachEvent((event) => console.log(JSON.stringify(event)), ['message']);
})();
