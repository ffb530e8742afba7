// The shared part of every scenario group: its configuration in, one JSON document of outcomes out.
//
// A scenario group is a script that calls runCases({ name: async (ctx) => value, ... }). The Java side
// (launcher's RealClients) runs it with the configuration as JSON in the environment variable
// SCENARIO_CONFIG and reads stdout: {"cases": {name: outcome}}, where an outcome is
//   { ok: true,  value, exchanges }                      the client call returned
//   { ok: false, status, error, errorClass, type, errors, body, exchanges }   the client call threw
// (error: its message; errorClass: its constructor's name, e.g. RequestError or ForbiddenLinearError;
// type and errors: the Linear SDK's LinearError.type and its parsed GraphQL errors)
// and exchanges lists every HTTP request the client library really sent for the case, in order:
//   { method, url, status, correlationId, auditLogId }
// so a test sees what went over the wire, not only what the library made of it. Nothing else may
// write to stdout; diagnostics go to stderr.

export const config = JSON.parse(process.env.SCENARIO_CONFIG ?? "{}");

let exchanges = [];
const realFetch = globalThis.fetch;

// Every client library here sends through the global fetch: record each exchange.
globalThis.fetch = async (input, init = {}) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const method = (init.method ?? (typeof input === "object" && input.method) ?? "GET").toUpperCase();
  const exchange = { method, url, status: null, correlationId: null, auditLogId: null };
  exchanges.push(exchange);
  const response = await realFetch(input, init);
  exchange.status = response.status;
  exchange.correlationId = response.headers.get("x-correlation-id");
  exchange.auditLogId = response.headers.get("x-gateway-audit-log-id");
  return response;
};

/** The body of a client library's HTTP error, whichever library threw it. */
function errorBody(error) {
  return error?.response?.data // octokit's RequestError
    ?? error?.raw?.response // the Linear SDK's LinearError: the parsed body, status and headers
    ?? null;
}

export async function runCases(cases) {
  const results = {};
  for (const [name, run] of Object.entries(cases)) {
    exchanges = [];
    try {
      const value = await run(config);
      results[name] = { ok: true, value: value ?? null, exchanges };
    } catch (error) {
      const body = errorBody(error);
      results[name] = {
        ok: false,
        status: error?.status ?? null,
        error: String(error?.message ?? error).slice(0, 1000),
        errorClass: error?.constructor?.name ?? null,
        type: error?.type ?? null,
        errors: Array.isArray(error?.errors)
          ? error.errors.map((e) => ({ type: e?.type ?? null, message: e?.message ?? null, userError: e?.userError ?? null }))
          : null,
        body: body && typeof body === "object" ? { ...body, headers: undefined } : body,
        exchanges,
      };
    }
  }
  process.stdout.write(JSON.stringify({ cases: results }) + "\n");
}
