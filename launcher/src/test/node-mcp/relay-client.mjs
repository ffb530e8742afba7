// A client of the official TypeScript MCP SDK (@modelcontextprotocol/sdk, the version the pinned conformance
// package brings; see package-lock.json) in front of the gate, run by McpGateServerRequestsTest: it declares
// elicitation, sampling and roots, answers each, collects logging notifications, calls the upstream's
// ask_user tool and prints {text, logged} as one JSON line. Usage: node relay-client.mjs streamable|sse
// with GATE_URL and GATE_API_KEY set.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const url = new URL(process.env.GATE_URL ?? '');
const headers = { Authorization: `Bearer ${process.env.GATE_API_KEY}` };
// requestInit's headers go on every request of both transports (the SSE transport's GET too)
const transport = process.argv[2] === 'sse'
  ? new SSEClientTransport(url, { requestInit: { headers } })
  : new StreamableHTTPClientTransport(url, { requestInit: { headers } });

const client = new Client({ name: 'ts-relay-client', version: '1.0.0' },
  { capabilities: { elicitation: {}, sampling: {}, roots: { listChanged: true } } });
const logged = [];
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace' } }));
client.setRequestHandler(CreateMessageRequestSchema, async () => ({
  role: 'assistant', content: { type: 'text', text: '4' }, model: 'ts-model',
}));
client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///ts/project', name: 'project' }] }));
client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => { logged.push(String(note.params.data)); });

await client.connect(transport);
const result = await client.callTool({ name: 'ask_user', arguments: { marker: 'ts' } });
console.log(JSON.stringify({ text: result.content[0].text, logged }));
await client.close();
