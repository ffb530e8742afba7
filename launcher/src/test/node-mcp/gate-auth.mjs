// Preloaded (node --import) into the conformance runner when it tests the gate: the runner has no
// option for request headers, and the gate needs the workspace's API key on every request. Only
// requests to GATE_URL get it; nothing else of the runner changes.
const gateUrl = process.env.GATE_URL;
const apiKey = process.env.GATE_API_KEY;
if (!gateUrl || !apiKey) {
  throw new Error('GATE_URL and GATE_API_KEY must be set');
}
const originalFetch = globalThis.fetch;
globalThis.fetch = (input, init = {}) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith(gateUrl)) {
    return originalFetch(input, init);
  }
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  if (!headers.has('authorization')) {
    headers.set('authorization', `Bearer ${apiKey}`);
  }
  return originalFetch(input, { ...init, headers });
};
