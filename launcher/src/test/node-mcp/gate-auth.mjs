// Preloaded (node --import) into the conformance runner when it tests the gate: the runner has no
// option for request headers, and the gate needs the workspace's API key on every request. The
// runner sends with Node's fetch and with undici's request, which both go through undici's global
// dispatcher: one that adds the key to requests for GATE_URL's origin. Nothing else changes.
import { Agent, setGlobalDispatcher } from 'undici';

const gate = new URL(process.env.GATE_URL ?? '');
const apiKey = process.env.GATE_API_KEY;
if (!apiKey) {
  throw new Error('GATE_URL and GATE_API_KEY must be set');
}

const withKey = (dispatch) => (options, handler) => {
  if (new URL(options.origin).host === gate.host) {
    const headers = options.headers ?? {};
    if (Array.isArray(headers)) {
      options = { ...options, headers: [...headers, 'authorization', `Bearer ${apiKey}`] };
    } else if (typeof headers[Symbol.iterator] === 'function') {
      options = { ...options, headers: [...headers, ['authorization', `Bearer ${apiKey}`]] };
    } else {
      options = { ...options, headers: { ...headers, authorization: `Bearer ${apiKey}` } };
    }
  }
  return dispatch(options, handler);
};

setGlobalDispatcher(new Agent().compose(withKey));
