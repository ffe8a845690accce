// Local stand-ins for Fastly's and Cloudflare's purge APIs that check each call against the
// vendors' documentation and answer as they do:
// - Fastly: `POST /service/{service_id}/purge`, `Fastly-Key: <token>`, the keys space-separated in
//   `Surrogate-Key` (at most 256 per call), `Fastly-Soft-Purge: 1` for a soft purge; 200 with a
//   JSON object of key → purge id.
// - Cloudflare: `POST /zones/{zone_id}/purge_cache`, `Authorization: Bearer <token>`, a JSON body
//   `{"tags": [...]}` (at most 100 per call); 200 `{"success": true, "errors": [], "messages": [],
//   "result": {"id": …}}`.
// A call that breaks a rule is answered as the vendor would (401/403/400) and recorded as `bad`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type PurgeCall = Readonly<{ keys: string[]; soft: boolean; bad: string | null }>;

type Failure = Readonly<{ status: number; body: string }>;

const readBody = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text));
  });

const standIn = async (
  check: (req: http.IncomingMessage, body: string) => { keys: string[]; soft: boolean; bad: string | null },
  answer: (call: PurgeCall) => Failure & { ok: boolean },
) => {
  const calls: PurgeCall[] = [];
  const failures: Failure[] = [];
  let down: Failure | null = null;
  /** While set: the calls that came, each answered when released (a caller killed meanwhile never hears). */
  let held: (() => void)[] | null = null;
  const server = http.createServer((req, res) => {
    void readBody(req).then((body) => {
      const call = check(req, body);
      calls.push(call);
      const respond = () => {
        const failure = call.bad === null ? (down ?? failures.shift()) : undefined;
        const reply = failure ?? answer(call);
        res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(reply.body);
      };
      if (held === null) respond();
      else held.push(respond);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    /** The next `count` well-formed calls fail with `status` and `body`. */
    failNext: (count: number, status: number, body: string) => {
      for (let i = 0; i < count; i += 1) failures.push({ status, body });
    },
    /** Every well-formed call fails with `failure` until called with null (an outage). */
    setDown: (failure: Failure | null) => {
      down = failure;
    },
    /** Every call from now on is recorded but left unanswered until `release` (a purge in flight). */
    hold: () => {
      held ??= [];
    },
    /** Answers the calls held, and the next ones at once again. */
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const respond of waiting) respond();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
};

const FASTLY_MAX_KEYS_DOCUMENTED = 256;
const CLOUDFLARE_MAX_TAGS_DOCUMENTED = 100;

export const startFastlyStandIn = (serviceId: string, token: string) =>
  standIn(
    (req, _body) => {
      const keys = String(req.headers['surrogate-key'] ?? '')
        .split(' ')
        .filter((key) => key !== '');
      const soft = req.headers['fastly-soft-purge'] === '1';
      const bad =
        req.method !== 'POST' || req.url !== `/service/${serviceId}/purge`
          ? `not found: ${req.method} ${req.url}`
          : req.headers['fastly-key'] !== token
            ? 'unauthorized'
            : keys.length === 0 || keys.length > FASTLY_MAX_KEYS_DOCUMENTED
              ? `keys: ${keys.length}`
              : null;
      return { keys, soft, bad };
    },
    (call) => {
      if (call.bad === 'unauthorized')
        return { ok: false, status: 401, body: '{"msg":"Provided credentials are missing or invalid"}' };
      if (call.bad !== null) return { ok: false, status: 400, body: `{"msg":"${call.bad}"}` };
      const ids = Object.fromEntries(call.keys.map((key, i) => [key, `108-1391560174-${i}`]));
      return { ok: true, status: 200, body: JSON.stringify(ids) };
    },
  );

const cloudflareError = (code: number, message: string) =>
  JSON.stringify({ success: false, errors: [{ code, message }], messages: [], result: null });

export const startCloudflareStandIn = (zoneId: string, token: string) =>
  standIn(
    (req, body) => {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = null;
      }
      const tags = (parsed as { tags?: unknown } | null)?.tags;
      const keys = Array.isArray(tags) ? tags.map(String) : [];
      const onlyTags =
        parsed !== null &&
        typeof parsed === 'object' &&
        Object.keys(parsed).join() === 'tags' &&
        Array.isArray(tags) &&
        tags.every((tag) => typeof tag === 'string');
      const bad =
        req.method !== 'POST' || req.url !== `/zones/${zoneId}/purge_cache`
          ? `not found: ${req.method} ${req.url}`
          : req.headers['authorization'] !== `Bearer ${token}`
            ? 'unauthorized'
            : !String(req.headers['content-type']).startsWith('application/json') || !onlyTags
              ? 'body'
              : keys.length === 0 || keys.length > CLOUDFLARE_MAX_TAGS_DOCUMENTED
                ? `tags: ${keys.length}`
                : null;
      return { keys, soft: false, bad };
    },
    (call) => {
      if (call.bad === 'unauthorized')
        return { ok: false, status: 403, body: cloudflareError(10000, 'Authentication error') };
      if (call.bad !== null) return { ok: false, status: 400, body: cloudflareError(1012, call.bad) };
      return {
        ok: true,
        status: 200,
        body: JSON.stringify({ success: true, errors: [], messages: [], result: { id: 'purge-id' } }),
      };
    },
  );
